/**
 * The table's nouns: cards and spots (the engine's), limits, the rules fixed when a table opens, stakes per spot.
 * Money is integer cents, cards are the engine's two-character strings.
 */
import type { Card, NextPosition, Outcome, ShoeCounts, ShoeProgress, Slot, Spot } from '@coup/engine';

export type { Card, NextPosition, Outcome, ShoeCounts, ShoeProgress, Slot, Spot };

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
}

/** A player's stakes on each spot, in cents (0 when none). */
export interface SpotAmounts {
  readonly player: number;
  readonly banker: number;
  readonly tie: number;
}

/** The three spots, in display order. */
export const SPOTS: readonly Spot[] = ['player', 'banker', 'tie'];
