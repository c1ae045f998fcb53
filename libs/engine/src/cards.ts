/**
 * Cards: two-character strings, rank then suit (`'Ah'`, `'Td'`, `'Ks'`), their baccarat values and burn counts.
 */
import { EngineError, describeInput } from './errors';

/** The thirteen ranks, ace low; `T` is the ten. */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
/** The four suits: clubs, diamonds, hearts, spades. */
export const SUITS = ['c', 'd', 'h', 's'] as const;

/** A rank character. */
export type Rank = (typeof RANKS)[number];
/** A suit character. */
export type Suit = (typeof SUITS)[number];
/** A card: rank then suit, e.g. `'Ah'`, `'Td'`, `'Ks'`. */
export type Card = `${Rank}${Suit}`;

/** One deck in deck order: clubs A-K, then diamonds, hearts, spades (`'Ac'`, `'2c'`, ..., `'Ks'`). */
export const DECK: readonly Card[] = Object.freeze(
  SUITS.flatMap((suit) => RANKS.map((rank): Card => `${rank}${suit}`)),
);

const RANK_INDEX: ReadonlyMap<string, number> = new Map(RANKS.map((rank, i) => [rank, i]));
const SUIT_SET: ReadonlySet<string> = new Set(SUITS);

const VALUE_OF: Readonly<Record<Rank, number>> = {
  A: 1,
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
  '8': 8,
  '9': 9,
  T: 0,
  J: 0,
  Q: 0,
  K: 0,
};
const BURN_OF: Readonly<Record<Rank, number>> = {
  A: 1,
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
  '8': 8,
  '9': 9,
  T: 10,
  J: 10,
  Q: 10,
  K: 10,
};
const RANK_NAMES: Readonly<Record<Rank, string>> = {
  A: 'ace',
  '2': 'two',
  '3': 'three',
  '4': 'four',
  '5': 'five',
  '6': 'six',
  '7': 'seven',
  '8': 'eight',
  '9': 'nine',
  T: 'ten',
  J: 'jack',
  Q: 'queen',
  K: 'king',
};
const SUIT_NAMES: Readonly<Record<Suit, string>> = { c: 'clubs', d: 'diamonds', h: 'hearts', s: 'spades' };

/** Baccarat value of each rank, indexed like {@link RANKS}: ace 1, 2-9 their number, ten and faces 0. */
export const RANK_VALUES: readonly number[] = Object.freeze(RANKS.map((rank) => VALUE_OF[rank]));
/** Burn count of each rank, indexed like {@link RANKS}: ace 1, 2-9 their number, ten and faces 10. */
export const RANK_BURNS: readonly number[] = Object.freeze(RANKS.map((rank) => BURN_OF[rank]));

/** True if `s` is a card string: exactly one rank character of {@link RANKS} then one suit of {@link SUITS}. */
export function isCard(s: unknown): s is Card {
  return typeof s === 'string' && s.length === 2 && RANK_INDEX.has(s.charAt(0)) && SUIT_SET.has(s.charAt(1));
}

/**
 * A card as people spell it: rank then suit in either case, `10` for the ten, spaces ignored (`ah`, `AH`, `10d`,
 * ` 9c `); null when it is not a card. The one spelling rule of the API and the console.
 */
export function cardFromSpelling(input: unknown): Card | null {
  if (typeof input !== 'string' || input.length > 16) return null;
  const raw = input.replace(/\s+/g, '');
  const text = raw.startsWith('10') ? `T${raw.slice(2)}` : raw;
  const card = `${text.charAt(0).toUpperCase()}${text.slice(1).toLowerCase()}`;
  return isCard(card) ? card : null;
}

/**
 * Checks and returns a card.
 * @throws EngineError `INVALID_CARD` naming the bad input and the expected format.
 */
export function parseCard(s: unknown): Card {
  if (isCard(s)) return s;
  throw invalidCardError(s);
}

/** The `INVALID_CARD` error for a bad input, naming it and the expected format. */
export function invalidCardError(input: unknown): EngineError {
  return new EngineError(
    'INVALID_CARD',
    `Invalid card ${describeInput(input)}: expected two characters, a rank (A 2 3 4 5 6 7 8 9 T J Q K) then a suit (c d h s), e.g. 'Ah', 'Td', 'Ks'`,
    { input },
  );
}

/**
 * The card in words, e.g. `'ace of spades'`.
 * @throws EngineError `INVALID_CARD` if `card` is not a card.
 */
export function describeCard(card: Card): string {
  const c = parseCard(card);
  return `${RANK_NAMES[rankOf(c)]} of ${SUIT_NAMES[suitOf(c)]}`;
}

/** The card's rank character. */
export function rankOf(card: Card): Rank {
  return card.charAt(0) as Rank;
}

/** The card's suit character. */
export function suitOf(card: Card): Suit {
  return card.charAt(1) as Suit;
}

/**
 * Index of the card's rank in {@link RANKS}: 0 for an ace, 9 for a ten, 12 for a king.
 * @throws EngineError `INVALID_CARD` if `card` is not a card.
 */
export function rankIndex(card: Card): number {
  return RANK_INDEX.get(parseCard(card).charAt(0)) ?? -1;
}

/**
 * Baccarat value: ten and faces 0, ace 1, others their number.
 * @throws EngineError `INVALID_CARD` if `card` is not a card.
 */
export function cardValue(card: Card): number {
  return VALUE_OF[rankOf(parseCard(card))];
}

/**
 * Hand total: the sum of the card values mod 10.
 * @throws EngineError `INVALID_CARD` if any card is not a card.
 */
export function handTotal(cards: readonly Card[]): number {
  let sum = 0;
  for (const card of cards) sum += cardValue(card);
  return sum % 10;
}

/**
 * How many cards are burned face down after this card is turned at the start of a shoe: ace 1, 2-9 their
 * number, ten and faces 10.
 * @throws EngineError `INVALID_CARD` if `card` is not a card.
 */
export function burnCount(card: Card): number {
  return BURN_OF[rankOf(parseCard(card))];
}

/** The smallest and largest number of decks a shoe may hold. */
export const MIN_DECKS = 1;
/** The largest number of decks a shoe may hold. */
export const MAX_DECKS = 8;

/**
 * Checks a number of decks: an integer from 1 to 8 (tables use 6 or 8).
 * @throws EngineError `INVALID_DECKS` otherwise.
 */
export function checkDecks(decks: unknown): number {
  if (typeof decks !== 'number' || !Number.isInteger(decks) || decks < MIN_DECKS || decks > MAX_DECKS) {
    throw new EngineError(
      'INVALID_DECKS',
      `Invalid number of decks ${describeInput(decks)}: expected an integer from ${MIN_DECKS} to ${MAX_DECKS}`,
      { decks },
    );
  }
  return decks;
}
