/** CloseBetting (staff; the online croupier): no more bets. `byTimer`: sent by the scheduler, not before the deadline. */
import {
  type Command,
  type CommandSpec,
  Refusal,
  currentRound,
  describe,
  find,
  minimumMet,
  readRoundNo,
  refuse,
} from '../../kernel';

type Data = { readonly roundNo: number; readonly byTimer?: boolean };
export type CloseBetting = Command<'CloseBetting', Data>;

export const closeBetting: CommandSpec<
  'CloseBetting',
  Data,
  { roundNo: number; by: 'dealer' | 'timer' | 'player' }
> = {
  type: 'CloseBetting',
  roles: ['dealer', 'supervisor'],
  fields: ['roundNo', 'byTimer'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: 'croupier',
  parse(data) {
    const roundNo = readRoundNo(data['roundNo']);
    if (roundNo instanceof Refusal) return roundNo;
    const byTimer = data['byTimer'];
    if (byTimer !== undefined && typeof byTimer !== 'boolean') {
      return refuse('INVALID_COMMAND', `byTimer must be a boolean, got ${describe(byTimer)}`, {
        field: 'byTimer',
      });
    }
    return { roundNo, byTimer };
  },
  decide({ roundNo, byTimer }, ctx) {
    const round = currentRound(ctx, roundNo, ['betting']);
    if (round instanceof Refusal) return round;
    if (byTimer === true) {
      if (round.deadline === null) {
        return refuse('DEADLINE_NOT_REACHED', `Round ${roundNo} has no betting timer`, { deadline: null });
      }
      if (ctx.atMs < Date.parse(round.deadline)) {
        return refuse(
          'DEADLINE_NOT_REACHED',
          `Betting closes by timer at ${round.deadline}, not before (${ctx.at})`,
          {
            deadline: round.deadline,
            at: ctx.at,
          },
        );
      }
    }
    if (ctx.rules.dealtBy === 'player') {
      const refused = minimumMet(ctx);
      if (refused) return refused;
    }
    const by = byTimer === true ? 'timer' : 'dealer';
    return [
      {
        type: 'BettingClosed',
        data: { roundNo, by, actorId: ctx.actor.id, role: ctx.actor.role, at: ctx.at },
      },
    ];
  },
  reply(events) {
    const d = find(events, 'BettingClosed');
    return d && { roundNo: d.roundNo, by: d.by };
  },
};
