/**
 * The exact enumeration by coup feature: for a shoe given as counts per card value, the number of ordered
 * six-card sequences (the Wizard of Odds convention, see odds.ts) behind each combination of the features that
 * card values decide: the final totals, the cards in each hand, and which hands had a two-card natural. Every
 * bet but the pair bets is a function of these (the pair bets are in odds-pairs.ts).
 *
 * Buckets: index `kind * 100 + playerTotal * 10 + bankerTotal`, kinds:
 * 0 both hands stood on two cards, no natural; 1 player drew, banker stood; 2 player stood, banker drew;
 * 3 both drew; 4 player natural only; 5 banker natural only; 6 both naturals.
 *
 * Method: the 10^4 value sequences of the first four cards, then the third cards, each value sequence weighted
 * by the number of physical card sequences it stands for (a falling product of the counts left), and a coup that
 * uses k < 6 cards by the (N-k)...(N-5) ways to draw the unused cards. Every addend and every partial sum of a
 * bucket is an integer no larger than N (N-1) ... (N-5) < 2^53, so the plain-number sums are exact.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot loops over typed arrays whose indices are
   bounded by construction; noUncheckedIndexedAccess would otherwise need a check per access. */
import type { CoupFeatures } from './bets';
import { BANKER_DRAW_TABLE, PLAYER_DRAW_TABLE, outcomeOf } from './coup';
import { EngineError } from './errors';

/** How many feature buckets there are: 7 kinds x 10 player totals x 10 banker totals. */
export const BUCKETS = 700;

/** The kinds of coup a bucket holds (see the module's comment). */
const KIND_STOOD = 0;
const KIND_PLAYER_DREW = 100;
const KIND_BANKER_DREW = 200;
const KIND_BOTH_DREW = 300;
const KIND_PLAYER_NATURAL = 400;
const KIND_BANKER_NATURAL = 500;
const KIND_BOTH_NATURALS = 600;

/**
 * The number of cards in a shoe of `valueCounts`, checked: 10 non-negative integer counts, at least 6 cards,
 * N (N-1) ... (N-5) below 2^53.
 * @throws EngineError `INVALID_ARGUMENT` otherwise.
 */
export function checkedShoeSize(valueCounts: readonly number[]): number {
  if (
    !Array.isArray(valueCounts) ||
    valueCounts.length !== 10 ||
    valueCounts.some((n) => !Number.isInteger(n) || n < 0)
  ) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      'Expected 10 non-negative integer counts, one per card value 0-9',
      { valueCounts },
    );
  }
  let n = 0;
  for (let v = 0; v < 10; v++) n += valueCounts[v]!;
  if (n < 6 || !Number.isSafeInteger(fallingProduct(n, 6))) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `The shoe must hold from 6 cards to as many as keep N(N-1)...(N-5) below 2^53, got ${n}`,
      { cards: n },
    );
  }
  return n;
}

/** n (n-1) ... (n-k+1), as a plain number (exact while below 2^53). */
export function fallingProduct(n: number, k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) p *= n - i;
  return p;
}

/**
 * The banker's third card: adds `w` times the count of each value b3 to the bucket of the banker's final total
 * (bt + b3) mod 10, `base` being the bucket of the banker's total 0 (two loops instead of a modulo).
 */
function addBankerThirdCard(
  c: Float64Array,
  w: number,
  base: number,
  bt: number,
  buckets: Float64Array,
): void {
  const wrap = 10 - bt;
  for (let b3 = 0; b3 < wrap; b3++) buckets[base + bt + b3]! += w * c[b3]!;
  for (let b3 = wrap; b3 < 10; b3++) buckets[base + bt + b3 - 10]! += w * c[b3]!;
}

/**
 * The third cards of a coup without a natural, after four cards of weight `w4` (the shoe `c` without them)
 * with two-card totals `pt` and `bt`: adds each final coup's count to its bucket.
 */
function addThirdCards(
  c: Float64Array,
  pt: number,
  bt: number,
  w4: number,
  unused1: number,
  unused2: number,
  buckets: Float64Array,
): void {
  if (PLAYER_DRAW_TABLE[pt] === 1) {
    for (let p3 = 0; p3 < 10; p3++) {
      const w5 = w4 * c[p3]!;
      if (w5 === 0) continue;
      const pt3 = (pt + p3) % 10;
      if (BANKER_DRAW_TABLE[bt * 11 + 1 + p3] === 1) {
        c[p3]! -= 1;
        addBankerThirdCard(c, w5, KIND_BOTH_DREW + pt3 * 10, bt, buckets);
        c[p3]! += 1;
      } else {
        buckets[KIND_PLAYER_DREW + pt3 * 10 + bt]! += w5 * unused1;
      }
    }
  } else if (BANKER_DRAW_TABLE[bt * 11] === 1) {
    addBankerThirdCard(c, w4 * unused1, KIND_BANKER_DREW + pt * 10, bt, buckets);
  } else {
    buckets[KIND_STOOD + pt * 10 + bt]! += w4 * unused2;
  }
}

/** The bucket of a coup decided on the first four cards by a natural. */
function naturalBucket(pt: number, bt: number): number {
  const kind = pt >= 8 ? (bt >= 8 ? KIND_BOTH_NATURALS : KIND_PLAYER_NATURAL) : KIND_BANKER_NATURAL;
  return kind + pt * 10 + bt;
}

/**
 * The exact number of ordered six-card sequences in each feature bucket for a shoe holding `valueCounts[v]`
 * cards of each baccarat value v = 0..9. The buckets sum to N (N-1) ... (N-5).
 * @throws EngineError `INVALID_ARGUMENT` unless there are 10 non-negative integer counts, at least 6 cards, and
 *   N (N-1) ... (N-5) below 2^53 (any shoe of up to 8 decks qualifies).
 */
export function countsByFeature(valueCounts: readonly number[]): Float64Array {
  const n = checkedShoeSize(valueCounts);
  const c = Float64Array.from(valueCounts);
  const unused2 = (n - 4) * (n - 5); // ways to draw the two unused cards of a four-card coup
  const unused1 = n - 5; // ... the one unused card of a five-card coup
  const buckets = new Float64Array(BUCKETS);
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
            buckets[naturalBucket(pt, bt)]! += w4 * unused2;
            continue;
          }
          c[b2]! -= 1;
          addThirdCards(c, pt, bt, w4, unused1, unused2, buckets);
          c[b2]! += 1;
        }
        c[p2]! += 1;
      }
      c[b1]! += 1;
    }
    c[p1] = w1;
  }
  return buckets;
}

const NO_PAIRS = {
  playerPair: false,
  bankerPair: false,
  playerPerfectPair: false,
  bankerPerfectPair: false,
} as const;

/** The features of every coup in bucket `i` (no pairs: those are counted apart, in odds-pairs.ts). */
export function bucketFeatures(i: number): CoupFeatures {
  const kind = Math.floor(i / 100) * 100;
  const playerTotal = Math.floor(i / 10) % 10;
  const bankerTotal = i % 10;
  return {
    outcome: outcomeOf(playerTotal, bankerTotal),
    playerTotal,
    bankerTotal,
    playerCards: kind === KIND_PLAYER_DREW || kind === KIND_BOTH_DREW ? 3 : 2,
    bankerCards: kind === KIND_BANKER_DREW || kind === KIND_BOTH_DREW ? 3 : 2,
    playerNatural: kind === KIND_PLAYER_NATURAL || kind === KIND_BOTH_NATURALS,
    bankerNatural: kind === KIND_BANKER_NATURAL || kind === KIND_BOTH_NATURALS,
    ...NO_PAIRS,
  };
}

/** Whether bucket `i` holds coups decided by a natural. */
export function isNaturalBucket(i: number): boolean {
  return i >= KIND_PLAYER_NATURAL;
}
