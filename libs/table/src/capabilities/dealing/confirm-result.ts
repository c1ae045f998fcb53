/**
 * ConfirmResult (dealer or supervisor; live tables whose rules ask for it): the coup, complete and shown, settles.
 * Until then a mis-entered card is corrected as before the coup resolved.
 */
import { resolveCoup } from '@coup/engine';
import { nextFor } from '../../coup';
import {
  type Command,
  type CommandSpec,
  type CoupReply,
  Refusal,
  coupReply,
  currentRound,
  readRoundNo,
  refuse,
  resolution,
  shoeIn,
} from '../../kernel';

type Data = { readonly roundNo: number };
export type ConfirmResult = Command<'ConfirmResult', Data>;

export const confirmResult: CommandSpec<'ConfirmResult', Data, CoupReply> = {
  type: 'ConfirmResult',
  roles: ['dealer', 'supervisor'],
  fields: ['roundNo'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: null,
  parse(data) {
    const roundNo = readRoundNo(data['roundNo']);
    return roundNo instanceof Refusal ? roundNo : { roundNo };
  },
  decide({ roundNo }, ctx) {
    if (ctx.rules.confirmResult !== true) {
      return refuse(
        'WRONG_DEALING_MODE',
        'This table settles each coup on its last card: nothing to confirm',
        {
          confirmResult: false,
        },
      );
    }
    const round = currentRound(ctx, roundNo, ['dealing']);
    if (round instanceof Refusal) return round;
    const cards = round.cards.map((c) => c.card);
    if (nextFor(cards).to !== 'complete') {
      return refuse(
        'CARD_NOT_DUE',
        `The coup of round ${roundNo} is not complete: deal its next card first`,
        {
          roundNo,
          cardsDealt: cards.length,
        },
      );
    }
    const shoe = shoeIn(ctx);
    if (shoe instanceof Refusal) return shoe;
    return resolution(ctx, shoe, round, resolveCoup(cards)).events;
  },
  reply: coupReply,
};
