/**
 * A fast seeded simulator: whole shoes shuffled with a small PRNG, burned and dealt to the cut card under the
 * same rules as {@link advanceShoe} (it calls the same {@link coupsLeftAfter} and {@link startShoeProgress}), the
 * coups played with the tableau tables built from {@link playerDraws} and {@link bankerDraws}.
 *
 * The PRNG is xoshiro128** (Blackman and Vigna), seeded with the first 16 bytes of SHA-256 of the seed (a number
 * is first written as a decimal string, so `1` and `'1'` are the same seed) read as four big-endian 32-bit
 * words. One stream runs through all the shoes. Each shoe is a Fisher-Yates shuffle (from the end) of the
 * previous shoe's order, starting from deck order, with unbiased bounded integers (Lemire's multiply with
 * rejection, two 16-bit draws per word; see {@link shuffleInPlace}). This PRNG is for statistics only: real tables shuffle with {@link shuffle} from a 32-byte seed.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot loops over typed arrays whose indices are
   bounded by construction; noUncheckedIndexedAccess would otherwise need a check per access. */
import { sha256 } from '@noble/hashes/sha256';
import { utf8ToBytes } from '@noble/hashes/utils';
import { type Card, DECK, MAX_DECKS, RANKS, RANK_VALUES, checkDecks, rankIndex } from './cards';
import { type Outcome, resolveCoup } from './coup';
import type { PayoutRules } from './bets';
import { EngineError, describeInput } from './errors';
import {
  CUT_CARD_IN,
  DEFAULT_CUT_CARD,
  coupsLeftAfter,
  cutIndexFor,
  startShoeProgress,
  startShoeProgressAt,
} from './shoe';
import {
  type BetTally,
  RANK_OF_CARD,
  type SimulatedBets,
  BetCounter,
  checkSimulatedBets,
  orderedCardIds,
} from './simulate-bets';

/** What to simulate. */
export interface SimulateOptions {
  /** Decks per shoe, 1-8. */
  decks: number;
  /** How many whole shoes to play. */
  shoes: number;
  /** The seed: the same seed gives the same result. */
  seed: string | number;
  /** Cards behind the cut card (default 16). */
  cutCard?: number;
  /** Whether each shoe starts with the burn (default true); without it the first coup starts at the first card. */
  burn?: boolean;
  /** Called as shoes complete (about every 1% of them, and after the last). */
  onProgress?: (shoesDone: number, shoesTotal: number) => void;
  /** Bets to stake on every coup and settle (none when absent): the same shoes are played either way. */
  bets?: SimulatedBets;
}

/** What a simulation counted. */
export interface SimulationResult {
  /** Decks per shoe. */
  readonly decks: number;
  /** Shoes played. */
  readonly shoes: number;
  /** Coups played. */
  readonly coups: number;
  /** Coups won by each side, and ties. */
  readonly outcomes: { readonly player: number; readonly banker: number; readonly tie: number };
  /** Coups with a natural. */
  readonly naturals: number;
  /** Coups whose player (banker) hand began with two cards of one rank. */
  readonly pairs: { readonly player: number; readonly banker: number };
  /** Coups per shoe. */
  readonly handsPerShoe: { readonly min: number; readonly max: number; readonly mean: number };
  /** When bets were staked: their payout rules, the stake on each spot per coup, and each bet's tally. */
  readonly bets?: {
    readonly rules: PayoutRules;
    readonly stake: number;
    readonly tallies: readonly BetTally[];
  };
}

/** Slots of a tally: the running counts of {@link playShoe}. */
export const TALLY = {
  coups: 0,
  player: 1,
  banker: 2,
  tie: 3,
  naturals: 4,
  playerPairs: 5,
  bankerPairs: 6,
} as const;

/** A fresh tally (a Float64Array indexed by {@link TALLY}). */
export function newTally(): Float64Array {
  return new Float64Array(7);
}

/** Receives each coup the fast path plays (for tests): first card index, cards used, outcome, natural. */
export type CoupLog = (start: number, cardsUsed: number, outcome: Outcome, natural: boolean) => void;

const VALUE = Uint8Array.from(RANK_VALUES);
/**
 * HAND[a * 13 + b], for the first two cards of a hand of rank indices a and b: their total (low 4 bits), and
 * 16 if they are a pair (same rank).
 */
const HAND = Uint8Array.from({ length: 169 }, (_, i) => {
  const a = Math.floor(i / 13);
  const b = i % 13;
  return ((VALUE[a]! + VALUE[b]!) % 10) | (a === b ? 16 : 0);
});
/**
 * COUNT[code & 7] packs what one coup adds to the shoe's counters: player wins in bits 0-6, banker wins in
 * bits 7-13, naturals from bit 14 (a shoe of at most 8 decks has at most 104 coups, below 128).
 */
const COUNT = Int32Array.from({ length: 8 }, (_, c) => {
  const outcome = c & 3;
  return (outcome === 0 ? 1 : 0) + (outcome === 1 ? 1 << 7 : 0) + ((c & 4) !== 0 ? 1 << 14 : 0);
});
/** One card of each rank, to hand the turned card's rank to {@link startShoeProgress}. */
const CARD_OF_RANK: readonly Card[] = RANKS.map((r): Card => `${r}c`);
/** A card of each value 0-9, to build {@link coupTable} from {@link resolveCoup}. */
const CARD_OF_VALUE: readonly Card[] = ['Kc', 'Ac', '2c', '3c', '4c', '5c', '6c', '7c', '8c', '9c'];
const OUTCOME_CODE: Readonly<Record<Outcome, number>> = { player: 0, banker: 1, tie: 2 };
const OUTCOME_OF_CODE: readonly Outcome[] = ['player', 'banker', 'tie'];

let table: Uint8Array | undefined;

/**
 * The whole coup as one table lookup, built by calling {@link resolveCoup} (so the fast path cannot disagree
 * with it): the entry at `pt * 1000 + bt * 100 + v5 * 10 + v6` (player's and banker's two-card totals, values
 * of the fifth and sixth cards of the coup) holds `outcome | natural << 2 | cardsUsed << 3`, outcome 0 player,
 * 1 banker, 2 tie. Built on first use (10,000 coups, a few milliseconds).
 */
export function coupTable(): Uint8Array {
  if (table !== undefined) return table;
  const built = new Uint8Array(10_000);
  for (let pt = 0; pt < 10; pt++) {
    for (let bt = 0; bt < 10; bt++) {
      for (let v5 = 0; v5 < 10; v5++) {
        for (let v6 = 0; v6 < 10; v6++) {
          // Player's cards: value pt then 0; banker's: value bt then 0.
          const r = resolveCoup([
            CARD_OF_VALUE[pt]!,
            CARD_OF_VALUE[bt]!,
            'Kd',
            'Kh',
            CARD_OF_VALUE[v5]!,
            CARD_OF_VALUE[v6]!,
          ]);
          built[pt * 1000 + bt * 100 + v5 * 10 + v6] =
            OUTCOME_CODE[r.outcome] | (r.natural ? 4 : 0) | (r.cardsUsed << 3);
        }
      }
    }
  }
  table = built;
  return built;
}

/**
 * Plays one shoe already in order (`ranks[i]` is the rank index, as {@link rankIndex}, of the card at shoe
 * index i): the burn (unless `burn` is false) and coups until the cut card has come out and one more coup was
 * played. Adds to `tally` and returns how many coups the shoe gave. The fast path of {@link simulate}: the
 * burn and cut card through {@link startShoeProgress} and {@link coupsLeftAfter}, each coup one lookup in
 * {@link coupTable}.
 * @throws EngineError `INVALID_ARGUMENT` for a bad cut card.
 */
export function playShoe(
  ranks: Uint8Array,
  options: { cutCard?: number; burn?: boolean },
  tally: Float64Array,
  log?: CoupLog,
): number {
  if (ranks.length > 52 * MAX_DECKS) {
    throw new EngineError('INVALID_ARGUMENT', `A shoe holds at most ${52 * MAX_DECKS} cards`, {
      length: ranks.length,
    });
  }
  const cutCard = options.cutCard ?? DEFAULT_CUT_CARD;
  const start =
    options.burn === false
      ? startShoeProgressAt(ranks.length, 0, cutCard)
      : startShoeProgress(ranks.length, CARD_OF_RANK[ranks[0]!]!, cutCard);
  const cutIndex = start.cutIndex | 0;
  const coup = coupTable();
  let pos = start.position | 0;
  let coupsLeft = CUT_CARD_IN;
  let coups = 0;
  let counts = 0; // packed as in COUNT
  let pairs = 0; // player pairs in bits 0-7, banker pairs from bit 8
  // The cut card leaves at least 12 cards behind the cut index, so pos + 5 is always inside the shoe.
  // No branch depends on the cards: mispredicted branches would cost more than the whole coup.
  do {
    const player = HAND[ranks[pos]! * 13 + ranks[pos + 2]!]!;
    const banker = HAND[ranks[pos + 1]! * 13 + ranks[pos + 3]!]!;
    const code =
      coup[
        (player & 15) * 1000 + (banker & 15) * 100 + VALUE[ranks[pos + 4]!]! * 10 + VALUE[ranks[pos + 5]!]!
      ]!;
    counts += COUNT[code & 7]!;
    pairs += (player >> 4) + ((banker >> 4) << 8);
    if (log !== undefined) log(pos, code >> 3, OUTCOME_OF_CODE[code & 3]!, (code & 4) !== 0);
    pos += code >> 3;
    coups++;
    coupsLeft = coupsLeftAfter(coupsLeft, pos - 1, cutIndex);
  } while (coupsLeft !== 0);
  const player = counts & 127;
  const banker = (counts >> 7) & 127;
  tally[TALLY.coups]! += coups;
  tally[TALLY.player]! += player;
  tally[TALLY.banker]! += banker;
  tally[TALLY.tie]! += coups - player - banker;
  tally[TALLY.naturals]! += counts >> 14;
  tally[TALLY.playerPairs]! += pairs & 255;
  tally[TALLY.bankerPairs]! += pairs >> 8;
  return coups;
}

/**
 * The simulator's PRNG state for a seed: xoshiro128** seeded with the first 16 bytes of SHA-256 of the seed
 * (numbers as decimal strings) as four big-endian 32-bit words.
 * @throws EngineError `INVALID_SEED` unless the seed is a non-empty string or a finite number.
 */
export function prngState(seed: string | number): Uint32Array {
  if (!(
    (typeof seed === 'string' && seed.length > 0) ||
    (typeof seed === 'number' && Number.isFinite(seed))
  )) {
    throw new EngineError(
      'INVALID_SEED',
      `A simulation seed must be a non-empty string or a finite number, got ${describeInput(seed)}`,
      {
        seed,
      },
    );
  }
  const digest = sha256(utf8ToBytes(String(seed)));
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  const state = Uint32Array.from({ length: 4 }, (_, i) => view.getUint32(4 * i));
  if ((state[0]! | state[1]! | state[2]! | state[3]!) === 0) state[0] = 1; // xoshiro's one forbidden state
  return state;
}

/** Next 32-bit word of xoshiro128** (unsigned), advancing `state` in place. */
export function prngNext(state: Uint32Array): number {
  const s0 = state[0]!;
  const s1 = state[1]!;
  const s2 = state[2]! ^ s0;
  const s3 = state[3]! ^ s1;
  const m = Math.imul(s1, 5);
  const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
  state[0] = s0 ^ s3;
  state[1] = s1 ^ s2;
  state[2] = s2 ^ (s1 << 9);
  state[3] = (s3 << 11) | (s3 >>> 21);
  return result;
}

/**
 * Shuffles `items` (up to 65,536 of them) in place: Fisher-Yates from the end, with xoshiro128** words from
 * `state` (advanced in place). Each 32-bit word gives two 16-bit draws, low half first; an index uniform in
 * [0, i] is Lemire's multiply-shift of a draw, rejected (and the word's other half discarded, a fresh word
 * taken) when the low 16 bits of the product fall below 65536 mod (i + 1), so there is no bias.
 */
export function shuffleInPlace(items: Uint8Array, state: Uint32Array): void {
  if (items.length > 65536) {
    throw new EngineError('INVALID_ARGUMENT', 'shuffleInPlace shuffles at most 65,536 items', {
      length: items.length,
    });
  }
  let s0 = state[0]! | 0;
  let s1 = state[1]! | 0;
  let s2 = state[2]! | 0;
  let s3 = state[3]! | 0;
  let i = items.length - 1;
  while (i > 0) {
    // xoshiro128** step
    const x = Math.imul(s1, 5);
    const word = Math.imul((x << 7) | (x >>> 25), 9);
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    // low half: an index in [0, i]
    let n = i + 1;
    let m = (word & 0xffff) * n;
    if ((m & 0xffff) < n && (m & 0xffff) < 65536 % n) continue;
    let j = m >>> 16;
    let tmp = items[i]!;
    items[i] = items[j]!;
    items[j] = tmp;
    if (--i === 0) break;
    // high half: an index in [0, i]
    n = i + 1;
    m = (word >>> 16) * n;
    if ((m & 0xffff) < n && (m & 0xffff) < 65536 % n) continue;
    j = m >>> 16;
    tmp = items[i]!;
    items[i] = items[j]!;
    items[j] = tmp;
    i--;
  }
  state[0] = s0;
  state[1] = s1;
  state[2] = s2;
  state[3] = s3;
}

/** The rank indices of an ordered shoe of `decks` decks (deck order, as {@link orderedShoe}). */
export function orderedRanks(decks: number): Uint8Array {
  const n = checkDecks(decks);
  const one = DECK.map(rankIndex);
  const ranks = new Uint8Array(52 * n);
  for (let d = 0; d < n; d++) ranks.set(one, 52 * d);
  return ranks;
}

/**
 * Plays `shoes` whole shoes (burn and cut card as at a shoe table) from a seed and counts outcomes, naturals,
 * pairs and coups per shoe. The same options give the same result.
 * @throws EngineError `INVALID_DECKS`, `INVALID_SEED`, or `INVALID_ARGUMENT` (shoes, cut card, burn).
 */
export function simulate(options: SimulateOptions): SimulationResult {
  const decks = checkDecks(options?.decks);
  const { shoes, onProgress } = options;
  if (typeof shoes !== 'number' || !Number.isSafeInteger(shoes) || shoes < 1) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `shoes must be a positive whole number, got ${describeInput(shoes)}`,
      {
        shoes,
      },
    );
  }
  if (options.burn !== undefined && typeof options.burn !== 'boolean') {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `burn must be true or false, got ${describeInput(options.burn)}`,
    );
  }
  const cutCard = options.cutCard ?? DEFAULT_CUT_CARD;
  cutIndexFor(52 * decks, cutCard);
  const bets = options.bets === undefined ? undefined : checkSimulatedBets(options.bets, shoes);
  const counter = bets === undefined ? undefined : new BetCounter(bets);
  const state = prngState(options.seed);
  const ranks = orderedRanks(decks);
  // With bets the cards themselves are shuffled (the same permutation as the ranks alone) for the suits.
  const ids = orderedCardIds(decks);
  const onCoup = counter === undefined ? undefined : (start: number) => counter.coup(ids, start);
  const tally = newTally();
  const play = { cutCard, burn: options.burn !== false };
  const every = Math.max(1, Math.floor(shoes / 100));
  let min = Infinity;
  let max = 0;
  for (let shoe = 1; shoe <= shoes; shoe++) {
    if (onCoup === undefined) shuffleInPlace(ranks, state);
    else {
      shuffleInPlace(ids, state);
      for (let i = 0; i < ids.length; i++) ranks[i] = RANK_OF_CARD[ids[i]!]!;
    }
    const coups = playShoe(ranks, play, tally, onCoup);
    if (coups < min) min = coups;
    if (coups > max) max = coups;
    if (onProgress !== undefined && (shoe % every === 0 || shoe === shoes)) onProgress(shoe, shoes);
  }
  const coups = tally[TALLY.coups]!;
  return {
    decks,
    shoes,
    coups,
    outcomes: { player: tally[TALLY.player]!, banker: tally[TALLY.banker]!, tie: tally[TALLY.tie]! },
    naturals: tally[TALLY.naturals]!,
    pairs: { player: tally[TALLY.playerPairs]!, banker: tally[TALLY.bankerPairs]! },
    handsPerShoe: { min, max, mean: coups / shoes },
    ...(bets === undefined || counter === undefined
      ? {}
      : { bets: { rules: bets.rules, stake: bets.stake, tallies: counter.tallies() } }),
  };
}
