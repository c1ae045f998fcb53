/**
 * Settlement of one bet, in integer cents (never floats). Player pays 1:1; banker 1:1 less a 5% commission,
 * either deducted from the win or owed to the player's commission box (the live-table practice, collected at
 * cash-out); tie pays 8:1 or 9:1. Player and banker bets push on a tie; tie bets lose on a non-tie.
 *
 * Commission rounding: 5% of the stake rounded DOWN to the whole cent, `floor(amount * 5 / 100)`, so 110 cents
 * pays 5 cents of commission, not 5.5 and not 6. It is exact for any multiple of 20 cents (tables whose chips
 * are whole dollars never see a fraction).
 */
import type { Outcome } from './coup';
import { EngineError, describeInput } from './errors';

/** A betting spot. */
export type Spot = 'player' | 'banker' | 'tie';

/** The table's payout rules. */
export interface PayoutRules {
  /** What a winning tie bet pays, to 1. */
  readonly tiePays: 8 | 9;
  /** Whether the banker commission is taken from the win (`deducted`) or owed to the commission box (`box`). */
  readonly commission: 'deducted' | 'box';
}

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

const SPOTS: ReadonlySet<string> = new Set<Spot>(['player', 'banker', 'tie']);
const OUTCOMES: ReadonlySet<string> = new Set<Outcome>(['player', 'banker', 'tie']);

function checkRules(rules: PayoutRules): void {
  const tiePays: unknown = rules?.tiePays;
  const commission: unknown = rules?.commission;
  if ((tiePays !== 8 && tiePays !== 9) || (commission !== 'deducted' && commission !== 'box')) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Invalid payout rules: tiePays must be 8 or 9 and commission 'deducted' or 'box', got tiePays ${describeInput(tiePays)} and commission ${describeInput(commission)}`,
      { tiePays, commission },
    );
  }
}

/**
 * Settles a bet of `amount` cents on `spot` for a coup that ended in `outcome`.
 * - player: win pays 1:1 (`paid = 2 * amount`).
 * - banker: win pays 1:1 less commission: `deducted` gives `paid = 2 * amount - commission`; `box` gives
 *   `paid = 2 * amount` with `commission` owed to the box.
 * - tie: win pays `tiePays`:1 (`paid = amount * (tiePays + 1)`); loses on a non-tie.
 * - player and banker push on a tie (`paid = amount`).
 * @throws EngineError `INVALID_AMOUNT` unless `amount` is a positive safe integer whose payout is a safe
 *   integer too; `INVALID_ARGUMENT` for an unknown spot, outcome or rule.
 */
export function settleBet(spot: Spot, amount: number, outcome: Outcome, rules: PayoutRules): BetSettlement {
  if (!SPOTS.has(spot as string)) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Unknown spot ${describeInput(spot)}: expected player, banker or tie`,
      {
        spot,
      },
    );
  }
  if (!OUTCOMES.has(outcome as string)) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Unknown outcome ${describeInput(outcome)}: expected player, banker or tie`,
      { outcome },
    );
  }
  checkRules(rules);
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
    throw new EngineError(
      'INVALID_AMOUNT',
      `Invalid bet amount ${describeInput(amount)}: expected a positive whole number of cents`,
      { amount },
    );
  }
  if (!Number.isSafeInteger(amount * (rules.tiePays + 1))) {
    throw new EngineError('INVALID_AMOUNT', `Bet amount ${amount} is too large to settle exactly`, {
      amount,
    });
  }
  if (spot === 'tie') {
    return outcome === 'tie'
      ? { result: 'win', paid: amount * (rules.tiePays + 1), commission: 0 }
      : { result: 'lose', paid: 0, commission: 0 };
  }
  if (outcome === 'tie') return { result: 'push', paid: amount, commission: 0 };
  if (outcome !== spot) return { result: 'lose', paid: 0, commission: 0 };
  if (spot === 'player') return { result: 'win', paid: 2 * amount, commission: 0 };
  const commission = commissionFor(amount);
  return rules.commission === 'deducted'
    ? { result: 'win', paid: 2 * amount - commission, commission }
    : { result: 'win', paid: 2 * amount, commission };
}
