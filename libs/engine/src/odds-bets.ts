/**
 * Exact odds of every bet of the catalogue (bets.ts), for a full shoe or for what is left of one.
 *
 * One definition of what a bet pays: each spot's payout is `payoutOf` (bets.ts) evaluated on the features of
 * each group of coups, never re-encoded here. Bets decided by card values (the main bets, Big/Small, Dragon
 * Bonus, Dragon 7, Panda 8, Super 6) are summed over the exact enumeration by coup feature (odds-buckets.ts);
 * bets decided by pairs over the closed-form counts of the nine pair combinations (odds-pairs.ts). That each
 * spot is one or the other is checked, once per spot and paytable, over every combination of the two.
 *
 * Counting convention (the Wizard of Odds one): every ordered sequence of six distinct physical cards counts
 * once. Every count is exact; each probability and expected value is an exact rational rounded once.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- typed arrays indexed by construction. */
import {
  GAME_MODES,
  type GameMode,
  MAIN_SPOTS,
  type Payout,
  type PayoutRules,
  SIDE_BETS,
  SIDE_SPOTS,
  type SideSpot,
  type Spot,
  defaultPaytable,
  isSideSpot,
  isSpot,
  sideBetRefusal,
} from './bets';
import { type Card, DECK, RANK_VALUES, checkDecks, isCard } from './cards';
import { EngineError, describeInput } from './errors';
import { countsByFeature, fallingProduct } from './odds-buckets';
import { countsByPairs } from './odds-pairs';
import { type SpotPlan, cachedPlan } from './odds-plans';
import { ratioToNumber } from './odds-ratio';
import { COMMISSION_PERCENT } from './settlement';

/** The rules the odds depend on, and which bets to compute. */
export interface BetOddsRules {
  /** The game mode; `commission` when absent. */
  readonly game?: GameMode;
  /** What a tie pays, to 1; 8 when absent. */
  readonly tiePays?: 8 | 9;
  /** The paytable of each side bet (its default when absent). */
  readonly paytables?: Readonly<Partial<Record<SideSpot, string>>>;
  /** The spots to compute, e.g. the bets a table offers; every spot the game mode allows when absent. */
  readonly spots?: readonly Spot[];
}

/** One way a bet can end (a payout), with its exact count. */
export interface BetResultOdds {
  /** The payout, as `payoutOf` gives it. */
  readonly payout: Payout;
  /** What the bet gains per unit staked: the odds (less the 5% commission where it applies), 0, or -1. */
  readonly net: number;
  /** Ordered six-card sequences ending so. */
  readonly count: bigint;
  readonly probability: number;
}

/** The exact odds of one bet. */
export interface BetOdds {
  readonly spot: Spot;
  /** A short name for people. */
  readonly label: string;
  /** The paytable's name (side bets), or null (main bets). */
  readonly paytable: string | null;
  /** Probability that the bet wins, pushes or loses (they sum to 1). */
  readonly probabilities: { readonly win: number; readonly push: number; readonly lose: number };
  /**
   * Expected value per unit staked, per coup bet, pushes included (they count as coups that returned the
   * stake): positive favours the player.
   */
  readonly ev: number;
  /** `-ev`: the house edge per unit staked, pushes included (the convention of the Wizard of Odds tables). */
  readonly houseEdge: number;
  /** The house edge per bet that won or lost (pushes left out, "ties not counted"); null if it always pushes. */
  readonly houseEdgeExcludingPushes: number | null;
  /** `ev` as an exact fraction in lowest terms. */
  readonly evExact: { readonly numerator: bigint; readonly denominator: bigint };
  /** Every payout the bet can have, best first, with its exact count (payouts that cannot happen left out). */
  readonly results: readonly BetResultOdds[];
}

/** The exact odds of a set of bets for one shoe composition. */
export interface ExactBetOdds {
  /** Decks of a full shoe (`exactBetOdds`), or null for a composition (`exactBetOddsForShoe`). */
  readonly decks: number | null;
  /** Cards in the shoe. */
  readonly cards: number;
  /** Ordered six-card sequences: N (N-1) ... (N-5). */
  readonly total: bigint;
  readonly game: GameMode;
  readonly tiePays: 8 | 9;
  /** The paytable in force of each side bet computed. */
  readonly paytables: Readonly<Partial<Record<SideSpot, string>>>;
  /** The spots computed, in display order. */
  readonly spots: readonly Spot[];
  /** The odds of each spot computed. */
  readonly bets: Readonly<Partial<Record<Spot, BetOdds>>>;
}

/** A remaining shoe: a count per card (missing cards hold 0), or 52 counts in {@link DECK} order. */
export type ShoeComposition = Readonly<Partial<Record<Card, number>>> | readonly number[];

const MAIN_LABELS: Readonly<Record<string, string>> = { player: 'Player', banker: 'Banker', tie: 'Tie' };

/** What a payout gains per unit staked, as an exact fraction: the odds less any commission, 0, or -1. */
function netOf(p: Payout): { num: bigint; den: bigint } {
  if (p.result === 'lose') return { num: -1n, den: 1n };
  if (p.result === 'push') return { num: 0n, den: 1n };
  const den = BigInt(p.den) * 100n;
  return { num: BigInt(p.num) * 100n - (p.commission ? BigInt(COMMISSION_PERCENT * p.den) : 0n), den };
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

const RESULT_ORDER = { win: 0, push: 1, lose: 2 } as const;

/** One spot's odds from its plan and the counts of the plan's source (buckets or pair combinations). */
function betOdds(
  spot: Spot,
  paytable: string | null,
  plan: SpotPlan,
  counts: Float64Array,
  total: bigint,
): BetOdds {
  const sums = new Float64Array(plan.payouts.length);
  // Each class's sum is at most the total, below 2^53: exact.
  for (let i = 0; i < plan.classOf.length; i++) sums[plan.classOf[i]!]! += counts[i]!;
  const nets = plan.payouts.map(netOf);
  const common = nets.reduce((l, { den }) => (l * den) / gcd(l, den), 1n);
  let numerator = 0n;
  const tally = { win: 0n, push: 0n, lose: 0n };
  const results: BetResultOdds[] = [];
  plan.payouts.forEach((payout, c) => {
    const count = BigInt(sums[c]!);
    const net = nets[c]!;
    numerator += count * net.num * (common / net.den);
    tally[payout.result] += count;
    if (count > 0n) {
      results.push({
        payout,
        net: ratioToNumber(net.num, net.den),
        count,
        probability: ratioToNumber(count, total),
      });
    }
  });
  results.sort((a, b) => RESULT_ORDER[a.payout.result] - RESULT_ORDER[b.payout.result] || b.net - a.net);
  const denominator = total * common;
  const g = gcd(numerator, denominator);
  const ev = ratioToNumber(numerator, denominator);
  const resolved = total - tally.push;
  return {
    spot,
    label: isSideSpot(spot) ? SIDE_BETS[spot].label : MAIN_LABELS[spot]!,
    paytable,
    probabilities: {
      win: ratioToNumber(tally.win, total),
      push: ratioToNumber(tally.push, total),
      lose: ratioToNumber(tally.lose, total),
    },
    ev,
    houseEdge: -ev,
    houseEdgeExcludingPushes:
      resolved === 0n ? null : ratioToNumber(-numerator * total, denominator * resolved),
    evExact: { numerator: numerator / g, denominator: denominator / g },
    results,
  };
}

interface ResolvedRules {
  readonly payoutRules: PayoutRules & { readonly game: GameMode };
  readonly spots: readonly Spot[];
  readonly paytables: Readonly<Partial<Record<SideSpot, string>>>;
}

function invalid(message: string, details: Readonly<Record<string, unknown>>): EngineError {
  return new EngineError('INVALID_ARGUMENT', message, details);
}

/** The paytables given, checked: side spots naming paytables they have. */
function checkedPaytables(paytables: unknown): Readonly<Partial<Record<SideSpot, string>>> {
  if (paytables === undefined) return {};
  if (typeof paytables !== 'object' || paytables === null || Array.isArray(paytables)) {
    throw invalid('paytables must be an object of side bet to paytable name', { paytables });
  }
  for (const [spot, name] of Object.entries(paytables)) {
    if (!isSideSpot(spot)) {
      throw invalid(
        `Unknown side bet ${describeInput(spot)} in paytables: expected one of ${SIDE_SPOTS.join(', ')}`,
        {
          spot,
        },
      );
    }
    if (typeof name !== 'string' || !Object.hasOwn(SIDE_BETS[spot].paytables, name)) {
      throw invalid(
        `${SIDE_BETS[spot].label} has no paytable ${describeInput(name)}: expected one of ${Object.keys(SIDE_BETS[spot].paytables).join(', ')}`,
        { spot, paytable: name },
      );
    }
  }
  return paytables as Readonly<Partial<Record<SideSpot, string>>>;
}

/** The spots to compute, checked against the mode and paytables, in display order. */
function checkedSpots(
  spots: unknown,
  game: GameMode,
  paytables: Readonly<Partial<Record<SideSpot, string>>>,
): Spot[] {
  const allowed = (spot: Spot): string | null =>
    isSideSpot(spot) ? sideBetRefusal(spot, { game, shuffle: 'shoe', paytable: paytables[spot] }) : null;
  if (spots === undefined) {
    return [...MAIN_SPOTS, ...SIDE_SPOTS].filter((spot) => allowed(spot) === null);
  }
  if (!Array.isArray(spots)) throw invalid('spots must be an array of spots', { spots });
  for (const spot of spots) {
    if (!isSpot(spot)) throw invalid(`Unknown spot ${describeInput(spot)}`, { spot });
    const refusal = allowed(spot);
    if (refusal !== null) throw invalid(refusal, { spot, game });
  }
  return [...MAIN_SPOTS, ...SIDE_SPOTS].filter((spot) => spots.includes(spot));
}

function resolveRules(rules: BetOddsRules | undefined): ResolvedRules {
  const game: unknown = rules?.game ?? 'commission';
  const tiePays: unknown = rules?.tiePays ?? 8;
  if (!GAME_MODES.includes(game as GameMode)) {
    throw invalid(`Unknown game mode ${describeInput(game)}: expected one of ${GAME_MODES.join(', ')}`, {
      game,
    });
  }
  if (tiePays !== 8 && tiePays !== 9) {
    throw invalid(`tiePays must be 8 or 9, got ${describeInput(tiePays)}`, { tiePays });
  }
  const given = checkedPaytables(rules?.paytables);
  const spots = checkedSpots(rules?.spots, game as GameMode, given);
  const paytables: Partial<Record<SideSpot, string>> = {};
  for (const spot of spots) if (isSideSpot(spot)) paytables[spot] = given[spot] ?? defaultPaytable(spot);
  return {
    payoutRules: { game: game as GameMode, tiePays, commission: 'deducted', paytables },
    spots,
    paytables,
  };
}

const DECK_INDEX: ReadonlyMap<string, number> = new Map(DECK.map((card, i) => [card, i]));

/** The 52 counts of a composition in deck order, checked. */
function kindCountsOf(cards: ShoeComposition): Float64Array {
  const bad = (details: Readonly<Record<string, unknown>>): EngineError =>
    invalid(
      'A shoe composition is a count per card (e.g. { Ah: 8 }) or 52 counts in deck order, each a non-negative integer',
      details,
    );
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (Array.isArray(cards)) {
    if (cards.length !== DECK.length || !cards.every(ok)) throw bad({ length: cards.length });
    return Float64Array.from(cards as readonly number[]);
  }
  if (typeof cards !== 'object' || cards === null) throw bad({ cards });
  const counts = new Float64Array(DECK.length);
  for (const [card, n] of Object.entries(cards)) {
    if (!isCard(card)) throw bad({ card });
    if (!ok(n)) throw bad({ card, count: n });
    counts[DECK_INDEX.get(card)!] = n;
  }
  return counts;
}

/** The odds of every requested spot for a shoe of these card counts. */
function oddsOfShoe(kinds: Float64Array, decks: number | null, rules: ResolvedRules): ExactBetOdds {
  const values = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  let n = 0;
  for (let i = 0; i < DECK.length; i++) {
    values[RANK_VALUES[i % 13]!]! += kinds[i]!;
    n += kinds[i]!;
  }
  const byValues = countsByFeature(values); // checks the shoe's size
  const byPairs = countsByPairs(kinds, n);
  const total = BigInt(fallingProduct(n, 6));
  const bets: Partial<Record<Spot, BetOdds>> = {};
  for (const spot of rules.spots) {
    const plan = cachedPlan(spot, rules.payoutRules);
    const counts = plan.source === 'values' ? byValues : byPairs;
    bets[spot] = betOdds(spot, isSideSpot(spot) ? rules.paytables[spot]! : null, plan, counts, total);
  }
  const { game, tiePays } = rules.payoutRules;
  return { decks, cards: n, total, game, tiePays, paytables: rules.paytables, spots: rules.spots, bets };
}

/**
 * Exact odds of each bet for a full shoe of `decks` decks: the probability of each payout, and the expected
 * value and house edge per unit staked, by exhaustive enumeration with card removal.
 * @throws EngineError `INVALID_DECKS` unless `decks` is an integer 1-8; `INVALID_ARGUMENT` for an unknown mode,
 *   tie payout, spot or paytable, or a side bet the mode does not offer.
 */
export function exactBetOdds(options: { readonly decks: number } & BetOddsRules): ExactBetOdds {
  const decks = checkDecks(options?.decks);
  return oddsOfShoe(new Float64Array(DECK.length).fill(decks), decks, resolveRules(options));
}

/**
 * Exact odds of each bet for the next coup dealt from a shoe holding `cards` (what is left after the cards
 * dealt so far): a count per card (`{ Ah: 7, Kd: 8, ... }`, a missing card holds none, as `ShoeCounts` of the
 * dealer) or 52 counts in {@link DECK} order. A positive `ev` is a bet the player is favoured on.
 * @throws EngineError `INVALID_ARGUMENT` for a bad composition (fewer than 6 cards, or so many that
 *   N (N-1) ... (N-5) reaches 2^53, about 9 decks), or bad rules as for {@link exactBetOdds}.
 */
export function exactBetOddsForShoe(cards: ShoeComposition, rules?: BetOddsRules): ExactBetOdds {
  return oddsOfShoe(kindCountsOf(cards), null, resolveRules(rules));
}
