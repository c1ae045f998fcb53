/** Display helpers: money, cards, where the next card goes, outcomes. */
import { type Card, type NextPosition, type Outcome, cardFromSpelling } from '@coup/engine';

/** Integer cents as dollars, e.g. `$1,234.50`. */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  const rest = abs % 100;
  return `${sign}$${dollars}${rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`}`;
}

const SUIT_SYMBOL = { c: '♣', d: '♦', h: '♥', s: '♠' } as const;
const SUIT_NAME = { c: 'clubs', d: 'diamonds', h: 'hearts', s: 'spades' } as const;
const RANK_NAME: Record<string, string> = {
  A: 'ace',
  T: 'ten',
  J: 'jack',
  Q: 'queen',
  K: 'king',
};

/** A card as shown: rank (`10` for a ten), suit symbol, whether it is red, and words for screen readers. */
export function cardFace(card: Card): { rank: string; suit: string; red: boolean; words: string } {
  const r = card.charAt(0);
  const s = card.charAt(1) as keyof typeof SUIT_SYMBOL;
  return {
    rank: r === 'T' ? '10' : r,
    suit: SUIT_SYMBOL[s],
    red: s === 'h' || s === 'd',
    words: `${RANK_NAME[r] ?? r} of ${SUIT_NAME[s]}`,
  };
}

/**
 * What a dealer or a shoe reader typed, as a card: rank then suit, either case, `10` for `T`, spaces ignored
 * (`ah`, `AH`, `10d`, ` 9c `). Otherwise an error in words.
 */
export function parseCardInput(input: string): { ok: true; card: Card } | { ok: false; message: string } {
  const raw = input.replace(/\s+/g, '');
  if (raw === '') return { ok: false, message: 'Type a card: rank then suit, e.g. Ah, Td, 9c' };
  const card = cardFromSpelling(raw);
  if (card !== null) return { ok: true, card };
  return {
    ok: false,
    message: `'${raw}' is not a card: a rank (A 2-9 T J Q K) then a suit (c d h s), e.g. Ah, Td, 9c`,
  };
}

/** Where the next card goes, in the words the console shows. */
export function nextLabel(next: NextPosition): string {
  if (next.to === 'complete') return 'Done: the coup is complete';
  switch (next.slot) {
    case 'player1':
      return "Player's first card";
    case 'banker1':
      return "Banker's first card";
    case 'player2':
      return "Player's second card";
    case 'banker2':
      return "Banker's second card";
    case 'player3':
      return "Player's third card";
    case 'banker3':
      return "Banker's third card";
    default: {
      const never: never = next.slot;
      return never;
    }
  }
}

/** An outcome in words. */
export function outcomeLabel(outcome: Outcome): string {
  return outcome === 'tie' ? 'Tie' : outcome === 'player' ? 'Player wins' : 'Banker wins';
}
