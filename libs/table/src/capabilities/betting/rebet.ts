/** Rebet: adds the player's last round's bets to the current ones (all-or-nothing against limits and chips). */
import { type Command, type CommandSpec, Refusal, by, findAll, refuse } from '../../kernel';
import { betsOf, totalOf } from '../../state';
import { type Spot, type TableEvent, amountOn, stakedSpots } from '../../vocabulary';
import { BETTOR_SPEC, type Bettor, bettorAtTable, parseBettor } from './bettor';
import { checkStakes } from './stakes';

export type Rebet = Command<'Rebet', Bettor>;
type Reply = {
  roundNo: number;
  playerId: string;
  bets: { spot: Spot; amount: number; spotTotal: number }[];
  chips: number;
};

export const rebet: CommandSpec<'Rebet', Bettor, Reply> = {
  type: 'Rebet',
  ...BETTOR_SPEC,
  fields: ['roundNo', 'playerId'],
  parse: parseBettor,
  decide(bettor, ctx) {
    const { roundNo, playerId } = bettor;
    const at = bettorAtTable(bettor, ctx);
    if (at instanceof Refusal) return at;
    const last = at.player.lastBets;
    if (last === null || totalOf(last) === 0) {
      return refuse('NO_PREVIOUS_BETS', `Player ${playerId} has no previous round's bets to repeat`, {
        playerId,
      });
    }
    const current = betsOf(ctx.state, playerId);
    const refused = checkStakes(ctx, playerId, current, last);
    if (refused) return refused;
    let chips = at.player.chips;
    const events: TableEvent[] = [];
    for (const spot of stakedSpots(last)) {
      const amount = amountOn(last, spot);
      chips -= amount;
      events.push({
        type: 'BetPlaced',
        data: {
          roundNo,
          playerId,
          spot,
          amount,
          spotTotal: amountOn(current, spot) + amount,
          chips,
          rebet: true,
          ...by(ctx),
        },
      });
    }
    return events;
  },
  reply(events) {
    const placed = findAll(events, 'BetPlaced');
    const last = placed[placed.length - 1];
    return (
      last && {
        roundNo: last.roundNo,
        playerId: last.playerId,
        bets: placed.map((p) => ({ spot: p.spot, amount: p.amount, spotTotal: p.spotTotal })),
        chips: last.chips,
      }
    );
  },
};
