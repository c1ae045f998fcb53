import { randomUUID } from 'node:crypto';
import {
  ERROR_HTTP_STATUS,
  EVENT_SCHEMA_VERSION,
  decide,
  evolve,
  replyFor,
  type TableState,
} from '@coup/table';
import type { NewEvent } from '@coup/event-store';
import { ApiError } from '../common/api-error';
import { eventIdFor, firstAnswer, uuidv7, type StoredReply } from './idempotency';
import { storedReply } from './key-replies';
import type { Pending } from './table-session';

export type Outcome =
  { readonly ok: true; readonly reply: unknown } | { readonly ok: false; readonly error: ApiError };

/** A key accepted in this batch: its answer, and the index (in the batch's events) of its last event. */
export interface BatchKey {
  readonly key: string;
  readonly hash: string;
  readonly reply: unknown;
  readonly lastEvent: number;
}

export interface BatchDecision {
  /** The state after every accepted command, in order. */
  readonly state: TableState;
  readonly events: NewEvent[];
  /** One per command of the batch, in order. */
  readonly outcomes: Outcome[];
  readonly keys: BatchKey[];
}

/**
 * Decides a batch of one table's commands in order, each on the state the ones before it left (ADR-4). A keyed
 * command whose key is already recorded (`recorded`) or accepted earlier in the batch gets that first answer when
 * it is the same caller and request, 422 IDEMPOTENCY_KEY_REUSED otherwise, and is never decided again.
 */
export function decideBatch(
  tableId: string,
  state: TableState,
  batch: readonly Pending[],
  recorded: (key: string) => StoredReply | undefined,
): BatchDecision {
  const events: NewEvent[] = [];
  const outcomes: Outcome[] = [];
  const keys: BatchKey[] = [];
  const inBatch = new Map<string, StoredReply>();
  for (const p of batch) {
    if (p.key !== null) {
      const first = inBatch.get(p.key) ?? recorded(p.key);
      if (first) {
        outcomes.push(firstAnswer(first, p.requestHash));
        continue;
      }
    }
    const decision = decide(p.command, state);
    // The decider accepts only with events (libs/table's invariants test); a keyed command without any would keep
    // no key, so its retry would be decided again: refused rather than answered with a promise not kept.
    if (!decision.ok || (p.key !== null && decision.events.length === 0)) {
      outcomes.push({ ok: false, error: refusalOf(p, decision) });
      continue;
    }
    let after = state;
    for (const e of decision.events) after = evolve(after, e);
    const reply = replyFor(p.command, decision.events, after);
    const commandId = p.key ?? randomUUID();
    const count = decision.events.length;
    const kept = p.key !== null ? storedReply(p.command, decision.events, reply) : null;
    decision.events.forEach((e, i) => {
      const last = i === count - 1;
      events.push({
        id: p.key !== null ? eventIdFor(tableId, p.key, i) : uuidv7(),
        type: e.type,
        data: e.data as never,
        metadata: {
          schemaVersion: EVENT_SCHEMA_VERSION[e.type],
          commandId,
          commandType: p.command.type,
          actor: `${p.command.meta.actor.role}:${p.command.meta.actor.id}`,
          ...(p.correlationId ? { correlationId: p.correlationId } : {}),
          ...(last && kept !== null ? { requestHash: p.requestHash, ...kept } : {}),
        },
      });
    });
    state = after;
    if (p.key !== null && count > 0) {
      inBatch.set(p.key, { hash: p.requestHash, reply });
      keys.push({ key: p.key, hash: p.requestHash, reply, lastEvent: events.length - 1 });
    }
    outcomes.push({ ok: true, reply });
  }
  return { state, events, outcomes, keys };
}

/** Why a command's decision is not applied: the decider's refusal, or an acceptance with nothing to record. */
function refusalOf(p: Pending, decision: ReturnType<typeof decide>): ApiError {
  if (decision.ok)
    return new ApiError(
      500,
      'INTERNAL_ERROR',
      `${p.command.type} was accepted with nothing to record: refused`,
    );
  const { code, message, details } = decision.error;
  return new ApiError(ERROR_HTTP_STATUS[code] ?? 400, code, message, details);
}
