/** The game's words on screen (cards, where the next card goes, outcomes, a bet's result), from the `game` catalogue. */
import type { Card, NextPosition, Outcome } from '@coup/engine';
import type { Settlement } from '@coup/table';
import { type Translate, english } from '../bets';

/** A card in words for screen readers: "ace of hearts", "红桃A". */
export function cardWords(card: Card, t: Translate = english): string {
  return t('game:card', { rank: t(`game:ranks.${card.charAt(0)}`), suit: t(`game:suits.${card.charAt(1)}`) });
}

/** Where the next card goes. */
export function nextWords(next: NextPosition, t: Translate = english): string {
  return t(`game:next.${next.to === 'complete' ? 'complete' : next.slot}`);
}

/** An outcome in words: Player wins, Banker wins, Tie. */
export function outcomeWords(outcome: Outcome, t: Translate = english): string {
  return t(`game:outcomes.${outcome}`);
}

/** The totals, player's first: "4 to 7". */
export function scoreWords(playerTotal: number, bankerTotal: number, t: Translate = english): string {
  return t('game:score', { player: playerTotal, banker: bankerTotal });
}

/** A bet's result: win, lose, push. */
export function resultWord(result: Settlement['result'], t: Translate = english): string {
  return t(`game:results.${result}`);
}
