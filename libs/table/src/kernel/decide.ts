/**
 * `decide(command, state) -> events | domain error`, run once for every command from its spec. Pure: time, seeds
 * and ids come in with the command and what they produced is recorded in the events. Never throws for bad input:
 * a command straight from the wire is checked and refused with a typed error and no events.
 *
 * Checks run in this order, so a command that breaks several rules gets the first: the envelope
 * (INVALID_COMMAND) -> the table exists (UNKNOWN_TABLE) -> the role (FORBIDDEN) -> a personal table's own rule
 * (PERSONAL_TABLE) -> a player acts for itself (FORBIDDEN) -> the table is open (TABLE_CLOSED; CashOut is still
 * taken) -> the spec's authorize -> the data's shape (400 codes) -> the command's own rules (dealing mode, phase,
 * round, the rest).
 */
import type { TableState } from '../state';
import { type DomainError, type TableEvent, domainError } from '../vocabulary';
import type { Ctx, OpenCtx } from './context';
import { envelope } from './envelope';
import { actFor } from './guards';
import { personalTable } from './personal-table';
import { Refusal, type Verdict, refuse } from './refusal';
import type { AnySpec } from './spec';

/** What `decide` answers: the new events, or why the command is refused (and nothing is recorded). */
export type Decision =
  | { readonly ok: true; readonly events: readonly TableEvent[] }
  | { readonly ok: false; readonly error: DomainError };

/** The decide function of these specs. */
export function decider(specs: Readonly<Record<string, AnySpec>>) {
  return function decide(command: unknown, state: TableState): Decision {
    const outcome = verdict(command, state, specs);
    return outcome instanceof Refusal ? { ok: false, error: outcome.error } : { ok: true, events: outcome };
  };
}

function verdict(command: unknown, state: TableState, specs: Readonly<Record<string, AnySpec>>): Verdict {
  const env = envelope(command, specs);
  if (env instanceof Refusal) return env;
  const { spec, data, meta, atMs } = env;
  const ctx: Ctx = { state, actor: meta.actor, at: meta.at, atMs };
  if (state.phase === 'none' && spec.opensTable !== true) {
    return new Refusal(domainError('UNKNOWN_TABLE', 'No such table: open it first'));
  }
  if (!spec.roles.includes(meta.actor.role)) {
    return refuse('FORBIDDEN', `The ${meta.actor.role} role may not ${spec.type}`, {
      role: meta.actor.role,
      command: spec.type,
    });
  }
  const refused =
    personalTable(spec.personal, ctx, data) ?? (spec.actsForPlayer ? forPlayer(ctx, data) : null);
  if (refused) return refused;
  if (spec.opensTable === true) return parsedAndDecided(spec, data, ctx as OpenCtx);
  const rules = state.rules;
  if (rules === null) return refuse('UNKNOWN_TABLE', 'No such table: open it first');
  if (state.phase === 'closed' && !spec.closedTable) {
    return refuse('TABLE_CLOSED', `Table ${state.tableId} is closed`, { tableId: state.tableId });
  }
  const open: OpenCtx = { ...ctx, rules };
  return spec.authorize?.(open) ?? parsedAndDecided(spec, data, open);
}

/** A player acts only for itself (the data's playerId, read as sent: its shape is checked later). */
function forPlayer(ctx: Ctx, data: Record<string, unknown>): Refusal | null {
  const playerId = data['playerId'];
  if (typeof playerId === 'string') return actFor(ctx, playerId);
  if (ctx.actor.role === 'player') {
    return new Refusal(domainError('FORBIDDEN', 'A player may bet only for itself', { field: 'playerId' }));
  }
  return null;
}

/** Parses once, then decides on the typed command. The opening spec's decide reads no rules (its ctx is a Ctx). */
function parsedAndDecided(spec: AnySpec, data: Record<string, unknown>, ctx: OpenCtx): Verdict {
  const command = spec.parse(data);
  return command instanceof Refusal ? command : spec.decide(command, ctx);
}
