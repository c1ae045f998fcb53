/**
 * The burn and the cut card, for shoe tables.
 *
 * The burn: the first card is turned face up and discarded, then `burnCount(that card)` more cards are burned
 * face down (ace 1, 2-9 their number, ten and faces 10); the first coup starts at index `1 + burnCount`.
 *
 * The cut card sits `cutCard` cards from the end (`cutIndex = length - cutCard`). It "comes out" during the coup
 * that deals a card at index `>= cutIndex`; that coup finishes, exactly one more coup is played, then the shoe
 * ends. {@link coupsLeftAfter} is the one place this rule is written: {@link advanceShoe} and the fast simulator
 * both call it.
 */
import { type Card, burnCount } from './cards';
import { EngineError, describeInput } from './errors';

/** Where a shoe stands between coups. */
export interface ShoeProgress {
  /** Cards in the shoe when it was shuffled. */
  readonly length: number;
  /** Index of the next card to deal (cards before it were burned or dealt). */
  readonly position: number;
  /** Index at which the cut card sits: `length - cutCard`. */
  readonly cutIndex: number;
  /** True once a coup dealt a card at index `>= cutIndex`. */
  readonly cutCardOut: boolean;
  /** `null` until the cut card is out; then 1 (one more coup), then 0 with `ended`. */
  readonly coupsLeft: number | null;
  /** True when the shoe is finished: no more coups from it. */
  readonly ended: boolean;
}

/** Where the cut card goes by default: 16 cards from the end. */
export const DEFAULT_CUT_CARD = 16;
/** The most cards one coup uses. */
export const MAX_CARDS_PER_COUP = 6;
/**
 * The fewest cards the cut card may leave behind it: the coup in which it comes out and one more coup must
 * always find enough cards (6 + 6).
 */
export const MIN_CUT_CARD = 2 * MAX_CARDS_PER_COUP;
/** The most cards a burn takes: the turned card and ten more. */
export const MAX_BURN = 11;

/**
 * Checks the shoe length and cut-card placement and returns `cutIndex = length - cutCard`. The cut card may sit
 * from {@link MIN_CUT_CARD} (12) cards from the end up to `length - 11` (never inside the largest burn).
 * @throws EngineError `INVALID_ARGUMENT` otherwise.
 */
export function cutIndexFor(length: number, cutCard: number = DEFAULT_CUT_CARD): number {
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < MIN_CUT_CARD + MAX_BURN) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Invalid shoe length ${describeInput(length)}: expected an integer of at least ${MIN_CUT_CARD + MAX_BURN} cards`,
      { length },
    );
  }
  const max = length - MAX_BURN;
  if (typeof cutCard !== 'number' || !Number.isInteger(cutCard) || cutCard < MIN_CUT_CARD || cutCard > max) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Invalid cut card ${describeInput(cutCard)}: expected a whole number of cards from the end, from ${MIN_CUT_CARD} to ${max} for a shoe of ${length}`,
      { cutCard, length },
    );
  }
  return length - cutCard;
}

/** The value {@link coupsLeftAfter} uses for "the cut card has not come out" (`coupsLeft: null`). */
export const CUT_CARD_IN = -1;

/**
 * The cut-card rule as one step, on plain numbers (so the fast simulator can call it in its loop): given
 * `coupsLeft` before a coup ({@link CUT_CARD_IN} while the cut card is in, else 1) and the index of the last card
 * that coup dealt, returns `coupsLeft` after it: still {@link CUT_CARD_IN} if no card at index `>= cutIndex`
 * has been dealt yet, 1 if the cut card came out in this coup, 0 (the shoe ends) after the one more coup.
 */
export function coupsLeftAfter(coupsLeft: number, lastIndexDealt: number, cutIndex: number): number {
  if (coupsLeft === CUT_CARD_IN) return lastIndexDealt >= cutIndex ? 1 : CUT_CARD_IN;
  return coupsLeft > 0 ? coupsLeft - 1 : 0;
}

/**
 * A new shoe's progress with the first coup starting at `position` (0 for a table that does not burn).
 * @throws EngineError `INVALID_ARGUMENT` for a bad length, cut card or position.
 */
export function startShoeProgressAt(
  length: number,
  position: number,
  cutCard: number = DEFAULT_CUT_CARD,
): ShoeProgress {
  const cutIndex = cutIndexFor(length, cutCard);
  if (!Number.isInteger(position) || position < 0 || position > cutIndex) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Invalid start position ${describeInput(position)}: expected an integer from 0 to the cut index ${cutIndex}`,
      { position, cutIndex },
    );
  }
  return { length, position, cutIndex, cutCardOut: false, coupsLeft: null, ended: false };
}

/**
 * A new shoe's progress after the burn: the first card (`burnCard`) is turned and discarded and
 * `burnCount(burnCard)` more are burned, so the first coup starts at index `1 + burnCount(burnCard)`.
 * @throws EngineError `INVALID_CARD` for a bad burn card; `INVALID_ARGUMENT` for a bad length or cut card.
 */
export function startShoeProgress(
  length: number,
  burnCard: Card,
  cutCard: number = DEFAULT_CUT_CARD,
): ShoeProgress {
  return startShoeProgressAt(length, 1 + burnCount(burnCard), cutCard);
}

/**
 * The shoe's progress after a coup that used `cardsUsed` cards from `progress.position`.
 * @throws EngineError `INVALID_ARGUMENT` if the shoe has ended or `cardsUsed` is not 4, 5 or 6;
 *   `NOT_ENOUGH_CARDS` if the shoe does not hold that many more cards.
 */
export function advanceShoe(progress: ShoeProgress, cardsUsed: number): ShoeProgress {
  if (progress.ended) {
    throw new EngineError('INVALID_ARGUMENT', 'The shoe has ended: no more coups are dealt from it', {
      position: progress.position,
    });
  }
  if (cardsUsed !== 4 && cardsUsed !== 5 && cardsUsed !== 6) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `A coup uses 4, 5 or 6 cards, got ${describeInput(cardsUsed)}`,
      {
        cardsUsed,
      },
    );
  }
  const position = progress.position + cardsUsed;
  if (position > progress.length) {
    throw new EngineError(
      'NOT_ENOUGH_CARDS',
      `The shoe holds ${progress.length - progress.position} more cards, the coup used ${cardsUsed}`,
      { needed: cardsUsed, given: progress.length - progress.position },
    );
  }
  const left = coupsLeftAfter(progress.coupsLeft ?? CUT_CARD_IN, position - 1, progress.cutIndex);
  return {
    length: progress.length,
    position,
    cutIndex: progress.cutIndex,
    cutCardOut: left !== CUT_CARD_IN,
    coupsLeft: left === CUT_CARD_IN ? null : left,
    ended: left === 0,
  };
}
