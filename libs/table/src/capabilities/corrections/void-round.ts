/** VoidRound (supervisor): voids the round (betting or dealing), every stake returned; dealt cards stay on record. */
import { afterVoid, returnsOf } from '../../coup';
import {
  type Command,
  type CommandSpec,
  Refusal,
  by,
  currentRound,
  find,
  readRoundNo,
  refuse,
  shoeEnded,
} from '../../kernel';
import { stakesOnLayout } from '../../state';
import type { Returned, TableEvent } from '../../vocabulary';

type Data = { readonly roundNo: number; readonly reason: string };
export type VoidRound = Command<'VoidRound', Data>;

export const voidRound: CommandSpec<
  'VoidRound',
  Data,
  { roundNo: number; reason: string; returned: readonly Returned[] }
> = {
  type: 'VoidRound',
  roles: ['supervisor'],
  fields: ['roundNo', 'reason'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: null,
  parse(data) {
    const roundNo = readRoundNo(data['roundNo']);
    if (roundNo instanceof Refusal) return roundNo;
    const raw = data['reason'];
    const reason = typeof raw === 'string' ? raw.trim() : '';
    if (reason.length < 3 || reason.length > 500) {
      return refuse('INVALID_REASON', 'A void needs a reason of 3 to 500 characters', { field: 'reason' });
    }
    return { roundNo, reason };
  },
  decide({ roundNo, reason }, ctx) {
    const round = currentRound(ctx, roundNo, ['betting', 'dealing']);
    if (round instanceof Refusal) return round;
    const cardsDealt = round.cards.length;
    const events: TableEvent[] = [
      {
        type: 'RoundVoided',
        data: { roundNo, reason, returned: returnsOf(stakesOnLayout(ctx.state)), cardsDealt, ...by(ctx) },
      },
    ];
    const shoe = ctx.state.shoe;
    const progress = shoe?.progress;
    if (shoe && progress && !progress.ended && afterVoid(progress, cardsDealt).ended) {
      events.push(shoeEnded(ctx, shoe, 'exhausted'));
    }
    return events;
  },
  reply(events) {
    const d = find(events, 'RoundVoided');
    return d && { roundNo: d.roundNo, reason: d.reason, returned: d.returned };
  },
};
