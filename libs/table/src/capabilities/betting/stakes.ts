/** The stake rules of a bet or a rebet: chip unit, player and banker together, limits, chips. */
import { type OpenCtx, type Refusal, refuse } from '../../kernel';
import { chipUnit } from '../../rules';
import { playerOf, totalOf } from '../../state';
import { SPOTS, type SpotAmounts } from '../../vocabulary';

/**
 * Checks a player's stakes after adding `add` (per spot): chip unit, player+banker, limits (max always; min on
 * dealer-dealt tables), chips. All-or-nothing: the first failure refuses the whole.
 */
export function checkStakes(
  ctx: OpenCtx,
  playerId: string,
  current: SpotAmounts,
  add: SpotAmounts,
): Refusal | null {
  const rules = ctx.rules;
  const unit = chipUnit(rules.chips);
  const after: SpotAmounts = {
    player: current.player + add.player,
    banker: current.banker + add.banker,
    tie: current.tie + add.tie,
  };
  for (const spot of SPOTS) {
    if (add[spot] % unit !== 0) {
      return refuse(
        'INVALID_AMOUNT',
        `${add[spot]} cents is not made of this table's chips (${rules.chips.join(', ')}): use a multiple of ${unit}`,
        { amount: add[spot], unit, chips: rules.chips },
      );
    }
  }
  if (!rules.allowPlayerAndBanker && after.player > 0 && after.banker > 0) {
    return refuse('PLAYER_AND_BANKER', 'Player and Banker may not both be bet by one player at this table', {
      playerId,
    });
  }
  for (const spot of SPOTS) {
    if (add[spot] === 0) continue;
    const { min, max } = rules.limits[spot];
    if (after[spot] > max) {
      return refuse('BET_LIMIT', `The ${spot} bet would be ${after[spot]}, above the table maximum ${max}`, {
        spot,
        min,
        max,
        spotTotal: after[spot],
      });
    }
    if (rules.dealtBy === 'dealer' && after[spot] < min) {
      return refuse('BET_LIMIT', `The ${spot} bet would be ${after[spot]}, below the table minimum ${min}`, {
        spot,
        min,
        max,
        spotTotal: after[spot],
      });
    }
  }
  const chips = playerOf(ctx.state, playerId)?.chips ?? 0;
  const needed = totalOf(add);
  if (needed > chips) {
    return refuse('INSUFFICIENT_CHIPS', `Player ${playerId} has ${chips} in chips, the bet needs ${needed}`, {
      playerId,
      chips,
      needed,
    });
  }
  return null;
}
