/**
 * The analysts' model (`an_`): a star schema of facts (coups, bets with their settlement, cash movements,
 * corrections and voids) and dimensions (tables with their rules, players, staff, shoes, gaming days, shifts,
 * bet types with their exact edge and variance). Every fact row carries its gaming day, shift and local hour,
 * placed by the configured gaming day (`analystProjection(config)`): the projection's version carries a digest
 * of the configuration, so a read model folded under another one is rebuilt.
 *
 * A coup corrected or voided after it settled is rewritten in place (its coup and bet rows hold the result in
 * force, with their status), and the amendment is a fact of its own. The summary tables (`an_sum_*`, sums.ts)
 * add the facts up per gaming day, table and shift for the reports over long spans. The fold's state
 * (`an_state`) is internal.
 */
import type { TableEvent } from '@coup/table';
import { type Evolution, type ProjectionEvent, type ProjectionModel, byTable, only } from '../kernel/types';
import { GamingClock } from './gaming-day';
import {
  type GamingDayConfig,
  describeGamingDay,
  gamingDayConfig,
  gamingDayDigest,
} from './gaming-day-config';
import { HANDLERS, SILENT } from './handlers';
import { factTables } from './schema-facts';
import { dimTables } from './schema-dims';
import { sumTables } from './schema-sums';
import { type AnalystState, Step } from './step';
import { NO_SUMS } from './sums';

/** Bump when the tables or the fold change (the version is this x 2^24 + the configuration's digest). */
export const ANALYST_FOLD_VERSION = 2;

export const analystTables = [...factTables, ...dimTables, ...sumTables];

const ALL_TYPES = Object.keys(HANDLERS) as TableEvent['type'][];

/** One event's fold (as `once` folds: an event at or before the state's position changes nothing). */
function evolveStep(clock: GamingClock, s: AnalystState, e: ProjectionEvent): Evolution<AnalystState> {
  if (e.position <= s.position) return only(s);
  const type = e.event.type;
  // own keys only: an unknown type (or one named like an Object property) changes nothing
  if (!Object.hasOwn(HANDLERS, type) || SILENT.has(type)) return only(s);
  const step = new Step(s, e, clock);
  (HANDLERS[type] as (step: Step, d: unknown) => void)(step, e.event.data);
  // the state stamped with the event's position when the event changed something (once's rule)
  return step.writes.length === 0 && !step.changed ? only(s) : step.done();
}

/** The analysts' projection under a gaming-day configuration (default: 06:00 UTC, three shifts). */
export function analystProjection(
  config: GamingDayConfig = gamingDayConfig(),
): ProjectionModel<AnalystState> {
  const clock = new GamingClock(config);
  return {
    name: 'analyst',
    prefix: 'an',
    version: ANALYST_FOLD_VERSION * 2 ** 24 + gamingDayDigest(config),
    description: `The analysts' star schema: facts (coups, bets with their settlement and exact edge, cash movements, corrections and voids) and dimensions (tables and their rules, players, staff, shoes, gaming days, shifts, bet types), each fact placed in its gaming day, shift and hour (here: gaming day from ${describeGamingDay(config)}), and the facts summed per gaming day, table and shift (with the dealer, or the bet type) for the reports. See docs/analyst-schema.md.`,
    tables: analystTables,
    handles: new Set(ALL_TYPES.filter((t) => !SILENT.has(t))),
    keyOf: byTable,
    initial: (tableId) => ({
      position: 0,
      tableId,
      rules: null,
      round: null,
      settled: null,
      dealerId: null,
      shoe: null,
      day: null,
      sums: NO_SUMS,
    }),
    evolve: (state, e) => evolveStep(clock, state, e),
  };
}
