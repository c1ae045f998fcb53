/** EndShoe (supervisor, between rounds): ends the current shoe early (the seed is revealed). */
import { type Command, type CommandSpec, Refusal, find, refuse, shoeEnded, shoeIn } from '../../kernel';

type Data = Readonly<Record<string, never>>;
export type EndShoe = Command<'EndShoe', Data>;

export const endShoe: CommandSpec<'EndShoe', Data, { shoeNo: number; seed: string | null; reason: string }> =
  {
    type: 'EndShoe',
    roles: ['supervisor'],
    fields: [],
    seeds: [],
    actsForPlayer: false,
    closedTable: false,
    personal: null,
    parse: () => ({}),
    decide(_command, ctx) {
      const { state } = ctx;
      const shoe = shoeIn(ctx);
      if (shoe instanceof Refusal) return shoe;
      if (state.phase !== 'ready') {
        return refuse('WRONG_PHASE', `A shoe ends between rounds (phase ${state.phase})`, {
          phase: state.phase,
        });
      }
      return [shoeEnded(ctx, shoe, 'supervisor')];
    },
    reply(events) {
      const d = find(events, 'ShoeEnded');
      return d && { shoeNo: d.shoeNo, seed: d.seed, reason: d.reason };
    },
  };
