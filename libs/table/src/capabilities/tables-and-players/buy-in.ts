/** BuyIn (admin): cash to chips; seats the player if needed. */
import {
  type Command,
  type CommandSpec,
  Refusal,
  by,
  find,
  readAmount,
  readPlayerId,
  refuse,
} from '../../kernel';
import { playerOf } from '../../state';

type Data = { readonly playerId: string; readonly amount: number };
export type BuyIn = Command<'BuyIn', Data>;

export const buyIn: CommandSpec<'BuyIn', Data, { playerId: string; amount: number; chips: number }> = {
  type: 'BuyIn',
  roles: ['admin'],
  fields: ['playerId', 'amount'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: 'seat',
  parse(data) {
    const playerId = readPlayerId(data['playerId']);
    if (playerId instanceof Refusal) return playerId;
    const amount = readAmount(data['amount']);
    return amount instanceof Refusal ? amount : { playerId, amount };
  },
  decide({ playerId, amount }, ctx) {
    const chips = (playerOf(ctx.state, playerId)?.chips ?? 0) + amount;
    if (!Number.isSafeInteger(chips)) {
      return refuse(
        'INVALID_AMOUNT',
        `A buy-in of ${amount} would make the chips too large to count exactly`,
        {
          amount,
        },
      );
    }
    return [{ type: 'PlayerBoughtIn', data: { playerId, amount, chips, ...by(ctx) } }];
  },
  reply(events) {
    const d = find(events, 'PlayerBoughtIn');
    return d && { playerId: d.playerId, amount: d.amount, chips: d.chips };
  },
};
