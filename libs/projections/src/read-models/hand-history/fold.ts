/**
 * Hand history and audit trail (`hh_`): one row per coup (round), one row per player of each coup, one row per
 * shoe, and the table state just before each hand (to replay a hand without reading the table's history).
 *
 * A hand spans the table stream's events from its `BettingOpened` to its `CoupResolved` or `RoundVoided`, or to
 * the last correction or void of its coup after it settled (`SettledCoupCorrected`, `SettledCoupVoided`, before
 * the next betting opens): contiguous revisions (a buy-in during betting is inside the span). The row keeps the span's first and last
 * global positions and revisions, the `prevHash` of its first event and the `hash` of its last: verification
 * reads exactly those events and checks the chain between the two.
 *
 * The fold (this file) dispatches each event to its handler (handlers.ts); the SQLite layout of a big open hand
 * is the runner's business (sqlite/storage.ts, attached in index.ts).
 */
import { initialState } from '@coup/table';
import { tableAfter } from '../kernel/table-fold';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type Write,
  byTable,
  only,
} from '../kernel/types';
import { HANDLERS, type Step } from './handlers';
import { currentHand } from './legacy';
import { openHandRow } from './rows';
import { HH_HANDS, handHistoryTables } from './schema';
import { type HandHistoryState, endAt } from './state';

/** `once(state, e, step)`, inlined: the step always returns a new state, so it stamps the position itself. */
function evolveHands(state: HandHistoryState, e: ProjectionEvent): Evolution<HandHistoryState> {
  if (e.position <= state.position) return only(state);
  return evolveHandsStep(state, e);
}

function evolveHandsStep(s: HandHistoryState, e: ProjectionEvent): Evolution<HandHistoryState> {
  const before = s.table;
  const table = tableAfter(before, e);
  const x: Step = {
    s,
    e,
    before,
    // a state stored before bets were chunked (flat `bets`) is converted here, see LegacyOpenHand
    hand: currentHand(s.hand),
    handEnd: s.handEnd === null ? null : endAt(e, s.handEnd.count + 1),
    shoe: s.shoe,
    snapshot: s.snapshot,
    settled: s.settled ?? null,
    writes: [],
  };
  // own keys only: an event type named like an Object property (`__proto__`, `constructor`) has no handler
  const type = e.event.type;
  const handler = Object.hasOwn(HANDLERS, type)
    ? (HANDLERS[type] as (x: Step, d: unknown) => void)
    : undefined;
  if (handler !== undefined) handler(x, e.event.data);
  return {
    // written out (not `...s`): the state's fields in order, once per event
    state: {
      position: e.position,
      tableId: s.tableId,
      table,
      hand: x.hand,
      handEnd: x.hand === null ? null : x.handEnd,
      shoe: x.shoe,
      snapshot: x.snapshot,
      settled: x.settled,
    },
    writes: x.writes,
  };
}

/** The open hand's row (rewritten once per batch while the hand is in progress). */
function materializeHands(state: HandHistoryState): Write[] {
  const hand = currentHand(state.hand);
  if (hand === null || state.handEnd === null) return [];
  return [{ kind: 'upsert', table: HH_HANDS, row: openHandRow(state.tableId, hand, state.handEnd) }];
}

/** The hand history's fold, without its SQLite storage (see index.ts for the projection the runner runs). */
export const handHistoryFold: ProjectionModel<HandHistoryState> = {
  name: 'hand-history',
  prefix: 'hh',
  // 3: the decider's state holds the round's stakes (STATE_VERSION 2): its stored states are refolded
  version: 3,
  description:
    'One record per coup: bets, cards, result, settlements, voids, corrections and voids after it settled, event span and chain hashes; shoes.',
  tables: handHistoryTables,
  keyOf: byTable,
  initial: (tableId) => ({
    position: 0,
    tableId,
    table: initialState,
    hand: null,
    handEnd: null,
    shoe: null,
    snapshot: null,
    settled: null,
  }),
  evolve: evolveHands,
  materialize: materializeHands,
};
