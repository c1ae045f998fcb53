/** The stake rules of a bet or a rebet: chip unit, player and banker together, limits, chips (enough, and exact). */
import { MAX_CENTS, bestCaseOf } from '../../best-case';
import { type OpenCtx, type Refusal, refuse } from '../../kernel';
import { chipUnit } from '../../rules';
import { playerOf } from '../../state';
import {
  MAX_STAKES,
  type Spot,
  type SpotAmounts,
  addStake,
  amountOn,
  limitOf,
  stakedSpots,
  totalOf,
} from '../../vocabulary';

/** Every staked spot offered at this table, and every amount made of its chips. */
function checkSpotsAndChips(
  rules: OpenCtx['rules'],
  add: SpotAmounts,
  spots: readonly Spot[],
): Refusal | null {
  const unit = chipUnit(rules.chips);
  for (const spot of spots) {
    if (limitOf(rules, spot) === null) {
      return refuse('SPOT_NOT_OFFERED', `This table does not offer the ${spot} bet`, { spot });
    }
  }
  for (const spot of spots) {
    if (amountOn(add, spot) % unit !== 0) {
      return refuse(
        'INVALID_AMOUNT',
        `${amountOn(add, spot)} cents is not made of this table's chips (${rules.chips.join(', ')}): use a multiple of ${unit}`,
        { amount: amountOn(add, spot), unit, chips: rules.chips },
      );
    }
  }
  return null;
}

/** The round's stakes (one per player and spot) past the table's `maxStakes` with these new spots: ROUND_FULL. */
function roundFull(ctx: OpenCtx, current: SpotAmounts, spots: readonly Spot[]): Refusal | null {
  const max = ctx.rules.maxStakes ?? MAX_STAKES;
  const fresh = spots.filter((spot) => amountOn(current, spot) === 0).length;
  const onLayout = ctx.state.round?.stakes ?? 0;
  return onLayout + fresh > max
    ? refuse('ROUND_FULL', `This round holds the most stakes a coup settles at once (${max})`, {
        stakes: onLayout,
        max,
      })
    : null;
}

const isMainSpot = (spot: Spot): boolean => spot === 'player' || spot === 'banker' || spot === 'tie';

/**
 * Checks a player's stakes after adding `add` (per spot): the spot offered here, chip unit, a side bet only
 * beside a main bet (as casinos require: no side-bet-only rounds, which would let a counter bet only when a
 * countable bet turns favourable), player+banker,
 * limits (max always; min on dealer-dealt tables), chips (enough, and exact after the round's best case: see
 * {@link chipsAllow}). All-or-nothing: the first failure refuses the whole.
 */
export function checkStakes(
  ctx: OpenCtx,
  playerId: string,
  current: SpotAmounts,
  add: SpotAmounts,
): Refusal | null {
  const rules = ctx.rules;
  const spots = stakedSpots(add);
  const offeredAndChips = checkSpotsAndChips(rules, add, spots);
  if (offeredAndChips) return offeredAndChips;
  const full = roundFull(ctx, current, spots);
  if (full) return full;
  const after = (spot: Spot): number => amountOn(current, spot) + amountOn(add, spot);
  if (spots.some((spot) => !isMainSpot(spot)) && after('player') + after('banker') + after('tie') === 0) {
    return refuse(
      'MAIN_BET_REQUIRED',
      'A side bet goes with a bet on Player, Banker or Tie: place that first',
      {
        playerId,
      },
    );
  }
  if (!rules.allowPlayerAndBanker && after('player') > 0 && after('banker') > 0) {
    return refuse('PLAYER_AND_BANKER', 'Player and Banker may not both be bet by one player at this table', {
      playerId,
    });
  }
  for (const spot of spots) {
    const { min, max } = limitOf(rules, spot) ?? { min: 0, max: 0 }; // offered: checked above
    const spotTotal = after(spot);
    if (spotTotal > max) {
      return refuse('BET_LIMIT', `The ${spot} bet would be ${spotTotal}, above the table maximum ${max}`, {
        spot,
        min,
        max,
        spotTotal,
      });
    }
    if (rules.dealtBy === 'dealer' && spotTotal < min) {
      return refuse('BET_LIMIT', `The ${spot} bet would be ${spotTotal}, below the table minimum ${min}`, {
        spot,
        min,
        max,
        spotTotal,
      });
    }
  }
  return chipsAllow(ctx, playerId, current, add);
}

/**
 * The player's chips cover the new stakes (INSUFFICIENT_CHIPS), and stay exact whatever the coup: the chips left
 * plus the best case of all its stakes in the round (see best-case.ts), and likewise its box commission owed, must
 * not pass {@link MAX_CENTS} (INVALID_AMOUNT, as a buy-in that would make the chips too large to count exactly).
 */
function chipsAllow(ctx: OpenCtx, playerId: string, current: SpotAmounts, add: SpotAmounts): Refusal | null {
  const player = playerOf(ctx.state, playerId);
  const chips = player?.chips ?? 0;
  const needed = totalOf(add);
  if (needed > chips) {
    return refuse('INSUFFICIENT_CHIPS', `Player ${playerId} has ${chips} in chips, the bet needs ${needed}`, {
      playerId,
      chips,
      needed,
    });
  }
  const stakes = stakedSpots(add).reduce((bets, spot) => addStake(bets, spot, amountOn(add, spot)), current);
  const best = bestCaseOf(stakes, ctx.rules);
  const left = chips - needed;
  if (left > MAX_CENTS - best.paid) {
    return refuse(
      'INVALID_AMOUNT',
      `A bet of ${needed} would let player ${playerId}'s chips pass ${MAX_CENTS} cents, the most counted exactly, ` +
        `if the round paid its best (${left} left plus up to ${best.paid} paid)`,
      { playerId, amount: needed, chips, bestCase: best.paid, max: MAX_CENTS },
    );
  }
  const owed = player?.commissionOwed ?? 0;
  if (owed > MAX_CENTS - best.commission) {
    return refuse(
      'INVALID_AMOUNT',
      `A bet of ${needed} would let player ${playerId}'s box commission owed pass ${MAX_CENTS} cents, the most ` +
        `counted exactly, if the round paid its best (${owed} owed plus up to ${best.commission})`,
      { playerId, amount: needed, commissionOwed: owed, bestCommission: best.commission, max: MAX_CENTS },
    );
  }
  return null;
}
