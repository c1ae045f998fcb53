/**
 * The table's nouns: cards and spots (the engine's), limits, the rules fixed when a table opens, stakes per spot.
 * Money is integer cents, cards are the engine's two-character strings.
 */
import {
  ALL_SPOTS,
  type Card,
  type GameMode,
  MAIN_SPOTS,
  type MainSpot,
  type NextPosition,
  type Outcome,
  type PayoutRules,
  type ShoeCounts,
  type ShoeProgress,
  type SideSpot,
  type Slot,
  type Spot,
} from '@coup/engine';

export type {
  Card,
  GameMode,
  MainSpot,
  NextPosition,
  Outcome,
  ShoeCounts,
  ShoeProgress,
  SideSpot,
  Slot,
  Spot,
};

/** A spot's table limits, in cents. `min` applies to the spot total of one player, `max` likewise. */
export interface Limit {
  readonly min: number;
  readonly max: number;
}

/** The table rules, fixed when the table opens. See `normalizeRules` for validation and defaults. */
export interface TableRules {
  /** `rng`: the shoe is shuffled from a seed and dealt by the decider; `live`: cards are entered as dealt. */
  readonly dealing: 'rng' | 'live';
  /** Decks in the shoe, 1..8 (casinos use 6 or 8). Default 8. */
  readonly decks: number;
  /** `shoe`: one shuffle per shoe with burn and cut card; `every-coup`: a fresh shuffle (and seed) per coup. */
  readonly shuffle: 'shoe' | 'every-coup';
  /** `dealer`: staff open/close/deal; `player`: a single-player online table where the player presses DEAL. */
  readonly dealtBy: 'dealer' | 'player';
  /** Tie pays 8:1 or 9:1. */
  readonly tiePays: 8 | 9;
  /** Banker commission (5%): deducted from the win, or owed to the commission box and collected at cash-out. */
  readonly commission: 'deducted' | 'box';
  /** Per-spot limits in cents. */
  readonly limits: { readonly player: Limit; readonly banker: Limit; readonly tie: Limit };
  /** Chip denominations in cents, ascending. Bet amounts must be multiples of their gcd. */
  readonly chips: readonly number[];
  /** Whether one player may bet Player and Banker in the same round. Default false (as at a live table). */
  readonly allowPlayerAndBanker: boolean;
  /** Betting timer in seconds (1..600), or null for none. */
  readonly bettingSeconds: number | null;
  /** Cards between the cut card and the end of the shoe. Default 16. */
  readonly cutCard: number;
  /**
   * The game mode: `commission` (the default, and every table opened before side bets: recorded only when not
   * the default), `no-commission` (a banker 6 pays 1:2) or `ez` (a three-card banker 7 pushes banker bets).
   */
  readonly game?: GameMode;
  /** The side bets offered, each with its paytable and limits (none when absent). */
  readonly sideBets?: Readonly<Partial<Record<SideSpot, SideBetRule>>>;
  /**
   * Seconds after a coup settles in which a supervisor may still correct or void it (1..600); when absent, until
   * the next round's betting opens.
   */
  readonly correctionSeconds?: number;
  /**
   * Live tables: the coup settles when the dealer confirms it (ConfirmResult) after its last card is shown, not on
   * the last card itself. Recorded only when true (off by default).
   */
  readonly confirmResult?: true;
  /**
   * The most stakes (one per player and spot) a round takes, 1..{@link MAX_STAKES}; {@link MAX_STAKES} when
   * absent. Bounds a coup's settlement (and its correction, which holds two) within one append of the store.
   */
  readonly maxStakes?: number;
}

/**
 * A round's stakes at most: a settlement is about 200 bytes at most, so a corrected coup's event (the reversed and
 * the new settlement) stays well within EventStoreDB's 1 MiB append.
 */
export const MAX_STAKES = 2000;

/** A side bet as a table offers it: the catalogue's paytable by name, and its limits in cents. */
export interface SideBetRule extends Limit {
  readonly paytable: string;
}

/**
 * A player's stakes on each spot, in cents: the three main spots always (0 when none), a side bet only when
 * staked (so a main-game history records exactly what it did before side bets).
 */
export type SpotAmounts = { readonly [S in MainSpot]: number } & { readonly [S in SideSpot]?: number };

/** The three main spots, in display order. */
export const SPOTS: readonly MainSpot[] = MAIN_SPOTS;

/** The stake on `spot` (0 when none). */
export function amountOn(bets: SpotAmounts, spot: Spot): number {
  return bets[spot] ?? 0;
}

/** The staked spots of `bets`, in display order (main spots, then side bets). */
export function stakedSpots(bets: SpotAmounts): Spot[] {
  return ALL_SPOTS.filter((spot) => (bets[spot] ?? 0) > 0);
}

/** `bets` with `amount` added on `spot`. */
export function addStake(bets: SpotAmounts, spot: Spot, amount: number): SpotAmounts {
  return { ...bets, [spot]: (bets[spot] ?? 0) + amount };
}

/** The sum of a player's stakes over every spot. */
export function totalOf(bets: SpotAmounts): number {
  let total = 0;
  for (const spot of ALL_SPOTS) total += bets[spot] ?? 0;
  return total;
}

/** The table's game mode (`commission` for tables opened before game modes). */
export function gameOf(rules: Pick<TableRules, 'game'>): GameMode {
  return rules.game ?? 'commission';
}

/** A spot's limits at this table, or null when the table does not offer it (a side bet it has not chosen). */
export function limitOf(rules: Pick<TableRules, 'limits' | 'sideBets'>, spot: Spot): Limit | null {
  if (spot === 'player' || spot === 'banker' || spot === 'tie') return rules.limits[spot];
  return rules.sideBets?.[spot] ?? null;
}

/** The spots a table offers, in display order. */
export function offeredSpots(rules: Pick<TableRules, 'limits' | 'sideBets'>): Spot[] {
  return ALL_SPOTS.filter((spot) => limitOf(rules, spot) !== null);
}

/** The engine's payout rules for this table. */
export function payoutRulesOf(rules: TableRules): PayoutRules {
  const paytables: Partial<Record<SideSpot, string>> = {};
  for (const [spot, rule] of Object.entries(rules.sideBets ?? {}) as [SideSpot, SideBetRule][]) {
    paytables[spot] = rule.paytable;
  }
  return { game: gameOf(rules), tiePays: rules.tiePays, commission: rules.commission, paytables };
}
