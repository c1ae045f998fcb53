/**
 * VoidRound (supervisor): voids the round (betting or dealing), every stake returned; dealt cards stay on record.
 * The coup just settled may be voided too, until the next round's betting opens (its settlement reversed).
 */
import { afterVoid, returnsOf } from '../../coup';
import {
  type Command,
  type CommandSpec,
  Refusal,
  by,
  currentRound,
  find,
  readReason,
  readRoundNo,
  shoeEnded,
} from '../../kernel';
import { settledOrPast, settledRound, voidSettledCoup } from './settled-coup';
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
    const reason = readReason(data['reason']);
    return reason instanceof Refusal ? reason : { roundNo, reason };
  },
  decide({ roundNo, reason }, ctx) {
    if (settledOrPast(ctx, roundNo)) {
      const settled = settledRound(ctx, roundNo);
      return settled instanceof Refusal ? settled : voidSettledCoup(ctx, settled, reason);
    }
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
    const d = find(events, 'RoundVoided') ?? find(events, 'SettledCoupVoided');
    return d && { roundNo: d.roundNo, reason: d.reason, returned: d.returned };
  },
};
