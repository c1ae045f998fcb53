/** Checks of the table's state that several commands share (phase, round, seat, shoe, minimums). */
import {
  type PlayerState,
  type RoundState,
  type ShoeRecord,
  type ShoeState,
  type TableState,
  playerOf,
  roundOpen,
  stakesOnLayout,
} from '../state';
import { type DomainErrorCode, SPOTS, amountOn, limitOf, stakedSpots } from '../vocabulary';
import type { Ctx, OpenCtx } from './context';
import { type Refusal, refuse } from './refusal';

/** The actor may act for `playerId`: staff and admins for anyone, a player only for itself. */
export function actFor(ctx: Ctx, playerId: string): Refusal | null {
  if (ctx.actor.role === 'player' && ctx.actor.id !== playerId) {
    return refuse(
      'FORBIDDEN',
      `A player may bet only for itself: ${ctx.actor.id} cannot act for ${playerId}`,
      {
        actor: ctx.actor.id,
        playerId,
      },
    );
  }
  return null;
}

/** The round `roundNo` is open for bets now (phase, round, deadline). */
export function bettingRound(ctx: OpenCtx, roundNo: number): RoundState | Refusal {
  const round = ctx.state.round;
  if (ctx.state.phase !== 'betting' || round === null) {
    return refuse('BETTING_CLOSED', `Betting is closed (phase ${ctx.state.phase})`, {
      phase: ctx.state.phase,
      roundNo: ctx.state.roundNo,
    });
  }
  if (round.roundNo !== roundNo) {
    return refuse('WRONG_ROUND', `Round ${roundNo} is not the current round (${round.roundNo})`, {
      roundNo,
      currentRoundNo: round.roundNo,
    });
  }
  if (round.deadline !== null && ctx.atMs > Date.parse(round.deadline)) {
    return refuse('BETTING_CLOSED', `Betting closed at the deadline ${round.deadline}`, {
      deadline: round.deadline,
      at: ctx.at,
    });
  }
  return round;
}

/** The current round is `roundNo`, in one of `phases` (else WRONG_PHASE or `phaseCode`). */
export function currentRound(
  ctx: OpenCtx,
  roundNo: number,
  phases: readonly TableState['phase'][],
  phaseCode: DomainErrorCode = 'WRONG_PHASE',
): RoundState | Refusal {
  const round = ctx.state.round;
  if (!phases.includes(ctx.state.phase) || !roundOpen(round)) {
    return refuse(
      phaseCode,
      `Not now: the table is in phase ${ctx.state.phase} (needs ${phases.join(' or ')})`,
      {
        phase: ctx.state.phase,
        roundNo: ctx.state.roundNo,
      },
    );
  }
  if (round.roundNo !== roundNo) {
    return refuse('WRONG_ROUND', `Round ${roundNo} is not the current round (${round.roundNo})`, {
      roundNo,
      currentRoundNo: round.roundNo,
    });
  }
  return round;
}

export function seated(ctx: Ctx, playerId: string): PlayerState | Refusal {
  return (
    playerOf(ctx.state, playerId) ??
    refuse('UNKNOWN_PLAYER', `Player ${playerId} is not seated at this table (buy in first)`, { playerId })
  );
}

/** The shoe in progress (phase checks come first: this only guards the type). */
export function shoeIn(ctx: Ctx): ShoeState | Refusal {
  const shoe = ctx.state.shoe;
  return shoe === null || shoe.ended
    ? refuse('SHOE_NOT_STARTED', 'No shoe is in progress', { phase: ctx.state.phase })
    : shoe;
}

/** A live shoe's composition, or WRONG_DEALING_MODE. */
export function handDealt(shoe: ShoeRecord): NonNullable<ShoeState['remaining']> | Refusal {
  return (
    shoe.remaining ?? refuse('WRONG_DEALING_MODE', 'This shoe is not dealt by hand', { shoeNo: shoe.shoeNo })
  );
}

/** Player-dealt tables: a bet on the layout, and every staked spot at least its minimum. */
export function minimumMet(ctx: OpenCtx): Refusal | null {
  let any = false;
  for (const { playerId, bets } of stakesOnLayout(ctx.state)) {
    for (const spot of stakedSpots(bets)) {
      any = true;
      const min = limitOf(ctx.rules, spot)?.min ?? 0;
      const amount = amountOn(bets, spot);
      if (amount < min) {
        return refuse(
          'MINIMUM_BET_REQUIRED',
          `The ${spot} bet of ${playerId} is ${amount}, below the table minimum ${min}`,
          { playerId, spot, amount, min },
        );
      }
    }
  }
  return any
    ? null
    : refuse('MINIMUM_BET_REQUIRED', 'Place at least the table minimum before dealing', {
        min: Math.min(...SPOTS.map((s) => ctx.rules.limits[s].min)),
      });
}
