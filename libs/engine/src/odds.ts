/**
 * Exact odds by full combinatorial enumeration with card removal.
 *
 * Counting convention (the usual one, e.g. the Wizard of Odds tables): every ordered sequence of six distinct
 * physical cards drawn from the shoe counts once, whether or not the coup uses all six, so the total for a shoe
 * of N cards is N (N-1) (N-2) (N-3) (N-4) (N-5) (for 8 decks 4,998,398,275,503,360).
 *
 * Method: only card values matter to the outcome, so the enumeration runs over the 10 values (value 0 holds the
 * tens and faces: 16 per deck), weighting each value sequence by the number of physical card sequences it
 * stands for (a falling product of the counts left), and multiplying a coup that uses k < 6 cards by the
 * (N-k)...(N-5) ways to draw the unused cards. At most 10^4 first-four-card sequences times 10 x 10 third cards.
 * Every count is an integer below N^6 < 2^53 for up to 8 decks, so the loop runs on plain numbers, all exact;
 * they become BigInt at the end. Probabilities and edges are then the exact rationals rounded once to a double.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot loops over typed arrays whose indices are
   bounded by construction; noUncheckedIndexedAccess would otherwise need a check per access. */
import { RANKS, checkDecks } from './cards';
import { BANKER_DRAW_TABLE, PLAYER_DRAW_TABLE } from './coup';
import { EngineError } from './errors';

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

// The tableau as tables built from playerDraws and bankerDraws themselves, so the enumeration cannot disagree.
const PLAYER_DRAWS = PLAYER_DRAW_TABLE;
const BANKER_DRAWS = BANKER_DRAW_TABLE;

/**
 * The number of cards in a shoe of `valueCounts`, checked: 10 non-negative integer counts, at least 6 cards,
 * N (N-1) ... (N-5) below 2^53.
 */
function checkedShoeSize(valueCounts: readonly number[]): number {
  if (valueCounts.length !== 10 || valueCounts.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      'Expected 10 non-negative integer counts, one per card value 0-9',
      {
        valueCounts,
      },
    );
  }
  let n = 0;
  for (let v = 0; v < 10; v++) n += valueCounts[v]!;
  const total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5);
  if (n < 6 || !Number.isSafeInteger(total)) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `The shoe must hold from 6 cards to as many as keep N(N-1)...(N-5) below 2^53, got ${n}`,
      { cards: n },
    );
  }
  return n;
}

/**
 * The third cards of a coup without a natural, after four cards of weight `w4` (the shoe `c` without them)
 * with two-card totals `pt` and `bt`: adds the player, banker and tie counts to `acc[0..2]`. Sums in locals
 * and writes `acc` once, so the inner loops run as they would inline.
 */
function addThirdCards(
  c: Float64Array,
  pt: number,
  bt: number,
  w4: number,
  unused1: number,
  unused2: number,
  acc: Float64Array,
): void {
  let player = 0;
  let banker = 0;
  let tie = 0;
  if (PLAYER_DRAWS[pt] === 1) {
    for (let p3 = 0; p3 < 10; p3++) {
      const w5 = w4 * c[p3]!;
      if (w5 === 0) continue;
      const pt3 = (pt + p3) % 10;
      if (BANKER_DRAWS[bt * 11 + 1 + p3] === 1) {
        c[p3]! -= 1;
        for (let b3 = 0; b3 < 10; b3++) {
          const x = w5 * c[b3]!;
          const bt3 = (bt + b3) % 10;
          if (pt3 > bt3) player += x;
          else if (bt3 > pt3) banker += x;
          else tie += x;
        }
        c[p3]! += 1;
      } else {
        const x = w5 * unused1;
        if (pt3 > bt) player += x;
        else if (bt > pt3) banker += x;
        else tie += x;
      }
    }
  } else if (BANKER_DRAWS[bt * 11] === 1) {
    for (let b3 = 0; b3 < 10; b3++) {
      const x = w4 * c[b3]! * unused1;
      const bt3 = (bt + b3) % 10;
      if (pt > bt3) player += x;
      else if (bt3 > pt) banker += x;
      else tie += x;
    }
  } else {
    const x = w4 * unused2;
    if (pt > bt) player += x;
    else if (bt > pt) banker += x;
    else tie += x;
  }
  acc[0]! += player;
  acc[1]! += banker;
  acc[2]! += tie;
}

/**
 * Exact counts over ordered six-card sequences for a shoe holding `valueCounts[v]` cards of each baccarat value
 * v = 0..9 (a full deck holds 16 of value 0 and 4 of each other value).
 * @throws EngineError `INVALID_ARGUMENT` unless there are 10 non-negative integer counts, at least 6 cards in
 *   all, and N (N-1) ... (N-5) below 2^53 (any shoe of up to 8 decks qualifies).
 */
export function exactCountsByValue(valueCounts: readonly number[]): CoupCounts {
  const n = checkedShoeSize(valueCounts);
  const c = Float64Array.from(valueCounts);
  const total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5);
  const unused2 = (n - 4) * (n - 5); // ways to draw the two unused cards of a four-card coup
  const unused1 = n - 5; // ... the one unused card of a five-card coup
  const drawn = new Float64Array(3); // player, banker, tie of the coups without a natural
  let player = 0;
  let banker = 0;
  let tie = 0;
  let natural = 0;
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = c[p1]!;
    if (w1 === 0) continue;
    c[p1] = w1 - 1;
    for (let b1 = 0; b1 < 10; b1++) {
      const w2 = w1 * c[b1]!;
      if (w2 === 0) continue;
      c[b1]! -= 1;
      for (let p2 = 0; p2 < 10; p2++) {
        const w3 = w2 * c[p2]!;
        if (w3 === 0) continue;
        c[p2]! -= 1;
        const pt = (p1 + p2) % 10;
        for (let b2 = 0; b2 < 10; b2++) {
          const w4 = w3 * c[b2]!;
          if (w4 === 0) continue;
          const bt = (b1 + b2) % 10;
          if (pt >= 8 || bt >= 8) {
            const x = w4 * unused2;
            natural += x;
            if (pt > bt) player += x;
            else if (bt > pt) banker += x;
            else tie += x;
            continue;
          }
          c[b2]! -= 1;
          addThirdCards(c, pt, bt, w4, unused1, unused2, drawn);
          c[b2]! += 1;
        }
        c[p2]! += 1;
      }
      c[b1]! += 1;
    }
    c[p1] = w1;
  }
  // Every addend and partial sum above is an integer no larger than `total` < 2^53, hence exact (in any order).
  return {
    total: BigInt(total),
    player: BigInt(player + drawn[0]!),
    banker: BigInt(banker + drawn[1]!),
    tie: BigInt(tie + drawn[2]!),
    natural: BigInt(natural),
  };
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** The rational `numerator / denominator` correctly rounded to the nearest double. */
export function ratioToNumber(numerator: bigint, denominator: bigint): number {
  if (denominator <= 0n) {
    throw new EngineError('INVALID_ARGUMENT', 'The denominator must be positive', {
      denominator: String(denominator),
    });
  }
  if (numerator < 0n) return -ratioToNumber(-numerator, denominator);
  if (numerator === 0n) return 0;
  // A quotient of at least 65 significant bits plus a sticky bit for the remainder rounds once, correctly.
  const shift = Math.max(0, 66 + bitLength(denominator) - bitLength(numerator));
  const scaled = numerator << BigInt(shift);
  const q = scaled / denominator;
  const sticky = scaled % denominator === 0n ? 0n : 1n;
  return Number((q << 1n) | sticky) / 2 ** (shift + 1);
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
