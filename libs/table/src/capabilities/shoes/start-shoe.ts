/** StartShoe (staff; the online croupier on a personal table): rng tables need `seed`, live tables `firstCard`. */
import {
  type Command,
  type CommandSpec,
  Refusal,
  find,
  readCard,
  readSeed,
  refuse,
  shoeStarted,
} from '../../kernel';
import type { Card } from '../../vocabulary';

type Data = { readonly seed?: string; readonly firstCard?: string };
export type StartShoe = Command<'StartShoe', Data>;
type Parsed = { readonly seed?: string; readonly firstCard?: Card };
type Reply = {
  shoeNo: number;
  commitment: string | null;
  burnCard: Card | null;
  burnCount: number;
  cardsLeft: number;
};

export const startShoe: CommandSpec<'StartShoe', Parsed, Reply> = {
  type: 'StartShoe',
  roles: ['dealer', 'supervisor'],
  fields: ['seed', 'firstCard'],
  seeds: ['seed'],
  actsForPlayer: false,
  closedTable: false,
  personal: 'croupier',
  parse(data) {
    const seed = readSeed(data['seed'], 'seed');
    if (seed instanceof Refusal) return seed;
    const rawCard = data['firstCard'];
    const firstCard = rawCard === undefined ? undefined : readCard(rawCard, 'firstCard');
    if (firstCard instanceof Refusal) return firstCard;
    return { seed, firstCard };
  },
  decide({ seed, firstCard }, ctx) {
    const rules = ctx.rules;
    if (rules.dealing === 'rng' && firstCard !== undefined) {
      return refuse(
        'WRONG_DEALING_MODE',
        'firstCard is for live tables: an rng shoe turns its own first card',
        {
          dealing: rules.dealing,
        },
      );
    }
    if (rules.dealing === 'live' && seed !== undefined) {
      return refuse('WRONG_DEALING_MODE', 'seed is for rng tables: a live shoe is shuffled by hand', {
        dealing: rules.dealing,
      });
    }
    if (ctx.state.phase !== 'idle') {
      return refuse(
        'SHOE_IN_PROGRESS',
        `Shoe ${ctx.state.shoeNo} is in progress (phase ${ctx.state.phase})`,
        {
          shoeNo: ctx.state.shoeNo,
          phase: ctx.state.phase,
        },
      );
    }
    if (rules.dealing === 'rng') {
      if (seed === undefined)
        return refuse('INVALID_SEED', 'An rng shoe needs a seed: 64 hexadecimal characters', {
          field: 'seed',
        });
      return [shoeStarted(ctx, { seed })];
    }
    if (firstCard === undefined) {
      return refuse(
        'INVALID_CARD',
        'A live shoe needs firstCard: the card turned face up to count the burn',
        {
          field: 'firstCard',
        },
      );
    }
    return [shoeStarted(ctx, { firstCard })];
  },
  reply(events) {
    const d = find(events, 'ShoeStarted');
    return (
      d && {
        shoeNo: d.shoeNo,
        commitment: d.commitment,
        burnCard: d.burnCard,
        burnCount: d.burnCount,
        cardsLeft: d.length - d.firstCoupIndex,
      }
    );
  },
};
