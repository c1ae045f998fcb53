/**
 * What is left in a shoe, as a card counter would know it, and each bet's exact value on it: shared by the edge
 * monitor's fold and `shoeOddsBefore` (the odds before any round, for the replay).
 *
 * The cards seen are the turned card (`ShoeStarted.burnCard`) and every card dealt (`CardDealt`, as corrected by
 * `CardCorrected`, and after the coup settled by `SettledCoupCorrected`), voided coups' included: they stay dealt
 * (a coup voided after it settled too). The cards burned face down and the cards behind the
 * cut card are unseen and stay in the count: every unseen card is as likely as any other to come next, so the
 * next coup's odds given what was seen are those of a shoe holding exactly the unseen cards.
 */
import {
  type Card,
  DECK,
  type GameMode,
  type Payout,
  type SideSpot,
  type Spot,
  exactBetOddsForShoe,
  isSideSpot,
} from '@coup/engine';
import { type ShoeStartedData, type TableRules, gameOf, offeredSpots, payoutRulesOf } from '@coup/table';
import type { EdgeBetValue } from './wire';

/** The rules a bet's value depends on, and the bets to value (the spots the table offers). */
export interface EdgeRules {
  readonly decks: number;
  readonly game: GameMode;
  readonly tiePays: 8 | 9;
  readonly paytables: Readonly<Partial<Record<SideSpot, string>>>;
  readonly spots: readonly Spot[];
}

export function edgeRulesOf(rules: TableRules): EdgeRules {
  return {
    decks: rules.decks,
    game: gameOf(rules),
    tiePays: rules.tiePays,
    paytables: payoutRulesOf(rules).paytables ?? {},
    spots: offeredSpots(rules),
  };
}

/**
 * Whether the monitor follows a table: shoe games that offer a side bet. Those are the bets known to be beaten by
 * counting (pairs, Dragon 7, Panda 8, Super 6, Big/Small, Dragon Bonus); the main bets' values move too little to
 * be (and are valued beside them on those tables), and valuing every main-bets-only table would cost ~10 ms per
 * coup of 8 decks on every table, in a rebuild too. Every-coup tables deal each coup from a fresh shoe.
 */
export function monitored(rules: TableRules): boolean {
  return rules.shuffle === 'shoe' && offeredSpots(rules).some(isSideSpot);
}

const INDEX: ReadonlyMap<Card, number> = new Map(DECK.map((card, i) => [card, i]));

/** A full shoe of `decks` decks (52 counts in deck order) less the turned card, if any. */
export function freshShoe(decks: number, turned: Card | null): number[] {
  const counts: number[] = DECK.map(() => decks);
  return turned === null ? counts : withoutCards(counts, [turned]);
}

/** The counts with `cards` taken out (a new array; a count never goes below 0). */
export function withoutCards(counts: readonly number[], cards: readonly Card[]): number[] {
  const out = [...counts];
  for (const card of cards) {
    const i = INDEX.get(card);
    if (i !== undefined && (out[i] ?? 0) > 0) out[i] = (out[i] ?? 0) - 1;
  }
  return out;
}

/** The cards of a coup after one more CardDealt (at its index) or CardCorrected (replacing its index). */
export function withCard(cards: readonly Card[], index: number, card: Card): Card[] {
  const out = [...cards];
  out[index] = card;
  return out;
}

/** A shoe being counted: its unseen cards (52 counts in deck order), the coups resolved from it, the cards seen. */
export interface CountedShoe {
  readonly shoeNo: number;
  readonly counts: readonly number[];
  readonly coups: number;
  readonly seen: number;
}

/** A shoe just started: the full shoe less its turned card. */
export function countedShoe(d: Pick<ShoeStartedData, 'shoeNo' | 'decks' | 'burnCard'>): CountedShoe {
  return {
    shoeNo: d.shoeNo,
    counts: freshShoe(d.decks, d.burnCard),
    coups: 0,
    seen: d.burnCard === null ? 0 : 1,
  };
}

/** The shoe after a round dealt `cards` (corrections applied) and resolved, or was voided: they leave it. */
export function afterRound(shoe: CountedShoe, cards: readonly Card[], resolved: boolean): CountedShoe {
  return {
    shoeNo: shoe.shoeNo,
    counts: withoutCards(shoe.counts, cards),
    coups: shoe.coups + (resolved ? 1 : 0),
    seen: shoe.seen + cards.length,
  };
}

/** The shoe after a card of its last coup was corrected (after it settled): the corrected card seen instead. */
export function afterCorrection(shoe: CountedShoe, oldCard: Card, newCard: Card): CountedShoe {
  const i = INDEX.get(oldCard);
  const counts = [...shoe.counts];
  if (i !== undefined) counts[i] = (counts[i] ?? 0) + 1;
  return { ...shoe, counts: withoutCards(counts, [newCard]) };
}

/** The shoe after its last coup was voided after it settled: one coup fewer (its cards stay seen). */
export function afterSettledVoid(shoe: CountedShoe): CountedShoe {
  return { ...shoe, coups: Math.max(0, shoe.coups - 1) };
}

/** How many cards the counts hold. */
export const cardsIn = (counts: readonly number[]): number => counts.reduce((a, n) => a + n, 0);

/** One bet's exact value on a remaining shoe, and each way it can end. */
export interface BetValue extends EdgeBetValue {
  /** Each way the bet can end, best first: its payout and probability. */
  readonly results: readonly { readonly payout: Payout; readonly probability: number }[];
}

/** Every bet's exact value for the next coup from a shoe of these counts, or null under 6 cards (no coup). */
export function valuesOf(counts: readonly number[], rules: EdgeRules): BetValue[] | null {
  if (cardsIn(counts) < 6) return null;
  const odds = exactBetOddsForShoe(counts, {
    game: rules.game,
    tiePays: rules.tiePays,
    paytables: rules.paytables,
    spots: rules.spots,
  });
  return odds.spots.flatMap((spot) => {
    const bet = odds.bets[spot];
    if (!bet) return [];
    return [
      {
        spot,
        paytable: bet.paytable,
        ev: bet.ev,
        evExact: `${bet.evExact.numerator}/${bet.evExact.denominator}`,
        win: bet.probabilities.win,
        push: bet.probabilities.push,
        lose: bet.probabilities.lose,
        results: bet.results.map((r) => ({ payout: r.payout, probability: r.probability })),
      },
    ];
  });
}

/** Whether a bet's exact value favours the player (strictly positive). */
export const favourable = (v: Pick<BetValue, 'evExact'>): boolean =>
  !v.evExact.startsWith('-') && !v.evExact.startsWith('0/');
