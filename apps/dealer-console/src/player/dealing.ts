/** A resolved coup as it is dealt on screen: the cards one after another in dealing order. Pure. */
import { handTotal, type Card } from '@coup/engine';
import type { CoupSummary, Settlement } from '@coup/table';

export interface DealtCard {
  readonly card: Card;
  readonly to: 'player' | 'banker';
  /** 1-based position in the dealing order. */
  readonly order: number;
}

/** Player, banker, player, banker, then the player's third card, then the banker's (whichever were drawn). */
export function dealingOrder(coup: Pick<CoupSummary, 'playerCards' | 'bankerCards'>): DealtCard[] {
  const out: DealtCard[] = [];
  const push = (card: Card | undefined, to: 'player' | 'banker') => {
    if (card !== undefined) out.push({ card, to, order: out.length + 1 });
  };
  push(coup.playerCards[0], 'player');
  push(coup.bankerCards[0], 'banker');
  push(coup.playerCards[1], 'player');
  push(coup.bankerCards[1], 'banker');
  push(coup.playerCards[2], 'player');
  push(coup.bankerCards[2], 'banker');
  return out;
}

/** The running total of the cards of one side shown so far. */
export function shownTotal(cards: readonly DealtCard[], to: 'player' | 'banker'): number | null {
  const mine = cards.filter((c) => c.to === to).map((c) => c.card);
  return mine.length === 0 ? null : handTotal(mine);
}

/**
 * One bet's change to the balance (net of the stake; commission already out of `paid`). Its words are the
 * catalogue's (`player:result.words.<result>`).
 */
export function settlementLine(s: Settlement): { net: number } {
  switch (s.result) {
    case 'win':
      return { net: s.paid - s.amount };
    case 'lose':
      return { net: -s.amount };
    case 'push':
      return { net: 0 };
    default: {
      const never: never = s.result;
      return never;
    }
  }
}
