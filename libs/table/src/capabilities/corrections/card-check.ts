/**
 * The checks a card correction makes wherever the coup stands (dealing, or just settled): live tables only, the
 * card was dealt, it changes something, the shoe holds the new card, and the coup does not complete before the
 * last card dealt.
 */
import { removeCard } from '@coup/engine';
import { nextFor } from '../../coup';
import { type OpenCtx, Refusal, handDealt, refuse } from '../../kernel';
import type { ShoeRecord } from '../../state';
import type { Card } from '../../vocabulary';

/** Refused unless the table deals live (only a live dealer's entries can be mistyped). */
export function liveOnly(ctx: OpenCtx): Refusal | null {
  return ctx.rules.dealing === 'live'
    ? null
    : refuse('WRONG_DEALING_MODE', 'Cards are corrected on live tables only', { dealing: ctx.rules.dealing });
}

export interface Replaced {
  readonly oldCard: Card;
  /** The coup's cards with the correction. */
  readonly corrected: Card[];
}

/**
 * The dealt `cards` with card `index` replaced by `card`, checked: dealt, changed, and held by `shoe`, the coup's
 * own shoe (the one in progress while dealing; once settled, the shoe it was dealt from, even ended or replaced).
 */
export function replaceCard(
  shoe: ShoeRecord,
  cards: readonly Card[],
  index: number,
  card: Card,
): Replaced | Refusal {
  const oldCard = cards[index];
  if (oldCard === undefined) {
    return refuse('INVALID_INDEX', `Card ${index} has not been dealt (${cards.length} dealt)`, {
      index,
      cardsDealt: cards.length,
    });
  }
  if (oldCard === card)
    return refuse('CORRECTION_CONFLICT', `Card ${index} is already ${card}`, { index, card });
  const remaining = handDealt(shoe);
  if (remaining instanceof Refusal) return remaining;
  if (!removeCard({ ...remaining, [oldCard]: remaining[oldCard] + 1 }, card).ok) {
    return refuse('CARD_NOT_IN_SHOE', `The shoe holds no more ${card}: check the card`, {
      card,
      decks: shoe.decks,
    });
  }
  return { oldCard, corrected: cards.map((c, i) => (i === index ? card : c)) };
}

/** How many of the corrected cards complete the coup, when fewer than all of them do; else null. */
export function completesEarly(corrected: readonly Card[]): number | null {
  for (let i = 1; i < corrected.length; i++) if (nextFor(corrected.slice(0, i)).to === 'complete') return i;
  return null;
}
