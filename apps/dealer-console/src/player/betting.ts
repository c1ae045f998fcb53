/**
 * The player table's betting rules as the page checks them before asking the service (the service checks again and
 * its refusal is shown when it comes): chips stacked by denomination, the table maximum, when DEAL may be pressed.
 * Pure functions: no React, no I/O.
 */
import {
  type Spot,
  type SpotAmounts,
  type TableRules,
  amountOn,
  limitOf,
  offeredSpots,
  stakedSpots,
  totalOf,
} from '@coup/table';
import { type Translate, english, spotLabel } from '../bets';
import { money } from '../format';

type Limits = Pick<TableRules, 'limits' | 'sideBets'>;

/** The bet fields, in layout order: the main spots, then the side bets this table offers. */
export const betSpots = (rules: Limits): Spot[] => offeredSpots(rules);

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

export const totalBet = (bets: SpotAmounts): number => totalOf(bets);

/**
 * Why adding `chip` to `spot` must be stopped before asking the service (the table maximum, or the chips in hand),
 * or null when it may be sent.
 */
export function stopReason(
  rules: Limits,
  bets: SpotAmounts,
  balance: number,
  spot: Spot,
  chip: number,
  t: Translate = english,
): string | null {
  const limit = limitOf(rules, spot);
  if (limit === null) return t('player:stop.notOffered', { spot: spotLabel(spot, t) });
  const after = amountOn(bets, spot) + chip;
  if (after > limit.max)
    return t('player:stop.maximum', { spot: spotLabel(spot, t), after: money(after), max: money(limit.max) });
  if (chip > balance) return t('player:stop.chips', { chip: money(chip), balance: money(balance) });
  return null;
}

/** The minimum of a spot (0 for one the table does not offer: the service refuses it anyway). */
const minOf = (rules: Limits, spot: Spot) => limitOf(rules, spot)?.min ?? 0;

/** The first staked spot below its table minimum, or undefined. */
const shortSpot = (rules: Limits, bets: SpotAmounts) =>
  stakedSpots(bets).find((s) => amountOn(bets, s) < minOf(rules, s));

/** True when DEAL may be pressed: some stake, and every staked spot (side bets too) at least its minimum. */
export function canDeal(rules: Limits, bets: SpotAmounts): boolean {
  return totalBet(bets) > 0 && shortSpot(rules, bets) === undefined;
}

/** What is missing before DEAL, in words (null when DEAL may be pressed). */
export function dealHint(rules: Limits, bets: SpotAmounts, t: Translate = english): string | null {
  if (totalBet(bets) === 0) return t('player:stop.placeBet');
  const short = shortSpot(rules, bets);
  return short
    ? t('player:stop.minimum', { spot: spotLabel(short, t), min: money(minOf(rules, short)) })
    : null;
}
