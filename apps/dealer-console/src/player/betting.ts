/**
 * The player table's betting rules as the page checks them before asking the service (the service checks again and
 * its refusal is shown when it comes): chips stacked by denomination, the table maximum, when DEAL may be pressed.
 * Pure functions: no React, no I/O.
 */
import type { Spot, SpotAmounts, TableRules } from '@coup/table';
import { money } from '../format';

/** The bet fields, in layout order. */
export const BET_SPOTS: readonly Spot[] = ['player', 'banker', 'tie'];

export const SPOT_LABEL: Readonly<Record<Spot, string>> = { player: 'Player', banker: 'Banker', tie: 'Tie' };

export const NO_BETS: SpotAmounts = { player: 0, banker: 0, tie: 0 };

/** One stack of chips of a denomination (cents) and how many there are. */
export interface ChipStack {
  readonly chip: number;
  readonly count: number;
}

/**
 * A balance as chips stacked by denomination, largest first (the fewest chips): e.g. $631 with chips
 * $1 $5 $25 $100 $500 is one $500, one $100, one $25, one $5, one $1. `rest` is what no chip makes (cents).
 */
export function chipStacks(balance: number, chips: readonly number[]): { stacks: ChipStack[]; rest: number } {
  const sorted = [...chips].sort((a, b) => b - a);
  let left = Math.max(0, balance);
  const stacks: ChipStack[] = [];
  for (const chip of sorted) {
    const count = Math.floor(left / chip);
    left -= count * chip;
    stacks.push({ chip, count });
  }
  return { stacks, rest: left };
}

export const totalBet = (bets: SpotAmounts): number => bets.player + bets.banker + bets.tie;

/**
 * Why adding `chip` to `spot` must be stopped before asking the service (the table maximum, or the chips in hand),
 * or null when it may be sent.
 */
export function stopReason(
  rules: Pick<TableRules, 'limits'>,
  bets: SpotAmounts,
  balance: number,
  spot: Spot,
  chip: number,
): string | null {
  const after = bets[spot] + chip;
  const { max } = rules.limits[spot];
  if (after > max) {
    return `Table maximum: the ${SPOT_LABEL[spot]} bet would be ${money(after)}, above the ${money(max)} maximum`;
  }
  if (chip > balance) {
    return `Not enough chips: a ${money(chip)} chip, ${money(balance)} left`;
  }
  return null;
}

/** True when DEAL may be pressed: some stake, and every staked spot at least the table minimum. */
export function canDeal(rules: Pick<TableRules, 'limits'>, bets: SpotAmounts): boolean {
  if (totalBet(bets) === 0) return false;
  return BET_SPOTS.every((s) => bets[s] === 0 || bets[s] >= rules.limits[s].min);
}

/** What is missing before DEAL, in words (null when DEAL may be pressed). */
export function dealHint(rules: Pick<TableRules, 'limits'>, bets: SpotAmounts): string | null {
  if (totalBet(bets) === 0) return 'Place a bet to deal';
  const short = BET_SPOTS.find((s) => bets[s] > 0 && bets[s] < rules.limits[s].min);
  return short ? `The ${SPOT_LABEL[short]} minimum is ${money(rules.limits[short].min)}` : null;
}
