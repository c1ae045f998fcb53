/**
 * One coup under the New Jersey (Atlantic City) tableau: who draws a third card, and the whole coup resolved
 * from the cards in dealing order.
 */
import { type Card, cardValue, parseCard } from './cards';
import { EngineError } from './errors';

/** Who won the coup. */
export type Outcome = 'player' | 'banker' | 'tie';

/** A resolved coup. */
export interface CoupResult {
  /** The player's cards in the order dealt (two or three). */
  readonly playerCards: readonly Card[];
  /** The banker's cards in the order dealt (two or three). */
  readonly bankerCards: readonly Card[];
  /** The player's final total, 0-9. */
  readonly playerTotal: number;
  /** The banker's final total, 0-9. */
  readonly bankerTotal: number;
  /** Who won. */
  readonly outcome: Outcome;
  /** True if either hand totalled 8 or 9 on its first two cards (both hands then stand). */
  readonly natural: boolean;
  /** How many cards the coup took from the shoe (4, 5 or 6). */
  readonly cardsUsed: number;
}

function checkTotal(total: unknown, name: string): number {
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0 || total > 9) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `${name} must be an integer hand total from 0 to 9, got ${String(total)}`,
      {
        [name]: total,
      },
    );
  }
  return total;
}

/**
 * Whether the player draws a third card on this two-card total: 0-5 draw, 6-7 stand. A natural (8, 9) stands
 * (the caller checks the banker's natural first: if the banker has 8 or 9 the player does not draw either).
 * @throws EngineError `INVALID_ARGUMENT` unless the total is an integer 0-9.
 */
export function playerDraws(playerTwoCardTotal: number): boolean {
  return checkTotal(playerTwoCardTotal, 'playerTwoCardTotal') <= 5;
}

/**
 * Whether the banker draws a third card (New Jersey tableau). `playerThirdCardValue` is the value (0-9) of the
 * player's third card, or `null` if the player stood on two cards.
 * - The player stood: banker draws on 0-5, stands on 6-7.
 * - The player drew: 0-2 draw; 3 draws unless the player's third card is 8; 4 draws on 2-7; 5 on 4-7; 6 on 6-7;
 *   7 stands.
 * - 8 or 9 is a natural and stands.
 * @throws EngineError `INVALID_ARGUMENT` unless the total is 0-9 and the third card value is 0-9 or null.
 */
export function bankerDraws(bankerTwoCardTotal: number, playerThirdCardValue: number | null): boolean {
  const b = checkTotal(bankerTwoCardTotal, 'bankerTwoCardTotal');
  if (playerThirdCardValue === null) return b <= 5;
  const p = checkTotal(playerThirdCardValue, 'playerThirdCardValue');
  switch (b) {
    case 0:
    case 1:
    case 2:
      return true;
    case 3:
      return p !== 8;
    case 4:
      return p >= 2 && p <= 7;
    case 5:
      return p >= 4 && p <= 7;
    case 6:
      return p === 6 || p === 7;
    default:
      return false;
  }
}

/**
 * The player's rule as a table for fast loops: `PLAYER_DRAW_TABLE[t]` is 1 if the player draws on two-card
 * total `t`, else 0. Built by calling {@link playerDraws}, so the two cannot disagree.
 */
export const PLAYER_DRAW_TABLE: Readonly<Uint8Array> = Uint8Array.from({ length: 10 }, (_, t) =>
  playerDraws(t) ? 1 : 0,
);

/**
 * The banker's rule as a table for fast loops: `BANKER_DRAW_TABLE[b * 11]` is 1 if the banker draws on
 * two-card total `b` after the player stood, and `BANKER_DRAW_TABLE[b * 11 + 1 + v]` if the player's third
 * card has value `v`. Built by calling {@link bankerDraws}, so the two cannot disagree.
 */
export const BANKER_DRAW_TABLE: Readonly<Uint8Array> = Uint8Array.from({ length: 110 }, (_, i) => {
  const k = i % 11;
  return bankerDraws((i - k) / 11, k === 0 ? null : k - 1) ? 1 : 0;
});

/** The outcome of two final totals. */
export function outcomeOf(playerTotal: number, bankerTotal: number): Outcome {
  return playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie';
}

function notEnough(needed: number, given: number, exact: boolean): EngineError {
  return new EngineError(
    'NOT_ENOUGH_CARDS',
    `This coup needs ${exact ? '' : 'at least '}${needed} cards, only ${given} given`,
    { needed, given, exact },
  );
}

/** The coup's card `i`, parsed; an invalid card's error says which card of the coup it is (`details.index`). */
function cardAt(cards: readonly string[], i: number): Card {
  try {
    return parseCard(cards[i]);
  } catch (e) {
    const error = e as EngineError;
    throw new EngineError(error.code, `Card ${i + 1} of the coup: ${error.message}`, {
      ...error.details,
      index: i,
    });
  }
}

/**
 * Plays one coup from the cards in dealing order: player, banker, player, banker, then the player's third card
 * if the player draws, then the banker's if the banker draws. Cards after the last one used are ignored (not
 * even checked), so a slice of the shoe can be passed.
 * @throws EngineError `INVALID_ARGUMENT` if `cards` is not an array; `INVALID_CARD` for a used card that is
 *   not a card (`details.index` says which);
 *   `NOT_ENOUGH_CARDS` if the sequence needs more cards than given, with `details.needed` (how many this
 *   sequence needs, as far as the given cards tell; `details.exact` is false when it may need one more),
 *   `details.given`.
 */
export function resolveCoup(cards: readonly string[]): CoupResult {
  if (!Array.isArray(cards)) {
    throw new EngineError('INVALID_ARGUMENT', 'resolveCoup takes an array of cards in dealing order', {});
  }
  const given = cards.length;
  if (given < 4) {
    for (let i = 0; i < given; i++) cardAt(cards, i);
    throw notEnough(4, given, false);
  }
  const p1 = cardAt(cards, 0);
  const b1 = cardAt(cards, 1);
  const p2 = cardAt(cards, 2);
  const b2 = cardAt(cards, 3);
  const playerCards: Card[] = [p1, p2];
  const bankerCards: Card[] = [b1, b2];
  const playerTwo = (cardValue(p1) + cardValue(p2)) % 10;
  const bankerTwo = (cardValue(b1) + cardValue(b2)) % 10;
  let playerTotal = playerTwo;
  let bankerTotal = bankerTwo;
  const natural = playerTwo >= 8 || bankerTwo >= 8;
  let used = 4;
  if (!natural) {
    let playerThirdValue: number | null = null;
    if (playerDraws(playerTwo)) {
      if (given < 5) {
        // The banker's draw is known without the player's third card only on 0-2 (draws) and 7 (stands).
        const certain = bankerTwo <= 2 || bankerTwo === 7;
        throw notEnough(bankerTwo <= 2 ? 6 : 5, given, certain);
      }
      const p3 = cardAt(cards, 4);
      playerCards.push(p3);
      playerThirdValue = cardValue(p3);
      playerTotal = (playerTotal + playerThirdValue) % 10;
      used = 5;
    }
    if (bankerDraws(bankerTwo, playerThirdValue)) {
      if (given < used + 1) throw notEnough(used + 1, given, true);
      const b3 = cardAt(cards, used);
      bankerCards.push(b3);
      bankerTotal = (bankerTotal + cardValue(b3)) % 10;
      used += 1;
    }
  }
  return {
    playerCards,
    bankerCards,
    playerTotal,
    bankerTotal,
    outcome: outcomeOf(playerTotal, bankerTotal),
    natural,
    cardsUsed: used,
  };
}
