/** DealCard (live tables, staff): one dealt card as entered; the coup resolves with its last card. */
import { type CoupState, dealCard as dealFromShoe, resolveCoup } from '@coup/engine';
import { nextFor } from '../../coup';
import {
  type Command,
  type CommandSpec,
  type CoupReply,
  Refusal,
  by,
  coupReply,
  currentRound,
  find,
  handDealt,
  readCard,
  readRoundNo,
  refuse,
  resolution,
  shoeIn,
} from '../../kernel';
import type { Card, NextPosition, Slot, TableEvent } from '../../vocabulary';

type Data = { readonly roundNo: number; readonly card: string };
export type DealCard = Command<'DealCard', Data>;
type CardReply = {
  roundNo: number;
  card: Card;
  dealtTo: 'player' | 'banker';
  slot: Slot;
  next: NextPosition;
};

export const dealCard: CommandSpec<'DealCard', { roundNo: number; card: Card }, CoupReply | CardReply> = {
  type: 'DealCard',
  roles: ['dealer', 'supervisor'],
  fields: ['roundNo', 'card'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: null,
  parse(data) {
    const roundNo = readRoundNo(data['roundNo']);
    if (roundNo instanceof Refusal) return roundNo;
    const card = readCard(data['card']);
    return card instanceof Refusal ? card : { roundNo, card };
  },
  decide({ roundNo, card }, ctx) {
    if (ctx.rules.dealing !== 'live') {
      return refuse('WRONG_DEALING_MODE', 'An rng table deals the whole coup at once (Deal)', {
        dealing: ctx.rules.dealing,
      });
    }
    const round = currentRound(ctx, roundNo, ['dealing'], 'CARD_NOT_DUE');
    if (round instanceof Refusal) return round;
    const shoe = shoeIn(ctx);
    if (shoe instanceof Refusal) return shoe;
    const remaining = handDealt(shoe);
    if (remaining instanceof Refusal) return remaining;
    const cards = round.cards.map((c) => c.card);
    const coup: CoupState = { cards, remaining };
    const place = nextFor(cards);
    if (place.to === 'complete') {
      return refuse('CARD_NOT_DUE', `The coup of round ${roundNo} is complete: no card is due`, { roundNo });
    }
    const dealt = dealFromShoe(coup, card);
    if (!dealt.ok) {
      if (dealt.error.code === 'CARD_NOT_IN_SHOE') {
        return refuse('CARD_NOT_IN_SHOE', `The shoe holds no more ${card}: check the card`, {
          card,
          decks: shoe.decks,
        });
      }
      return refuse('INVALID_CARD', dealt.error.message, { card });
    }
    const after = dealt.value.cards;
    const next = nextFor(after);
    const position = { to: place.to, slot: place.slot, shoePosition: shoe.position + cards.length };
    const events: TableEvent[] = [
      { type: 'CardDealt', data: { roundNo, index: cards.length, card, ...position, next, ...by(ctx) } },
    ];
    // a table that confirms results settles on ConfirmResult, once the dealer has seen the last card
    if (next.to === 'complete' && ctx.rules.confirmResult !== true) {
      events.push(...resolution(ctx, shoe, round, resolveCoup(after)).events);
    }
    return events;
  },
  reply(events) {
    const coup = coupReply(events);
    if (coup) return coup;
    const d = find(events, 'CardDealt');
    return d && { roundNo: d.roundNo, card: d.card, dealtTo: d.to, slot: d.slot, next: d.next };
  },
};
