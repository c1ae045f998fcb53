/**
 * What PlaceBet, ClearBets and Rebet share: who they are for (`roundNo`, `playerId`), the spec's common part (the
 * bettors' roles, a player only for itself, only the player on its personal table), and their opening checks
 * (betting open on that round, the player seated).
 */
import { type OpenCtx, Refusal, bettingRound, readPlayerId, readRoundNo, seated } from '../../kernel';
import type { Data } from '../../kernel';
import type { PlayerState, RoundState } from '../../state';
import type { Role } from '../../vocabulary';

export interface Bettor {
  readonly roundNo: number;
  readonly playerId: string;
}

/** The spec fields the three betting commands share. */
export const BETTOR_SPEC = {
  roles: ['player', 'admin', 'dealer', 'supervisor'] as readonly Role[],
  seeds: [] as const,
  actsForPlayer: true,
  closedTable: false,
  personal: 'owner',
} as const;

/** Reads `roundNo` then `playerId`. */
export function parseBettor(data: Data): Bettor | Refusal {
  const roundNo = readRoundNo(data['roundNo']);
  if (roundNo instanceof Refusal) return roundNo;
  const playerId = readPlayerId(data['playerId']);
  return playerId instanceof Refusal ? playerId : { roundNo, playerId };
}

/** Betting is open on the bettor's round, and the player is seated. */
export function bettorAtTable(
  bettor: Bettor,
  ctx: OpenCtx,
): { round: RoundState; player: PlayerState } | Refusal {
  const round = bettingRound(ctx, bettor.roundNo);
  if (round instanceof Refusal) return round;
  const player = seated(ctx, bettor.playerId);
  return player instanceof Refusal ? player : { round, player };
}
