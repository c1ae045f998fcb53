/** CashOut (admin): chips to cash, box commission collected first; the player leaves unless it still owes. */
import {
  type Command,
  type CommandSpec,
  type Ctx,
  Refusal,
  by,
  find,
  readPlayerId,
  refuse,
  seated,
} from '../../kernel';
import { type PlayerState, betsOf, roundOpen, totalOf } from '../../state';
import type { TableEvent } from '../../vocabulary';

type Data = { readonly playerId: string };

/** A player's cash-out: the box commission collected from the chips first, the rest paid. */
export function cashedOut(ctx: Ctx, player: PlayerState): TableEvent {
  const collected = Math.min(player.commissionOwed, player.chips);
  return {
    type: 'PlayerCashedOut',
    data: {
      playerId: player.playerId,
      paid: player.chips - collected,
      commissionCollected: collected,
      commissionOwed: player.commissionOwed - collected,
      ...by(ctx),
    },
  };
}
export type CashOut = Command<'CashOut', Data>;
type Reply = { playerId: string; paid: number; commissionCollected: number; commissionOwed: number };

export const cashOut: CommandSpec<'CashOut', Data, Reply> = {
  type: 'CashOut',
  roles: ['admin'],
  fields: ['playerId'],
  seeds: [],
  actsForPlayer: false,
  closedTable: true,
  personal: null,
  parse(data) {
    const playerId = readPlayerId(data['playerId']);
    return playerId instanceof Refusal ? playerId : { playerId };
  },
  decide({ playerId }, ctx) {
    const player = seated(ctx, playerId);
    if (player instanceof Refusal) return player;
    const round = ctx.state.round;
    if (roundOpen(round) && totalOf(betsOf(ctx.state, playerId)) > 0) {
      return refuse(
        'BETS_IN_PLAY',
        `Player ${playerId} has bets in round ${round.roundNo}: cash out after it`,
        {
          playerId,
          roundNo: round.roundNo,
        },
      );
    }
    return [cashedOut(ctx, player)];
  },
  reply(events) {
    const d = find(events, 'PlayerCashedOut');
    return (
      d && {
        playerId: d.playerId,
        paid: d.paid,
        commissionCollected: d.commissionCollected,
        commissionOwed: d.commissionOwed,
      }
    );
  },
};
