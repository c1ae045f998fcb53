/** PlaceBet (a player for itself, or staff and admins for a player): one stake on one spot. */
import { type Command, type CommandSpec, Refusal, by, find, readAmount, readSpot } from '../../kernel';
import { NO_BETS, betsOf } from '../../state';
import { type Spot, addStake, amountOn } from '../../vocabulary';
import { BETTOR_SPEC, type Bettor, bettorAtTable, parseBettor } from './bettor';
import { checkStakes } from './stakes';

type Data = Bettor & { readonly spot: Spot; readonly amount: number };
export type PlaceBet = Command<'PlaceBet', Data>;
type Reply = {
  roundNo: number;
  playerId: string;
  spot: Spot;
  amount: number;
  spotTotal: number;
  chips: number;
};

export const placeBet: CommandSpec<'PlaceBet', Data, Reply> = {
  type: 'PlaceBet',
  ...BETTOR_SPEC,
  fields: ['roundNo', 'playerId', 'spot', 'amount'],
  parse(data) {
    const bettor = parseBettor(data);
    if (bettor instanceof Refusal) return bettor;
    const spot = readSpot(data['spot']);
    if (spot instanceof Refusal) return spot;
    const amount = readAmount(data['amount']);
    return amount instanceof Refusal ? amount : { ...bettor, spot, amount };
  },
  decide(bet, ctx) {
    const { roundNo, playerId, spot, amount } = bet;
    const at = bettorAtTable(bet, ctx);
    if (at instanceof Refusal) return at;
    const current = betsOf(ctx.state, playerId);
    const add = addStake(NO_BETS, spot, amount);
    const refused = checkStakes(ctx, playerId, current, add);
    if (refused) return refused;
    const chips = at.player.chips - amount;
    return [
      {
        type: 'BetPlaced',
        data: {
          roundNo,
          playerId,
          spot,
          amount,
          spotTotal: amountOn(current, spot) + amount,
          chips,
          rebet: false,
          ...by(ctx),
        },
      },
    ];
  },
  reply(events) {
    const d = find(events, 'BetPlaced');
    return (
      d && {
        roundNo: d.roundNo,
        playerId: d.playerId,
        spot: d.spot,
        amount: d.amount,
        spotTotal: d.spotTotal,
        chips: d.chips,
      }
    );
  },
};
