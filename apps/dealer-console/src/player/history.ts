/**
 * The player's history on its online table, folded from the table's own events (the player's view of them: only its
 * own bets and settlements, seeds only once revealed). Each coup comes with the shuffle commitment published in
 * `ShoeStarted` before any bet and the seed revealed in `ShoeEnded`, checked in the browser:
 * sha256(seed) must equal the commitment. Pure.
 */
import { commitment, seedFromHex, type Card, type Outcome } from '@coup/engine';
import type { Settlement, TableEvent } from '@coup/table';

export interface HistoryEntry {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly at: string;
  readonly playerCards: readonly Card[];
  readonly bankerCards: readonly Card[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly outcome: Outcome;
  readonly settlements: readonly Settlement[];
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

/** The coups `playerId` had stakes in, newest first. */
export function historyOf(events: readonly TableEvent[], playerId: string): HistoryEntry[] {
  const commitments = new Map<number, string | null>();
  const seeds = new Map<number, string | null>();
  const coups: Omit<HistoryEntry, 'commitment' | 'seed' | 'verified'>[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'ShoeStarted':
        commitments.set(e.data.shoeNo, e.data.commitment);
        break;
      case 'ShoeEnded':
        seeds.set(e.data.shoeNo, e.data.seed);
        break;
      case 'CoupResolved': {
        const mine = e.data.settlements.filter((s) => s.playerId === playerId);
        if (mine.length === 0) break;
        coups.push({
          roundNo: e.data.roundNo,
          shoeNo: e.data.shoeNo,
          at: e.data.at,
          playerCards: e.data.playerCards,
          bankerCards: e.data.bankerCards,
          playerTotal: e.data.playerTotal,
          bankerTotal: e.data.bankerTotal,
          outcome: e.data.outcome,
          settlements: mine,
        });
        break;
      }
      default:
        break;
    }
  }
  return coups
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
