/**
 * Coup helpers shared by `decide` and `evolve`: where each dealt card goes, how a round's bets settle, and how
 * the shoe moves on. All built on `@coup/engine`.
 */
import {
  type Card,
  type CoupResult,
  type CoupState,
  type NextPosition,
  type ShoeCounts,
  type ShoeProgress,
  advanceShoe,
  fullShoeCounts,
  nextPosition,
  settleBet,
} from '@coup/engine';
import type { DealtCard } from './state';
import {
  type Returned,
  type Settlement,
  type SpotAmounts,
  type TableRules,
  amountOn,
  payoutRulesOf,
  stakedSpots,
  totalOf,
} from './vocabulary';

let fullOneDeck: ShoeCounts | null = null;

/** A coup state for position questions only (`nextPosition` reads the cards, not the composition). */
export function positionState(cards: readonly Card[], remaining?: ShoeCounts | null): CoupState {
  if (remaining) return { cards, remaining };
  fullOneDeck ??= fullShoeCounts(1);
  return { cards, remaining: fullOneDeck };
}

/** Where the next card of a coup with these cards goes. */
export function nextFor(cards: readonly Card[]): NextPosition {
  return nextPosition(positionState(cards));
}

/** The dealt cards with their destination, recomputed from the sequence (a correction may move a third card). */
export function placeCards(cards: readonly Card[]): DealtCard[] {
  return cards.map((card, i): DealtCard => {
    const next = nextFor(cards.slice(0, i));
    // a card past completion cannot be recorded by decide; keep it visible as a banker third card if it ever is
    return next.to === 'complete' ? { card, to: 'banker', slot: 'banker3' } : { card, ...next };
  });
}

/**
 * Every stake on the layout settled on the coup, in player id order, then spot (main spots, then side bets); a
 * side bet's settlement names the paytable it was paid by.
 */
export function settleRound(
  stakes: readonly { readonly playerId: string; readonly bets: SpotAmounts }[],
  coup: CoupResult,
  rules: TableRules,
): Settlement[] {
  const settlements: Settlement[] = [];
  const payout = payoutRulesOf(rules);
  for (const { playerId, bets } of stakes) {
    for (const spot of stakedSpots(bets)) {
      const amount = amountOn(bets, spot);
      const s = settleBet(spot, amount, coup, payout);
      const paytable = payout.paytables?.[spot as keyof NonNullable<typeof payout.paytables>];
      settlements.push({
        playerId,
        spot,
        amount,
        result: s.result,
        paid: s.paid,
        commission: s.commission,
        ...(paytable === undefined ? {} : { paytable }),
      });
    }
  }
  return settlements;
}

/** Every player's stakes returned, one entry per player with a positive total (in player id order). */
export function returnsOf(
  stakes: readonly { readonly playerId: string; readonly bets: SpotAmounts }[],
): Returned[] {
  return stakes
    .map(({ playerId, bets }) => ({ playerId, amount: totalOf(bets) }))
    .filter((r) => r.amount > 0);
}

/**
 * The shoe's progress after a resolved coup of `cardsUsed` cards (the engine's cut-card rule). Never throws: a
 * shoe that runs out of cards (only possible after voided live coups) simply ends.
 */
export function afterCoup(progress: ShoeProgress, cardsUsed: number): ShoeProgress {
  if (
    !progress.ended &&
    cardsUsed >= 4 &&
    cardsUsed <= 6 &&
    progress.position + cardsUsed <= progress.length
  ) {
    const next = advanceShoe(progress, cardsUsed);
    return next.position >= next.length ? { ...next, ended: true, coupsLeft: 0, cutCardOut: true } : next;
  }
  return {
    ...progress,
    position: Math.min(progress.length, progress.position + cardsUsed),
    cutCardOut: true,
    coupsLeft: 0,
    ended: true,
  };
}

/**
 * The shoe's progress after a voided coup that dealt `cardsDealt` cards: the shoe moves past them; the cut card
 * comes out if one of them reached it, but a voided coup never counts as the "one more coup" after the cut card.
 */
export function afterVoid(progress: ShoeProgress, cardsDealt: number): ShoeProgress {
  if (cardsDealt <= 0) return progress;
  const position = Math.min(progress.length, progress.position + cardsDealt);
  const out = progress.cutCardOut || position - 1 >= progress.cutIndex;
  const exhausted = position >= progress.length;
  return {
    ...progress,
    position,
    cutCardOut: out || exhausted,
    coupsLeft: exhausted ? 0 : out ? (progress.coupsLeft ?? 1) : null,
    ended: exhausted || progress.ended,
  };
}
