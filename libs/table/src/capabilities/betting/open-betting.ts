/** OpenBetting (staff; the online croupier): opens the next round; on every-coup tables `seed` starts its shoe. */
import {
  type Command,
  type CommandSpec,
  Refusal,
  bettingOpened,
  find,
  readSeed,
  refuse,
  shoeStarted,
} from '../../kernel';

type Data = { readonly seed?: string };
export type OpenBetting = Command<'OpenBetting', Data>;
type Reply = { roundNo: number; deadline: string | null; shoeNo: number; commitment: string | null };

export const openBetting: CommandSpec<'OpenBetting', Data, Reply> = {
  type: 'OpenBetting',
  roles: ['dealer', 'supervisor'],
  fields: ['seed'],
  seeds: ['seed'],
  actsForPlayer: false,
  closedTable: false,
  personal: 'croupier',
  parse(data) {
    const seed = readSeed(data['seed'], 'seed');
    return seed instanceof Refusal ? seed : { seed };
  },
  decide({ seed }, ctx) {
    const { state, rules } = ctx;
    const everyCoup = rules.shuffle === 'every-coup' && rules.dealing === 'rng';
    if (seed !== undefined && !everyCoup) {
      return refuse(
        'WRONG_DEALING_MODE',
        'OpenBetting takes a seed only on rng every-coup tables (StartShoe otherwise)',
        {
          shuffle: rules.shuffle,
          dealing: rules.dealing,
        },
      );
    }
    if (state.phase === 'betting' || state.phase === 'dealing') {
      return refuse('WRONG_PHASE', `Round ${state.roundNo} is still open (phase ${state.phase})`, {
        phase: state.phase,
        roundNo: state.roundNo,
      });
    }
    const roundNo = state.roundNo + 1;
    if (state.phase === 'ready') {
      if (seed !== undefined) {
        return refuse(
          'SHOE_IN_PROGRESS',
          `Shoe ${state.shoeNo} is already started for the next coup: send no seed`,
          {
            shoeNo: state.shoeNo,
          },
        );
      }
      return [bettingOpened(ctx, roundNo, state.shoeNo)];
    }
    if (seed === undefined) {
      return refuse(
        'SHOE_NOT_STARTED',
        everyCoup
          ? 'No shoe: send a seed to shuffle the next coup'
          : 'No shoe in progress: start a shoe first',
        { phase: state.phase },
      );
    }
    return [shoeStarted(ctx, { seed }), bettingOpened(ctx, roundNo, state.shoeNo + 1)];
  },
  reply(events) {
    const d = find(events, 'BettingOpened');
    const started = find(events, 'ShoeStarted');
    return (
      d && {
        roundNo: d.roundNo,
        deadline: d.deadline,
        shoeNo: d.shoeNo,
        commitment: started?.commitment ?? null,
      }
    );
  },
};
