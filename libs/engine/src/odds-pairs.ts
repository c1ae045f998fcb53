/**
 * The pair bets' exact counts in closed form. Pairs depend on ranks and suits, not on values, and only on the
 * first four cards: the player's are dealt 1st and 3rd, the banker's 2nd and 4th. Every ordering of four
 * distinct physical cards is equally counted, so the counts are those of a player pair on cards (1, 2) and a
 * banker pair on cards (3, 4): sums over the ranks and the card kinds (rank and suit) of falling products of
 * what the shoe holds, with card removal.
 *
 * Classes of a hand: 0 no pair, 1 a pair of one rank but not one kind, 2 a perfect pair (the same card twice,
 * as a multi-deck shoe allows). The nine combinations are indexed `player * 3 + banker`.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- loops over arrays of fixed length 52 and 13. */
import type { CoupFeatures } from './bets';

/** The pair class of a hand: none, a pair of one rank (not one kind), a perfect pair. */
export const PAIR_NONE = 0;
export const PAIR_RANK = 1;
export const PAIR_PERFECT = 2;

/** The pair flags of each of the nine combinations, indexed `player * 3 + banker`. */
export function pairFlags(
  combination: number,
): Pick<CoupFeatures, 'playerPair' | 'bankerPair' | 'playerPerfectPair' | 'bankerPerfectPair'> {
  const player = Math.floor(combination / 3);
  const banker = combination % 3;
  return {
    playerPair: player !== PAIR_NONE,
    bankerPair: banker !== PAIR_NONE,
    playerPerfectPair: player === PAIR_PERFECT,
    bankerPerfectPair: banker === PAIR_PERFECT,
  };
}

/** x (x-1): ordered pairs of distinct cards among x. */
const twoOf = (x: number): number => x * (x - 1);

/**
 * Sum over groups g (ranks, or kinds) of g(g-1) times the same-group ordered pairs left once two of g are gone:
 * ordered four-card sequences whose cards 1-2 are of one group and 3-4 are of one group.
 */
function bothOfOneGroup(groups: ArrayLike<number>, sumTwo: number): number {
  let total = 0;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    if (g >= 2) total += twoOf(g) * (sumTwo - twoOf(g) + twoOf(g - 2));
  }
  return total;
}

/**
 * The exact number of ordered six-card sequences in each of the nine pair combinations (indexed
 * `player * 3 + banker`) for a shoe holding `kindCounts[i]` of card `DECK[i]` (52 counts in deck order:
 * clubs A-K, diamonds, hearts, spades) and `n` cards in all. They sum to N (N-1) ... (N-5).
 */
export function countsByPairs(kindCounts: ArrayLike<number>, n: number): Float64Array {
  const ranks = new Float64Array(13);
  for (let i = 0; i < 52; i++) ranks[i % 13]! += kindCounts[i]!;
  let sumRank = 0; // ordered pairs of one rank
  for (let r = 0; r < 13; r++) sumRank += twoOf(ranks[r]!);
  let sumKind = 0; // ordered pairs of one kind
  for (let i = 0; i < 52; i++) sumKind += twoOf(kindCounts[i]!);
  // Cards 1-2 of one kind (rank r) and cards 3-4 of one rank: the rank r has two cards fewer.
  let perfectThenPair = 0;
  for (let i = 0; i < 52; i++) {
    const k = kindCounts[i]!;
    const r = ranks[i % 13]!;
    if (k >= 2) perfectThenPair += twoOf(k) * (sumRank - twoOf(r) + twoOf(r - 2));
  }
  const pairPair = bothOfOneGroup(ranks, sumRank);
  const perfectPerfect = bothOfOneGroup(kindCounts, sumKind);
  const rest2 = (n - 2) * (n - 3); // cards 3-4 after any two
  const unused = (n - 4) * (n - 5); // the fifth and sixth cards, drawn or not
  const counts = new Float64Array(9);
  const set = (player: number, banker: number, fourCards: number): void => {
    counts[player * 3 + banker] = fourCards * unused;
  };
  const perfectRank = perfectThenPair - perfectPerfect; // one hand perfect, the other a pair of one rank only
  const rankRank = pairPair - 2 * perfectThenPair + perfectPerfect;
  const perfectNone = sumKind * rest2 - perfectThenPair;
  const rankNone = (sumRank - sumKind) * rest2 - pairPair + perfectThenPair;
  set(PAIR_PERFECT, PAIR_PERFECT, perfectPerfect);
  set(PAIR_PERFECT, PAIR_RANK, perfectRank);
  set(PAIR_RANK, PAIR_PERFECT, perfectRank);
  set(PAIR_RANK, PAIR_RANK, rankRank);
  set(PAIR_PERFECT, PAIR_NONE, perfectNone);
  set(PAIR_NONE, PAIR_PERFECT, perfectNone);
  set(PAIR_RANK, PAIR_NONE, rankNone);
  set(PAIR_NONE, PAIR_RANK, rankNone);
  const paired = perfectPerfect + 2 * perfectRank + rankRank + 2 * perfectNone + 2 * rankNone;
  set(PAIR_NONE, PAIR_NONE, n * (n - 1) * rest2 - paired);
  return counts;
}
