/**
 * Exact odds by full combinatorial enumeration with card removal.
 *
 * Counting convention (the usual one, e.g. the Wizard of Odds tables): every ordered sequence of six distinct
 * physical cards drawn from the shoe counts once, whether or not the coup uses all six, so the total for a shoe
 * of N cards is N (N-1) (N-2) (N-3) (N-4) (N-5) (for 8 decks 4,998,398,275,503,360).
 *
 * Method: only card values matter to the outcome, so the enumeration runs over the 10 values (value 0 holds the
 * tens and faces: 16 per deck), by coup feature (odds-buckets.ts); the outcome counts here are sums of its
 * buckets. Every count is an integer below N^6 < 2^53 for up to 8 decks, so the loops run on plain numbers, all
 * exact; they become BigInt at the end. Probabilities and edges are then the exact rationals rounded once to a
 * double. The odds of every bet of the catalogue, side bets included, are in odds-bets.ts.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot loops over typed arrays whose indices are
   bounded by construction; noUncheckedIndexedAccess would otherwise need a check per access. */
import { RANKS, checkDecks } from './cards';
import { EngineError } from './errors';
import { BUCKETS, checkedShoeSize, countsByFeature, fallingProduct, isNaturalBucket } from './odds-buckets';
import { ratioToNumber } from './odds-ratio';

export { ratioToNumber };

/** The exact odds of a shoe and the house edge of each bet under the table's payouts. */
export interface ExactOdds {
  /** Decks in the shoe. */
  readonly decks: number;
  /** What a tie pays, to 1 (the tie bet's edge depends on it). */
  readonly tiePays: 8 | 9;
  /** Probability of each outcome (they sum to 1). */
  readonly probabilities: { readonly player: number; readonly banker: number; readonly tie: number };
  /**
   * House edge of each bet as a fraction of the stake per coup (0.0106 is 1.06%), ties counted as pushes for
   * player and banker; banker wins pay 0.95 (the exact 5% commission).
   */
  readonly houseEdge: { readonly player: number; readonly banker: number; readonly tie: number };
  /** Probability of a natural: either hand totals 8 or 9 on its first two cards. */
  readonly natural: number;
  /** Probability that the first two cards of that hand are of the same rank (e.g. two queens). */
  readonly pairs: { readonly player: number; readonly banker: number };
  /** The exact counts of ordered six-card sequences behind the probabilities. */
  readonly counts: {
    readonly total: bigint;
    readonly player: bigint;
    readonly banker: bigint;
    readonly tie: bigint;
    readonly natural: bigint;
  };
}

/** Exact counts of ordered six-card sequences for a shoe composition. */
export interface CoupCounts {
  /** All ordered six-card sequences: N (N-1) ... (N-5). */
  readonly total: bigint;
  /** Sequences in which the player wins. */
  readonly player: bigint;
  /** Sequences in which the banker wins. */
  readonly banker: bigint;
  /** Sequences ending in a tie. */
  readonly tie: bigint;
  /** Sequences with a natural. */
  readonly natural: bigint;
}

/**
 * Exact counts over ordered six-card sequences for a shoe holding `valueCounts[v]` cards of each baccarat value
 * v = 0..9 (a full deck holds 16 of value 0 and 4 of each other value).
 * @throws EngineError `INVALID_ARGUMENT` unless there are 10 non-negative integer counts, at least 6 cards in
 *   all, and N (N-1) ... (N-5) below 2^53 (any shoe of up to 8 decks qualifies).
 */
export function exactCountsByValue(valueCounts: readonly number[]): CoupCounts {
  const buckets = countsByFeature(valueCounts);
  let player = 0;
  let banker = 0;
  let tie = 0;
  let natural = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const x = buckets[i]!;
    if (x === 0) continue;
    const pt = Math.floor(i / 10) % 10;
    const bt = i % 10;
    if (pt > bt) player += x;
    else if (bt > pt) banker += x;
    else tie += x;
    if (isNaturalBucket(i)) natural += x;
  }
  // Every addend and partial sum is an integer no larger than N (N-1) ... (N-5) < 2^53, hence exact.
  return {
    total: BigInt(fallingProduct(checkedShoeSize(valueCounts), 6)),
    player: BigInt(player),
    banker: BigInt(banker),
    tie: BigInt(tie),
    natural: BigInt(natural),
  };
}

/** The 8:1 or 9:1 check for `tiePays`. */
function checkTiePays(tiePays: unknown): 8 | 9 {
  if (tiePays !== 8 && tiePays !== 9) {
    throw new EngineError('INVALID_ARGUMENT', `tiePays must be 8 or 9, got ${String(tiePays)}`, { tiePays });
  }
  return tiePays;
}

/**
 * Exact probabilities of player, banker and tie for a full shoe of `decks` decks (with card removal, by full
 * enumeration), the house edge of each bet for the table's tie payout (8:1 by default), the probability of a
 * natural and of each pair, and the exact counts behind them.
 * For 8 decks: banker 0.458597, player 0.446247, tie 0.095156; edges banker 1.06%, player 1.24%, tie 14.36% at
 * 8:1 (4.84% at 9:1).
 * @throws EngineError `INVALID_DECKS` unless `decks` is an integer 1-8; `INVALID_ARGUMENT` for a bad `tiePays`.
 */
export function exactOdds(options: { decks: number; tiePays?: 8 | 9 }): ExactOdds {
  const decks = checkDecks(options?.decks);
  const tiePays = checkTiePays(options?.tiePays ?? 8);
  const valueCounts = Array.from({ length: 10 }, (_, v) => (v === 0 ? 16 : 4) * decks);
  const counts = exactCountsByValue(valueCounts);
  const { total, player, banker, tie } = counts;
  // Pairs: the hand's first two cards are two of the 4 x decks cards of one of the 13 ranks.
  const perRank = BigInt(4 * decks);
  const cards = BigInt(52 * decks);
  const pairNumerator = BigInt(RANKS.length) * perRank * (perRank - 1n);
  const pairDenominator = cards * (cards - 1n);
  const pair = ratioToNumber(pairNumerator, pairDenominator);
  return {
    decks,
    tiePays,
    probabilities: {
      player: ratioToNumber(player, total),
      banker: ratioToNumber(banker, total),
      tie: ratioToNumber(tie, total),
    },
    houseEdge: {
      // player: loses on banker, wins on player: (B - P) / T
      player: ratioToNumber(banker - player, total),
      // banker: wins 0.95 on banker, loses on player: (P - 0.95 B) / T = (20 P - 19 B) / 20 T
      banker: ratioToNumber(20n * player - 19n * banker, 20n * total),
      // tie: wins tiePays on a tie, loses 1 otherwise: 1 - (tiePays + 1) tie / T
      tie: ratioToNumber(total - BigInt(tiePays + 1) * tie, total),
    },
    natural: ratioToNumber(counts.natural, total),
    pairs: { player: pair, banker: pair },
    counts,
  };
}

export {
  type BetOdds,
  type BetOddsRules,
  type BetResultOdds,
  type ExactBetOdds,
  type ShoeComposition,
  exactBetOdds,
  exactBetOddsForShoe,
} from './odds-bets';
