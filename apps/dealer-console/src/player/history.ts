/**
 * The player's history on its online table, folded from the table's own events (the player's view of them: only its
 * own bets and settlements, seeds only once revealed). Each coup comes with the shuffle commitment published in
 * `ShoeStarted` before any bet and the seed revealed in `ShoeEnded`, checked in the browser:
 * sha256(seed) must equal the commitment. Pure.
 */
import { commitment, seedFromHex, type Card, type Outcome } from '@coup/engine';
import type { EventData, Settlement, TableEvent } from '@coup/table';

/** A settled coup put right by a supervisor: re-resolved from a corrected card, or voided (every stake returned). */
export type Amendment =
  | { readonly kind: 'corrected'; readonly reason: string; readonly at: string }
  | { readonly kind: 'voided'; readonly reason: string; readonly at: string; readonly returned: number };

export interface HistoryEntry {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly at: string;
  readonly playerCards: readonly Card[];
  readonly bankerCards: readonly Card[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly outcome: Outcome;
  /** The player's bets as settled (after a correction: as settled again). */
  readonly settlements: readonly Settlement[];
  /** Corrected or voided after it settled (the last amendment), else null. */
  readonly amended: Amendment | null;
  /** Published before betting opened on this coup's shuffle. */
  readonly commitment: string | null;
  /** Revealed after the coup (null until then). */
  readonly seed: string | null;
  /** sha256(seed) === commitment; null while either is missing. */
  readonly verified: boolean | null;
}

/** Whether sha256 of the seed's bytes is the commitment (false for a malformed seed). */
export function seedMatches(seed: string, published: string): boolean {
  try {
    return commitment(seedFromHex(seed)) === published.toLowerCase();
  } catch {
    return false;
  }
}

type Coup = Omit<HistoryEntry, 'commitment' | 'seed' | 'verified'>;

/** A coup as resolved (or re-resolved by a correction), with the player's settlements in it. */
function coupOf(
  d: EventData<'CoupResolved'> | EventData<'SettledCoupCorrected'>,
  mine: readonly Settlement[],
) {
  const { roundNo, shoeNo, at, playerCards, bankerCards, playerTotal, bankerTotal, outcome } = d;
  return {
    roundNo,
    shoeNo,
    at,
    playerCards,
    bankerCards,
    playerTotal,
    bankerTotal,
    outcome,
    settlements: mine,
  };
}

/** The player's coups by round, in the order resolved; a settled coup's correction or void amends its entry. */
function coupsOf(events: readonly TableEvent[], playerId: string): Coup[] {
  const coups = new Map<number, Coup>();
  const amend = (roundNo: number, change: (c: Coup) => Coup) => {
    const c = coups.get(roundNo);
    if (c) coups.set(roundNo, change(c));
  };
  for (const e of events) {
    if (e.type === 'CoupResolved') {
      const mine = e.data.settlements.filter((s) => s.playerId === playerId);
      if (mine.length > 0) coups.set(e.data.roundNo, { ...coupOf(e.data, mine), amended: null });
    } else if (e.type === 'SettledCoupCorrected') {
      const { reason, at, settlements } = e.data;
      const mine = settlements.filter((s) => s.playerId === playerId);
      // the time stays the coup's own: the correction's is in `amended`
      amend(e.data.roundNo, (c) => ({
        ...coupOf(e.data, mine),
        at: c.at,
        amended: { kind: 'corrected', reason, at },
      }));
    } else if (e.type === 'SettledCoupVoided') {
      const { reason, at } = e.data;
      const returned = e.data.returned
        .filter((r) => r.playerId === playerId)
        .reduce((n, r) => n + r.amount, 0);
      amend(e.data.roundNo, (c) => ({ ...c, amended: { kind: 'voided', reason, at, returned } }));
    }
  }
  return [...coups.values()];
}

/** The coups `playerId` had stakes in, newest first, each as last amended. */
export function historyOf(events: readonly TableEvent[], playerId: string): HistoryEntry[] {
  const commitments = new Map<number, string | null>();
  const seeds = new Map<number, string | null>();
  for (const e of events) {
    if (e.type === 'ShoeStarted') commitments.set(e.data.shoeNo, e.data.commitment);
    else if (e.type === 'ShoeEnded') seeds.set(e.data.shoeNo, e.data.seed);
  }
  return coupsOf(events, playerId)
    .map((c) => {
      const published = commitments.get(c.shoeNo) ?? null;
      const seed = seeds.get(c.shoeNo) ?? null;
      return {
        ...c,
        commitment: published,
        seed,
        verified: published !== null && seed !== null ? seedMatches(seed, published) : null,
      };
    })
    .reverse();
}
