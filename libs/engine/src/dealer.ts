/**
 * The shoe's composition and the step-wise dealer, for live tables where a person deals one physical card at a
 * time: {@link nextPosition} says where the next card goes, {@link dealCard} takes it (or says why not).
 */
import { type Card, DECK, cardValue, checkDecks, describeCard, invalidCardError, isCard } from './cards';
import { type CoupResult, bankerDraws, playerDraws, resolveCoup } from './coup';
import { EngineError, type Result, err, ok } from './errors';

/** How many of each card the shoe still holds. */
export type ShoeCounts = Readonly<Record<Card, number>>;

/**
 * The composition of a full shoe: `decks` of each of the 52 cards.
 * @throws EngineError `INVALID_DECKS` unless `decks` is an integer 1-8.
 */
export function fullShoeCounts(decks: number): ShoeCounts {
  const n = checkDecks(decks);
  const counts = {} as Record<Card, number>;
  for (const card of DECK) counts[card] = n;
  return Object.freeze(counts);
}

/** How many cards the shoe holds in all. */
export function cardsInShoe(counts: ShoeCounts): number {
  let total = 0;
  for (const card of DECK) total += counts[card];
  return total;
}

/**
 * The composition after one card has left the shoe (a new object; `counts` is not changed).
 * Errors: `INVALID_CARD` if `card` is not a card, `CARD_NOT_IN_SHOE` if the shoe holds none of it.
 */
export function removeCard(counts: ShoeCounts, card: Card): Result<ShoeCounts> {
  if (!isCard(card)) return err(invalidCardError(card));
  const left = counts[card];
  if (!(left > 0)) {
    return err(
      new EngineError('CARD_NOT_IN_SHOE', `The shoe holds no more ${describeCard(card)} (${card})`, { card }),
    );
  }
  return ok(Object.freeze({ ...counts, [card]: left - 1 }));
}

/** Where a dealt card goes, in dealing order. */
export type Slot = 'player1' | 'banker1' | 'player2' | 'banker2' | 'player3' | 'banker3';

/** Where the next card goes, or that the coup is complete. */
export type NextPosition =
  { readonly to: 'player' | 'banker'; readonly slot: Slot } | { readonly to: 'complete' };

/** A coup in progress: the cards dealt so far in dealing order, and what the shoe still holds. */
export interface CoupState {
  /** Cards dealt so far, in dealing order. */
  readonly cards: readonly Card[];
  /** What the shoe holds now (the dealt cards removed). */
  readonly remaining: ShoeCounts;
}

/** A new coup dealt from a shoe holding `remaining`. */
export function startCoup(remaining: ShoeCounts): CoupState {
  return { cards: [], remaining };
}

const PLAYER1: NextPosition = Object.freeze({ to: 'player', slot: 'player1' });
const BANKER1: NextPosition = Object.freeze({ to: 'banker', slot: 'banker1' });
const PLAYER2: NextPosition = Object.freeze({ to: 'player', slot: 'player2' });
const BANKER2: NextPosition = Object.freeze({ to: 'banker', slot: 'banker2' });
const PLAYER3: NextPosition = Object.freeze({ to: 'player', slot: 'player3' });
const BANKER3: NextPosition = Object.freeze({ to: 'banker', slot: 'banker3' });
const COMPLETE: NextPosition = Object.freeze({ to: 'complete' });

/** Where the next card of this coup goes: player, banker (with the slot), or `complete`. */
export function nextPosition(state: CoupState): NextPosition {
  const [p1, b1, p2, b2, fifth, sixth] = state.cards;
  if (p1 === undefined) return PLAYER1;
  if (b1 === undefined) return BANKER1;
  if (p2 === undefined) return PLAYER2;
  if (b2 === undefined) return BANKER2;
  const player = (cardValue(p1) + cardValue(p2)) % 10;
  const banker = (cardValue(b1) + cardValue(b2)) % 10;
  if (player >= 8 || banker >= 8 || sixth !== undefined) return COMPLETE;
  if (playerDraws(player)) {
    // The fifth card is the player's third; the banker's draw depends on its value.
    if (fifth === undefined) return PLAYER3;
    return state.cards.length === 5 && bankerDraws(banker, cardValue(fifth)) ? BANKER3 : COMPLETE;
  }
  // The player stood: the fifth card, if any, was the banker's third.
  return fifth === undefined && bankerDraws(banker, null) ? BANKER3 : COMPLETE;
}

/**
 * Deals one card into the coup: the new state (the card appended, the shoe one card lighter), or an error:
 * `INVALID_CARD` (not a card), `COUP_COMPLETE` (the coup needs no more cards), `CARD_NOT_IN_SHOE` (the shoe
 * holds no more copies of it, such as a ninth ace of spades from eight decks).
 */
export function dealCard(state: CoupState, card: string): Result<CoupState> {
  if (!isCard(card)) return err(invalidCardError(card));
  if (nextPosition(state).to === 'complete') {
    return err(
      new EngineError(
        'COUP_COMPLETE',
        `The coup is complete after ${state.cards.length} cards: ${card} is not due`,
        {
          card,
          cardsDealt: state.cards.length,
        },
      ),
    );
  }
  const remaining = removeCard(state.remaining, card);
  if (!remaining.ok) return remaining;
  return ok({ cards: [...state.cards, card], remaining: remaining.value });
}

/** The coup's result once it is complete (equal to `resolveCoup(state.cards)`), else `null`. */
export function coupResult(state: CoupState): CoupResult | null {
  return nextPosition(state).to === 'complete' ? resolveCoup(state.cards) : null;
}
