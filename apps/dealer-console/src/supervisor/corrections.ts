/**
 * What a supervisor may put right at a table now, from the service's view (the service still has the last word):
 * a round in play may be voided, and on a live table its dealt cards corrected; the coup just settled may be
 * corrected (live) or voided, with a reason, until the next betting opens or the table's `correctionSeconds` pass.
 */
import { type Card, cardFromSpelling } from '@coup/engine';
import type { TableView } from '@coup/table';
import { command } from '../api';

export interface Corrections {
  /** Whether a dealt card may be corrected (live tables). */
  readonly cards: boolean;
  /** `round`: the round in play; `settled`: the coup just settled (a reason is required); null: nothing to void. */
  readonly void: 'round' | 'settled' | null;
  /** When the settled coup's window closes (ISO), when the table's rule sets one. */
  readonly until: string | null;
}

const NONE: Corrections = { cards: false, void: null, until: null };

export function correctionsOf(view: TableView | null, nowMs: number): Corrections {
  const round = view?.round ?? null;
  if (!view || view.status !== 'open' || round === null) return NONE;
  const live = view.rules?.dealing === 'live';
  if (round.status === 'betting') return { cards: false, void: 'round', until: null };
  if (round.status === 'dealing') return { cards: live, void: 'round', until: null };
  if (round.status !== 'resolved' || round.result === null) return NONE;
  const seconds = view.rules?.correctionSeconds;
  const until =
    seconds === undefined ? null : new Date(Date.parse(round.result.at) + seconds * 1000).toISOString();
  if (until !== null && nowMs > Date.parse(until)) return NONE;
  return { cards: live, void: 'settled', until };
}

/** A card as typed (`10h`, `th`, `Ah`), the engine's one spelling rule; null when it is not a card. */
export const cardTyped = (text: string): Card | null => cardFromSpelling(text);

/**
 * The supervisor's commands: correct a dealt card (a reason for a settled coup), void a round or a settled coup;
 * each with its action's Idempotency-Key.
 */
export function supervisorClient(token: string) {
  const r = (tableId: string, roundNo: number) => `/tables/${encodeURIComponent(tableId)}/rounds/${roundNo}`;
  return {
    correctCard: (tableId: string, roundNo: number, index: number, card: Card, reason: string) =>
      command<unknown>(token, 'PUT', `${r(tableId, roundNo)}/cards/${index}`, {
        card,
        ...(reason.trim() === '' ? {} : { reason: reason.trim() }),
      }),
    voidRound: (tableId: string, roundNo: number, reason: string) =>
      command<unknown>(token, 'POST', `${r(tableId, roundNo)}/void`, { reason: reason.trim() }),
  };
}

export type SupervisorApi = ReturnType<typeof supervisorClient>;
