/**
 * Settlement of one bet, in integer cents (never floats), by the bet catalogue's payouts (bets.ts). In the
 * commission game the banker pays 1:1 less a 5% commission, either deducted from the win or owed to the
 * player's commission box (the live-table practice, collected at cash-out). Fractional odds (0.54:1, 1.5:1,
 * the no-commission banker 6's 1:2) round the winnings down to the whole cent.
 *
 * Commission rounding: 5% of the stake rounded DOWN to the whole cent, `floor(amount * 5 / 100)`, so 110 cents
 * pays 5 cents of commission, not 5.5 and not 6. It is exact for any multiple of 20 cents (tables whose chips
 * are whole dollars never see a fraction).
 */
import {
  type CoupFeatures,
  GAME_MODES,
  type PayoutRules,
  type Spot,
  coupFeatures,
  isSpot,
  payoutOf,
} from './bets';
import type { CoupResult } from './coup';
import { EngineError, describeInput } from './errors';

export type { PayoutRules, Spot };

/** How one bet settles. */
export interface BetSettlement {
  /** Win, lose, or push (a player or banker bet on a tie). */
  readonly result: 'win' | 'lose' | 'push';
  /** Cents returned to the player's chips, stake included: 0 on a loss, the stake on a push. */
  readonly paid: number;
  /** Banker commission in cents: deducted from `paid` (`deducted`) or owed to the box (`box`); 0 otherwise. */
  readonly commission: number;
}

/** The commission rate: 5 per 100. */
export const COMMISSION_PERCENT = 5;

/**
 * The commission on a winning banker bet of `amount` cents: `floor(amount * 5 / 100)`, rounded down to the
 * whole cent (exact for any multiple of 20 cents). Computed without overflow for any safe integer.
 * @throws EngineError `INVALID_AMOUNT` unless `amount` is a non-negative safe integer.
 */
export function commissionFor(amount: number): number {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) {
    throw new EngineError('INVALID_AMOUNT', `Invalid amount ${describeInput(amount)}: expected whole cents`, {
      amount,
    });
  }
  // floor(amount * 5 / 100) = floor(amount / 20); integer steps keep it exact (amount / 20 in floating point
  // can round up to the next integer for amounts above 2^50).
  return (amount - (amount % 20)) / 20;
}

function checkRules(rules: PayoutRules): void {
  const tiePays: unknown = rules?.tiePays;
  const commission: unknown = rules?.commission;
  const game: unknown = rules?.game ?? 'commission';
  if (
    (tiePays !== 8 && tiePays !== 9) ||
    (commission !== 'deducted' && commission !== 'box') ||
    !GAME_MODES.includes(game as never)
  ) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Invalid payout rules: game must be ${GAME_MODES.join(', ')}, tiePays 8 or 9 and commission 'deducted' or 'box', got game ${describeInput(game)}, tiePays ${describeInput(tiePays)} and commission ${describeInput(commission)}`,
      { game, tiePays, commission },
    );
  }
}

/** The largest payout multiplier of any bet (Perfect Pair's 200:1), for the overflow check. */
const MAX_MULTIPLIER = 201;

/**
 * Settles a bet of `amount` cents on `spot` for a resolved coup (or its features), under the table's payout
 * rules (see `payoutOf` in bets.ts for what each spot pays).
 * - A win pays `amount + floor(amount * num / den)` (`paid` includes the stake): winnings round down to the cent.
 * - A commission-game banker win pays 1:1 less the 5% commission: `deducted` gives `paid = 2 * amount -
 *   commission`; `box` gives `paid = 2 * amount` with `commission` owed to the box.
 * - A push returns the stake; a loss pays 0.
 * @throws EngineError `INVALID_AMOUNT` unless `amount` is a positive safe integer whose payout is a safe
 *   integer too; `INVALID_ARGUMENT` for an unknown spot, rule or paytable.
 */
export function settleBet(
  spot: Spot,
  amount: number,
  coup: CoupResult | CoupFeatures,
  rules: PayoutRules,
): BetSettlement {
  if (!isSpot(spot)) {
    throw new EngineError('INVALID_ARGUMENT', `Unknown spot ${describeInput(spot)}`, { spot });
  }
  if (typeof coup !== 'object' || coup === null || !['player', 'banker', 'tie'].includes(coup.outcome)) {
    throw new EngineError('INVALID_ARGUMENT', 'settleBet needs a resolved coup', {
      outcome: (coup as { outcome?: unknown } | null)?.outcome,
    });
  }
  checkRules(rules);
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
    throw new EngineError(
      'INVALID_AMOUNT',
      `Invalid bet amount ${describeInput(amount)}: expected a positive whole number of cents`,
      { amount },
    );
  }
  if (!Number.isSafeInteger(amount * MAX_MULTIPLIER)) {
    throw new EngineError('INVALID_AMOUNT', `Bet amount ${amount} is too large to settle exactly`, {
      amount,
    });
  }
  // a resolved coup lists its cards; its features count them
  const features = Array.isArray(coup.playerCards) ? coupFeatures(coup as CoupResult) : (coup as CoupFeatures);
  const payout = payoutOf(spot, features, rules);
  if (payout.result === 'lose') return { result: 'lose', paid: 0, commission: 0 };
  if (payout.result === 'push') return { result: 'push', paid: amount, commission: 0 };
  if (payout.commission) {
    const commission = commissionFor(amount);
    return rules.commission === 'deducted'
      ? { result: 'win', paid: 2 * amount - commission, commission }
      : { result: 'win', paid: 2 * amount, commission };
  }
  const product = amount * payout.num;
  return { result: 'win', paid: amount + (product - (product % payout.den)) / payout.den, commission: 0 };
}
