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
import { MAX_CENTS, pendingPaid } from '../../best-case';
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
    const player = playerOf(ctx.state, playerId);
    const chips = (player?.chips ?? 0) + amount;
    // room for the best case of the player's stakes still to settle, so that no coup (nor its correction) can
    // take the chips past the most counted exactly
    const pending = pendingPaid(ctx.state, ctx.rules, playerId);
    if (!Number.isSafeInteger(chips) || chips > MAX_CENTS - pending) {
      return refuse(
        'INVALID_AMOUNT',
        `A buy-in of ${amount} would make the chips too large to count exactly`,
        { amount },
      );
    }
    return [{ type: 'PlayerBoughtIn', data: { playerId, amount, chips, ...by(ctx) } }];
  },
  reply(events) {
    const d = find(events, 'PlayerBoughtIn');
    return d && { playerId: d.playerId, amount: d.amount, chips: d.chips };
  },
};
