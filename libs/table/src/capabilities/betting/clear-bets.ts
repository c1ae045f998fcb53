/** ClearBets (a player for itself, or staff and admins for a player): takes the round's stakes back. */
import { type Command, type CommandSpec, Refusal, by, find, refuse } from '../../kernel';
import { betsOf, totalOf } from '../../state';
import type { SpotAmounts } from '../../vocabulary';
import { BETTOR_SPEC, type Bettor, bettorAtTable, parseBettor } from './bettor';

export type ClearBets = Command<'ClearBets', Bettor>;
type Reply = { roundNo: number; playerId: string; returned: number; bets: SpotAmounts; chips: number };

export const clearBets: CommandSpec<'ClearBets', Bettor, Reply> = {
  type: 'ClearBets',
  ...BETTOR_SPEC,
  fields: ['roundNo', 'playerId'],
  parse: parseBettor,
  decide(bettor, ctx) {
    const { roundNo, playerId } = bettor;
    const at = bettorAtTable(bettor, ctx);
    if (at instanceof Refusal) return at;
    const bets = betsOf(ctx.state, playerId);
    const returned = totalOf(bets);
    if (returned === 0) {
      return refuse('NO_BETS', `Player ${playerId} has no bets in round ${roundNo}`, { playerId, roundNo });
    }
    const chips = at.player.chips + returned;
    return [
      {
        type: 'BetsCleared',
        data: { roundNo, playerId, bets: { ...bets }, returned, chips, ...by(ctx) },
      },
    ];
  },
  reply(events) {
    const d = find(events, 'BetsCleared');
    return (
      d && { roundNo: d.roundNo, playerId: d.playerId, returned: d.returned, bets: d.bets, chips: d.chips }
    );
  },
};
