/**
 * Bets in the simulator: every spot a table offers (the main spots and the chosen side bets) staked on every
 * coup and settled through {@link settleBet}, counted per bet in exact cents, and z-scores against exact odds.
 *
 * A coup's settlement depends only on its {@link CoupFeatures}, and those only on the first four cards' totals
 * and pairs and the values of the fifth and sixth cards. So the first coup of each such kind is resolved by
 * {@link resolveCoup}, its features taken by {@link coupFeatures} and every offered bet settled by
 * {@link settleBet}; later coups of that kind add the same settlements (a lookup, not a second rule book).
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot loops over typed arrays whose indices are
   bounded by construction; noUncheckedIndexedAccess would otherwise need a check per access. */
import {
  GAME_MODES,
  type GameMode,
  MAIN_SPOTS,
  type PayoutRules,
  SIDE_SPOTS,
  type SideSpot,
  type Spot,
  coupFeatures,
  defaultPaytable,
  isSideSpot,
  sideBetRefusal,
} from './bets';
import { type Card, DECK, RANK_VALUES, rankIndex } from './cards';
import { resolveCoup } from './coup';
import { EngineError, describeInput } from './errors';
import { type BetSettlement, settleBet } from './settlement';

/** The bets a simulation stakes on every coup: the table's payout rules and the side bets it offers. */
export interface SimulatedBets {
  /** The game mode (default `commission`). */
  readonly game?: GameMode;
  /** What a tie pays, to 1 (default 8). */
  readonly tiePays?: 8 | 9;
  /** Commission game: the 5% deducted from the win or owed to the box (default `deducted`). */
  readonly commission?: 'deducted' | 'box';
  /** The side bets offered, besides player, banker and tie (none by default). */
  readonly sideBets?: readonly SideSpot[];
  /** The paytable of an offered side bet (its default when absent). */
  readonly paytables?: Readonly<Partial<Record<SideSpot, string>>>;
  /**
   * Cents staked on each offered spot on every coup (default 100). Multiples of 100 settle every bet exactly
   * (no winnings rounded down), so their return can be compared with the exact house edge.
   */
  readonly stake?: number;
}

/** What one bet did over a simulation, in exact integers (cents). */
export interface BetTally {
  readonly spot: Spot;
  /** A side bet's paytable; null for the main spots. */
  readonly paytable: string | null;
  /** Coups on which the bet won, pushed and lost (they sum to the coups). */
  readonly results: { readonly win: number; readonly push: number; readonly lose: number };
  /** Cents staked: the stake times the coups. */
  readonly staked: number;
  /** Cents paid back, stakes included (net of a deducted commission). */
  readonly paid: number;
  /** Cents of banker commission: deducted from `paid` (`deducted`) or owed to the box (`box`). */
  readonly commission: number;
  /** The players' result in cents: paid, less the stakes and any commission owed to the box. */
  readonly net: number;
  /** Each payout the bet had (one per result, amount and commission), most paid first. */
  readonly payouts: readonly BetPayoutCount[];
}

/** One payout of a bet and how many coups had it (amounts in cents for one stake). */
export interface BetPayoutCount {
  readonly result: 'win' | 'push' | 'lose';
  readonly paid: number;
  readonly commission: number;
  /** The player's result: paid, less the stake and any commission owed to the box. */
  readonly net: number;
  readonly coups: number;
}

/** Checked bets: the payout rules, the offered spots in display order with their paytables, the stake. */
interface CheckedBets {
  readonly rules: PayoutRules;
  readonly spots: readonly Spot[];
  readonly paytables: readonly (string | null)[];
  readonly stake: number;
}

const invalid = (message: string, details: Record<string, unknown> = {}): EngineError =>
  new EngineError('INVALID_ARGUMENT', message, details);

/** The longest shoe's coups: 8 decks at 4 cards a coup. */
const MOST_COUPS_PER_SHOE = (52 * 8) / 4;

function checkSideBets(bets: SimulatedBets, game: GameMode): SideSpot[] {
  const sideBets: unknown = bets.sideBets ?? [];
  if (!Array.isArray(sideBets) || !sideBets.every(isSideSpot) || new Set(sideBets).size !== sideBets.length) {
    throw invalid(`sideBets must list distinct side bets (${SIDE_SPOTS.join(', ')})`, { sideBets });
  }
  const paytables: Readonly<Record<string, unknown>> = bets.paytables ?? {};
  for (const [spot, paytable] of Object.entries(paytables)) {
    if (!(sideBets as readonly string[]).includes(spot)) {
      throw invalid(`A paytable is given for ${describeInput(spot)}, which is not an offered side bet`, {
        spot,
      });
    }
    if (typeof paytable !== 'string') {
      throw invalid(`The paytable of ${spot} must be a name, got ${describeInput(paytable)}`, { spot });
    }
  }
  for (const spot of sideBets) {
    const refusal = sideBetRefusal(spot, { game, shuffle: 'shoe', paytable: bets.paytables?.[spot] });
    if (refusal !== null) throw invalid(refusal, { spot, game });
  }
  return SIDE_SPOTS.filter((spot) => sideBets.includes(spot));
}

/**
 * Checks what a simulation of `shoes` shoes is asked to stake.
 * @throws EngineError `INVALID_ARGUMENT` for an unknown mode, tie payout or commission rule, a side bet the mode
 *   does not offer or listed twice, an unknown paytable, or a stake that is not a positive whole number of cents
 *   whose totals stay exact.
 */
export function checkSimulatedBets(bets: SimulatedBets, shoes: number): CheckedBets {
  if (typeof bets !== 'object' || bets === null) throw invalid('bets must be an object');
  const game = bets.game ?? 'commission';
  const tiePays = bets.tiePays ?? 8;
  const commission = bets.commission ?? 'deducted';
  if (!GAME_MODES.includes(game) || (tiePays !== 8 && tiePays !== 9)) {
    throw invalid(
      `game must be ${GAME_MODES.join(', ')} and tiePays 8 or 9, got ${describeInput(game)} and ${describeInput(tiePays)}`,
    );
  }
  if (commission !== 'deducted' && commission !== 'box') {
    throw invalid(`commission must be 'deducted' or 'box', got ${describeInput(commission)}`);
  }
  const stake = bets.stake ?? 100;
  if (
    !Number.isSafeInteger(stake) ||
    stake < 1 ||
    !Number.isSafeInteger(stake * 201 * MOST_COUPS_PER_SHOE * shoes)
  ) {
    throw invalid(
      `stake must be a positive whole number of cents small enough for exact totals over ${shoes} shoes, got ${describeInput(stake)}`,
      { stake },
    );
  }
  const sideBets = checkSideBets(bets, game);
  const paytables = Object.fromEntries(sideBets.map((s) => [s, bets.paytables?.[s] ?? defaultPaytable(s)]));
  return {
    rules: { game, tiePays, commission, paytables },
    spots: [...MAIN_SPOTS, ...sideBets],
    paytables: [...MAIN_SPOTS.map(() => null), ...sideBets.map((s) => paytables[s]!)],
    stake,
  };
}

/** The card index in {@link DECK} of each card of an ordered shoe of `decks` decks (deck order, each deck). */
export function orderedCardIds(decks: number): Uint8Array {
  const ids = new Uint8Array(52 * decks);
  for (let i = 0; i < ids.length; i++) ids[i] = i % 52;
  return ids;
}

/** The rank index of each card index of {@link DECK}. */
export const RANK_OF_CARD: Readonly<Uint8Array> = Uint8Array.from(DECK, rankIndex);
const VALUE_OF_CARD = Uint8Array.from(DECK, (card) => RANK_VALUES[rankIndex(card)]!);
/** HAND[a * 52 + b] for a hand's first two cards a, b: their total, plus 16 for a pair, 32 for a perfect pair. */
const HAND = Uint8Array.from({ length: 52 * 52 }, (_, i) => {
  const a = Math.floor(i / 52);
  const b = i % 52;
  const pair = a === b ? 32 : RANK_OF_CARD[a] === RANK_OF_CARD[b] ? 16 : 0;
  return ((VALUE_OF_CARD[a]! + VALUE_OF_CARD[b]!) % 10) | pair;
});
/** Kinds of coup that settle alike: totals of the two hands' first two cards, the 5th and 6th card values, pairs. */
const KINDS = 10 * 10 * 10 * 10 * 3 * 3;

/**
 * Counts the offered bets over the coups of a simulation. A coup only adds one to the count of its class (the
 * coups that settle alike: the same features); the first coup of each class is settled on every offered spot
 * through {@link settleBet}, and the tallies are each class's settlement times its count, in exact integers.
 */
export class BetCounter {
  private readonly classOfKind = new Int32Array(KINDS).fill(-1);
  private readonly classOfFeatures = new Map<string, number>();
  /** Coups of each class. */
  private readonly coups: number[] = [];
  /** Each class's settlement of each offered spot (class-major). */
  private readonly settlements: BetSettlement[] = [];

  constructor(private readonly bets: CheckedBets) {}

  /** Counts the coup whose first card is at `start` in the shoe `ids` (card indices of {@link DECK}). */
  coup(ids: Uint8Array, start: number): void {
    const player = HAND[ids[start]! * 52 + ids[start + 2]!]!;
    const banker = HAND[ids[start + 1]! * 52 + ids[start + 3]!]!;
    const kind =
      ((player & 15) * 1000 +
        (banker & 15) * 100 +
        VALUE_OF_CARD[ids[start + 4]!]! * 10 +
        VALUE_OF_CARD[ids[start + 5]!]!) *
        9 +
      (player >> 4) * 3 +
      (banker >> 4);
    let cls = this.classOfKind[kind]!;
    if (cls < 0) cls = this.classOfKind[kind] = this.classify(ids, start);
    this.coups[cls]! += 1;
  }

  /** The tallies so far, one per offered spot in display order. */
  tallies(): BetTally[] {
    const { spots, stake, paytables, rules } = this.bets;
    const box = rules.commission === 'box';
    return spots.map((spot, k) => {
      const results = { win: 0, push: 0, lose: 0 };
      let [paid, commission, net] = [0, 0, 0];
      const payouts = new Map<string, { -readonly [K in keyof BetPayoutCount]: BetPayoutCount[K] }>();
      this.coups.forEach((coups, cls) => {
        const s = this.settlements[cls * spots.length + k]!;
        const x = s.paid - stake - (box ? s.commission : 0);
        results[s.result] += coups;
        paid += coups * s.paid;
        commission += coups * s.commission;
        net += coups * x;
        const key = `${s.result} ${s.paid} ${s.commission}`;
        const payout = payouts.get(key) ?? { ...s, net: x, coups: 0 };
        payout.coups += coups;
        payouts.set(key, payout);
      });
      const staked = (results.win + results.push + results.lose) * stake;
      return {
        spot,
        paytable: paytables[k]!,
        results,
        staked,
        paid,
        commission,
        net,
        payouts: [...payouts.values()].sort((a, b) => b.paid - a.paid || b.net - a.net),
      };
    });
  }

  /** The class of the coup at `start`: its features, settled on every offered spot when first seen. */
  private classify(ids: Uint8Array, start: number): number {
    const cards: Card[] = [];
    for (let i = 0; i < 6; i++) cards.push(DECK[ids[start + i]!]!);
    const features = coupFeatures(resolveCoup(cards));
    const key = JSON.stringify(features);
    const known = this.classOfFeatures.get(key);
    if (known !== undefined) return known;
    const cls = this.coups.length;
    this.classOfFeatures.set(key, cls);
    this.coups.push(0);
    const { spots, stake, rules } = this.bets;
    for (const spot of spots) this.settlements.push(settleBet(spot, stake, features, rules));
    return cls;
  }
}
