/**
 * The odds of each bet before any round of a shoe, from the shoe's events alone (pure: usable by the replay, the
 * service and the browser): the cards seen before the round (the turned card, every card dealt in the shoe's
 * earlier rounds, voided ones included, as corrected after they settled) leave the shoe, and each bet the table offers is valued exactly on the
 * unseen cards, as the edge monitor values them after every coup.
 */
import { type Card, DECK, type Payout, type Spot } from '@coup/engine';
import type { TableEvent, TableRules } from '@coup/table';
import { resultKey } from '../stats/fold';
import { betLabel, paysOf } from '../stats/bet-summary';
import {
  type CountedShoe,
  afterCorrection,
  afterRound,
  afterSettledVoid,
  cardsIn,
  countedShoe,
  edgeRulesOf,
  favourable,
  valuesOf,
  withCard,
} from './composition';
import type { ShoeBetOdds, ShoeOdds } from './wire';

/** The unseen cards of the shoe in play when round `roundNo` opens, from the events before it. */
function trackShoe(events: readonly TableEvent[], roundNo: number): CountedShoe | null {
  let shoe: CountedShoe | null = null;
  const cards = new Map<number, Card[]>();
  const ended = (round: number, resolved: boolean) => {
    if (shoe === null || round >= roundNo) return;
    shoe = afterRound(shoe, cards.get(round) ?? [], resolved);
    cards.delete(round);
  };
  for (const e of events) {
    if (e.type === 'BettingOpened' && e.data.roundNo >= roundNo) break;
    if (e.type === 'ShoeStarted') {
      shoe = countedShoe(e.data);
      cards.clear();
    } else if (e.type === 'CardDealt') {
      cards.set(e.data.roundNo, withCard(cards.get(e.data.roundNo) ?? [], e.data.index, e.data.card));
    } else if (e.type === 'CardCorrected') {
      cards.set(e.data.roundNo, withCard(cards.get(e.data.roundNo) ?? [], e.data.index, e.data.newCard));
    } else if (e.type === 'CoupResolved') ended(e.data.roundNo, true);
    else if (e.type === 'RoundVoided') ended(e.data.roundNo, false);
    else if (e.type === 'SettledCoupCorrected' && shoe?.shoeNo === e.data.shoeNo)
      shoe = afterCorrection(shoe, e.data.oldCard, e.data.newCard);
    else if (e.type === 'SettledCoupVoided' && shoe?.shoeNo === e.data.shoeNo) shoe = afterSettledVoid(shoe);
    else if (e.type === 'ShoeEnded' && shoe?.shoeNo === e.data.shoeNo) shoe = null;
  }
  return shoe;
}

const resultOf = (r: { payout: Payout; probability: number }) => ({
  result: r.payout.result,
  pays: paysOf(resultKey(r.payout)),
  probability: r.probability,
});

/**
 * Each offered bet's exact odds for round `roundNo`, given the table's `events` from the ShoeStarted of its shoe
 * (or earlier) to the round's BettingOpened (later events are ignored), and the table's rules. Null when no shoe
 * is in play before the round, or fewer than 6 cards are left.
 */
export function shoeOddsBefore(
  events: readonly TableEvent[],
  rules: TableRules,
  roundNo: number,
): ShoeOdds | null {
  const shoe = trackShoe(events, roundNo);
  if (shoe === null) return null;
  const edge = edgeRulesOf(rules);
  const values = valuesOf(shoe.counts, edge);
  if (values === null) return null;
  const remaining: Record<string, number> = {};
  DECK.forEach((card, i) => {
    const n = shoe.counts[i] ?? 0;
    if (n > 0) remaining[card] = n;
  });
  const bets: ShoeBetOdds[] = values.map((v) => ({
    spot: v.spot as Spot,
    label: betLabel(v.spot),
    paytable: v.paytable,
    ev: v.ev,
    evExact: v.evExact,
    houseEdge: -v.ev,
    favourable: favourable(v),
    probabilities: { win: v.win, push: v.push, lose: v.lose },
    results: v.results.map(resultOf),
  }));
  return {
    shoeNo: shoe.shoeNo,
    roundNo,
    coupInShoe: shoe.coups,
    cardsSeen: shoe.seen,
    cardsLeft: cardsIn(shoe.counts),
    game: edge.game,
    tiePays: edge.tiePays,
    remaining,
    bets,
  };
}
