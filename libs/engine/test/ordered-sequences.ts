/** Brute force for the exact-odds tests: every ordered sequence of six distinct physical cards of a small shoe. */
import type { Card } from '../src/index';

/** Calls `visit` with each ordered sequence of six distinct cards of `cards` (by position: equal cards are distinct). */
export function forEachOrderedSix(cards: readonly Card[], visit: (sequence: readonly Card[]) => void): void {
  const used = new Array<boolean>(cards.length).fill(false);
  const sequence: Card[] = [];
  const walk = (): void => {
    if (sequence.length === 6) {
      visit(sequence);
      return;
    }
    cards.forEach((card, i) => {
      if (used[i]) return;
      used[i] = true;
      sequence.push(card);
      walk();
      sequence.pop();
      used[i] = false;
    });
  };
  walk();
}
