/**
 * Deal (rng tables; staff, or the player on its player-dealt table): deals the whole coup from the shoe's seed.
 * On a player-dealt table it also closes betting (a bet on the layout, every staked spot at its minimum) and opens
 * the next round; `nextSeed` starts the next shoe if this coup ends the shoe.
 */
import { type Card, resolveCoup, seedFromHex, shuffleShoe } from '@coup/engine';
import { nextFor } from '../../coup';
import {
  type Command,
  type CommandSpec,
  type CoupReply,
  type OpenCtx,
  Refusal,
  bettingOpened,
  by,
  coupReply,
  currentRound,
  minimumMet,
  readRoundNo,
  readSeed,
  refuse,
  resolution,
  seated,
  shoeIn,
  shoeStarted,
} from '../../kernel';
import type { RoundState, ShoeState, TableState } from '../../state';
import type { TableEvent } from '../../vocabulary';

type Data = { readonly roundNo: number; readonly nextSeed?: string };
export type Deal = Command<'Deal', Data>;

export const deal: CommandSpec<'Deal', Data, CoupReply> = {
  type: 'Deal',
  roles: ['dealer', 'supervisor', 'player'],
  fields: ['roundNo', 'nextSeed'],
  seeds: ['nextSeed'],
  actsForPlayer: false,
  closedTable: false,
  personal: 'owner',
  authorize(ctx) {
    return ctx.actor.role === 'player' && ctx.rules.dealtBy !== 'player'
      ? refuse('FORBIDDEN', 'Players deal only on player-dealt tables', { role: ctx.actor.role })
      : null;
  },
  parse(data) {
    const roundNo = readRoundNo(data['roundNo']);
    if (roundNo instanceof Refusal) return roundNo;
    const nextSeed = readSeed(data['nextSeed'], 'nextSeed');
    return nextSeed instanceof Refusal ? nextSeed : { roundNo, nextSeed };
  },
  decide(command, ctx) {
    const round = dealRound(command.roundNo, ctx);
    if (round instanceof Refusal) return round;
    const events: TableEvent[] = [];
    if (ctx.state.phase === 'betting') {
      const refused = minimumMet(ctx);
      if (refused) return refused;
      const closedBy = ctx.actor.role === 'player' ? 'player' : 'dealer';
      events.push({
        type: 'BettingClosed',
        data: {
          roundNo: command.roundNo,
          by: closedBy,
          actorId: ctx.actor.id,
          role: ctx.actor.role,
          at: ctx.at,
        },
      });
    }
    const shoe = shoeIn(ctx);
    if (shoe instanceof Refusal) return shoe;
    const coup = dealtCoup(ctx, shoe, round);
    if (coup instanceof Refusal) return coup;
    return [...events, ...coup.events, ...afterDeal(ctx, shoe, command, coup.ended)];
  },
  reply: coupReply,
};

/** The round to deal: an rng table, a seated player dealing, the round in phase. */
function dealRound(roundNo: number, ctx: OpenCtx): RoundState | Refusal {
  const { state, rules, actor } = ctx;
  if (rules.dealing !== 'rng') {
    return refuse('WRONG_DEALING_MODE', 'A live table is dealt card by card (DealCard)', {
      dealing: rules.dealing,
    });
  }
  if (actor.role === 'player') {
    const dealer = seated(ctx, actor.id);
    if (dealer instanceof Refusal) return dealer;
  }
  const phases: TableState['phase'][] = rules.dealtBy === 'player' ? ['betting', 'dealing'] : ['dealing'];
  const round = currentRound(ctx, roundNo, phases);
  if (round instanceof Refusal && round.error.code === 'WRONG_PHASE' && state.phase === 'betting') {
    return refuse('WRONG_PHASE', `Close betting before dealing round ${state.roundNo}`, {
      phase: state.phase,
    });
  }
  return round;
}

/** The coup's cards from the seeded shoe, then its resolution (and the shoe's end if it ends). */
function dealtCoup(
  ctx: OpenCtx,
  shoe: ShoeState,
  round: RoundState,
): { events: TableEvent[]; ended: boolean } | Refusal {
  if (shoe.seed === null)
    return refuse('WRONG_DEALING_MODE', 'This shoe has no seed to deal from', { shoeNo: shoe.shoeNo });
  const shuffled = shuffleShoe(shoe.decks, seedFromHex(shoe.seed));
  const start = shoe.position;
  const upcoming = shuffled.slice(start, start + 6);
  // unreachable with a valid cut card (rng voids use no cards), but never throw: an exhausted shoe must be ended
  if (upcoming.length < 6 && upcoming.length < coupLength(upcoming)) {
    return refuse(
      'WRONG_PHASE',
      `Shoe ${shoe.shoeNo} has run out of cards: void the round and end the shoe`,
      {
        shoeNo: shoe.shoeNo,
        cardsLeft: upcoming.length,
      },
    );
  }
  const result = resolveCoup(upcoming);
  const cards = shuffled.slice(start, start + result.cardsUsed);
  const events: TableEvent[] = [];
  cards.forEach((card, index) => {
    const place = nextFor(cards.slice(0, index));
    if (place.to === 'complete') return;
    events.push({
      type: 'CardDealt',
      data: {
        roundNo: round.roundNo,
        index,
        card,
        to: place.to,
        slot: place.slot,
        shoePosition: start + index,
        next: nextFor(cards.slice(0, index + 1)),
        ...by(ctx),
      },
    });
  });
  const resolved = resolution(ctx, shoe, round, result);
  return { events: [...events, ...resolved.events], ended: resolved.ended };
}

/** What follows: the next shoe (nextSeed, if this one ended) and, on player-dealt tables, the next round. */
function afterDeal(ctx: OpenCtx, shoe: ShoeState, command: Data, ended: boolean): TableEvent[] {
  const events: TableEvent[] = [];
  let shoeNo: number | null = ended ? null : shoe.shoeNo;
  if (ended && command.nextSeed !== undefined) {
    events.push(shoeStarted(ctx, { seed: command.nextSeed }));
    shoeNo = shoe.shoeNo + 1;
  }
  if (ctx.rules.dealtBy === 'player' && shoeNo !== null) {
    events.push(bettingOpened(ctx, command.roundNo + 1, shoeNo));
  }
  return events;
}

/** How many cards a coup starting with `cards` needs (6 if they run out before it completes). */
function coupLength(cards: readonly Card[]): number {
  for (let n = 4; n <= cards.length; n++) if (nextFor(cards.slice(0, n)).to === 'complete') return n;
  return 6;
}
