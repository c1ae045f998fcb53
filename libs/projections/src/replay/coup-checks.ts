/**
 * The `coup` and `settlements` checks: the engine re-resolves the recorded cards (corrections applied) to the
 * recorded result, and `settleBet` recomputes each stake's recorded settlement (for a void, every stake returned).
 */
import { type Card, fullShoeCounts, isSideSpot, nextPosition, resolveCoup, settleBet } from '@coup/engine';
import type { RecordedEvent } from '@coup/event-store';
import {
  type EventData,
  type Settlement,
  type Spot,
  type SpotAmounts,
  type TableRules,
  type TableState,
  addStake,
  amountOn,
  gameOf,
  limitOf,
  payoutRulesOf,
  stakedSpots,
  tableView,
  totalOf,
} from '@coup/table';
import type { HandRecord } from '../read-models/hand-history/wire';
import { failedAt } from './span';
import type { Check } from './types';

type CoupData = EventData<'CoupResolved'>;

/** A card of the hand in dealing order, with the event that dealt (or last corrected) it. */
export interface DealtCard {
  readonly card: Card;
  readonly to: string;
  readonly slot: string;
  readonly shoePosition: number;
  readonly e: RecordedEvent;
}

type Stakes = SpotAmounts;

const ONE_DECK = fullShoeCounts(1);

/** The hand's cards in dealing order, corrections applied, with the events that dealt them. */
export function dealtCards(events: readonly RecordedEvent[]): DealtCard[] {
  const cards: DealtCard[] = [];
  for (const e of events) {
    if (e.type === 'CardDealt') {
      const d = e.data as { card: Card; to: string; slot: string; shoePosition: number };
      cards.push({ card: d.card, to: d.to, slot: d.slot, shoePosition: d.shoePosition, e });
    } else if (e.type === 'CardCorrected') {
      const d = e.data as { index: number; newCard: Card };
      const at = cards[d.index];
      if (at) cards[d.index] = { ...at, card: d.newCard, e };
    }
  }
  return cards;
}

/** The first card dealt after the coup was complete or recorded to another hand or slot than the engine's. */
function misdealt(cards: readonly DealtCard[]): Check | null {
  for (let i = 0; i < cards.length; i++) {
    const next = nextPosition({ cards: cards.slice(0, i).map((c) => c.card), remaining: ONE_DECK });
    const c = cards[i];
    if (c === undefined) break;
    if (next.to === 'complete')
      return failedAt('coup', `card ${i} (${c.card}) was dealt after the coup was complete`, c.e);
    if (c.e.type === 'CardDealt' && (next.to !== c.to || next.slot !== c.slot)) {
      return failedAt(
        'coup',
        `card ${i} (${c.card}) was recorded to ${c.to}/${c.slot}; the engine puts it to ${next.to}/${next.slot}`,
        c.e,
      );
    }
  }
  return null;
}

export function checkCoup(hand: HandRecord, events: readonly RecordedEvent[]): Check {
  const resolved = events.find((e) => e.type === 'CoupResolved');
  const cards = dealtCards(events);
  if (!resolved) {
    return {
      name: 'coup',
      status: 'skipped',
      detail:
        hand.status === 'voided'
          ? `voided before the coup resolved (${cards.length} cards on record)`
          : 'the coup has not resolved yet',
    };
  }
  const d = resolved.data as unknown as CoupData;
  const misplaced = misdealt(cards);
  if (misplaced) return misplaced;
  let engine;
  try {
    engine = resolveCoup(cards.map((c) => c.card));
  } catch (error) {
    return failedAt('coup', `the recorded cards do not make a coup: ${(error as Error).message}`, resolved);
  }
  const same =
    engine.cardsUsed === cards.length &&
    engine.cardsUsed === d.cardsUsed &&
    engine.outcome === d.outcome &&
    engine.natural === d.natural &&
    engine.playerTotal === d.playerTotal &&
    engine.bankerTotal === d.bankerTotal &&
    engine.playerCards.join() === d.playerCards.join() &&
    engine.bankerCards.join() === d.bankerCards.join();
  if (!same) {
    return failedAt(
      'coup',
      `the engine resolves the cards ${cards.map((c) => c.card).join(' ')} to ${engine.outcome} ${engine.playerTotal}-${engine.bankerTotal}` +
        ` (player ${engine.playerCards.join(' ')}, banker ${engine.bankerCards.join(' ')}); recorded: ${d.outcome} ${d.playerTotal}-${d.bankerTotal}` +
        ` (player ${d.playerCards.join(' ')}, banker ${d.bankerCards.join(' ')})`,
      resolved,
    );
  }
  return {
    name: 'coup',
    status: 'pass',
    detail: `${cards.map((c) => c.card).join(' ')}: ${engine.outcome} ${engine.playerTotal}-${engine.bankerTotal}${engine.natural ? ', natural' : ''}`,
  };
}

/** Stakes per player and spot, folded from the hand's BetPlaced/BetsCleared events. */
function stakesFrom(events: readonly RecordedEvent[]): Map<string, Stakes> {
  const stakes = new Map<string, Stakes>();
  for (const e of events) {
    if (e.type === 'BetPlaced') {
      const d = e.data as { playerId: string; spot: Spot; amount: number };
      stakes.set(
        d.playerId,
        addStake(stakes.get(d.playerId) ?? { player: 0, banker: 0, tie: 0 }, d.spot, d.amount),
      );
    } else if (e.type === 'BetsCleared') {
      stakes.delete((e.data as { playerId: string }).playerId);
    }
  }
  return stakes;
}

/** A void: every player's total stake returned, nothing returned to anyone without a stake. */
function checkVoidReturns(stakes: ReadonlyMap<string, Stakes>, voided: RecordedEvent): Check {
  const returned = new Map(
    (voided.data as { returned: { playerId: string; amount: number }[] }).returned.map((r) => [
      r.playerId,
      r.amount,
    ]),
  );
  for (const [playerId, s] of stakes) {
    const total = totalOf(s);
    if (total > 0 && returned.get(playerId) !== total) {
      return failedAt(
        'settlements',
        `player ${playerId} staked ${total}; the void returned ${returned.get(playerId) ?? 0}`,
        voided,
      );
    }
    returned.delete(playerId);
  }
  for (const [playerId, amount] of returned) {
    if (amount > 0)
      return failedAt('settlements', `the void returned ${amount} to ${playerId}, who had no stake`, voided);
  }
  return {
    name: 'settlements',
    status: 'pass',
    detail: `voided: every stake returned (${stakes.size} players)`,
  };
}

/** One stake's recorded settlement against `settleBet`'s; null when they agree. */
function stakeMismatch(
  playerId: string,
  spot: Spot,
  amount: number,
  got: Settlement | undefined,
  expected: ReturnType<typeof settleBet>,
  paytable: string | undefined,
): string | null {
  if (!got) return `no settlement recorded for ${playerId}'s ${amount} on ${spot}`;
  if (
    got.amount !== amount ||
    got.result !== expected.result ||
    got.paid !== expected.paid ||
    got.commission !== expected.commission ||
    got.paytable !== paytable
  ) {
    return (
      `${playerId}'s ${amount} on ${spot}: recorded ${got.result}, paid ${got.paid}, commission ${got.commission} (stake ${got.amount}, paytable ${got.paytable ?? 'none'}); ` +
      `settleBet gives ${expected.result}, paid ${expected.paid}, commission ${expected.commission} (paytable ${paytable ?? 'none'})`
    );
  }
  return null;
}

/**
 * What is wrong with one stake's recorded settlement (taken out of `recorded`), or null: a spot the table does
 * not offer, a stake above its maximum, a coup it cannot be settled on, or a settlement other than settleBet's.
 */
function stakeProblem(
  rules: TableRules,
  stake: { readonly playerId: string; readonly spot: Spot; readonly amount: number },
  d: CoupData,
  recorded: Map<string, Settlement>,
): string | null {
  const { playerId, spot, amount } = stake;
  const limit = limitOf(rules, spot);
  if (limit === null) return `${playerId} staked ${amount} on ${spot}, which this table does not offer`;
  if (amount > limit.max) return `${playerId} staked ${amount} on ${spot}, above its maximum ${limit.max}`;
  const payout = payoutRulesOf(rules);
  let expected: ReturnType<typeof settleBet>;
  try {
    expected = settleBet(spot, amount, d, payout);
  } catch (e) {
    return `${playerId}'s ${amount} on ${spot} cannot be settled: ${(e as Error).message}`;
  }
  const got = recorded.get(`${playerId}/${spot}`);
  recorded.delete(`${playerId}/${spot}`);
  const paytable = isSideSpot(spot) ? payout.paytables?.[spot] : undefined;
  return stakeMismatch(playerId, spot, amount, got, expected, paytable);
}

export function checkSettlements(
  hand: HandRecord,
  before: TableState,
  events: readonly RecordedEvent[],
): Check {
  const stakes = stakesFrom(events);
  const voided = events.find((e) => e.type === 'RoundVoided');
  if (voided) return checkVoidReturns(stakes, voided);
  const resolved = events.find((e) => e.type === 'CoupResolved');
  if (!resolved) return { name: 'settlements', status: 'skipped', detail: 'the coup has not resolved yet' };
  const d = resolved.data as unknown as CoupData;
  const rules = tableView(before).rules;
  if (!rules) return failedAt('settlements', 'the state before the hand has no table rules', resolved);
  const recorded = new Map(d.settlements.map((s) => [`${s.playerId}/${s.spot}`, s]));
  let count = 0;
  for (const [playerId, s] of stakes) {
    for (const spot of stakedSpots(s)) {
      count += 1;
      const problem = stakeProblem(rules, { playerId, spot, amount: amountOn(s, spot) }, d, recorded);
      if (problem) return failedAt('settlements', problem, resolved);
    }
  }
  const extra = [...recorded.keys()];
  if (extra.length > 0)
    return failedAt(
      'settlements',
      `settlements recorded for stakes never placed: ${extra.join(', ')}`,
      resolved,
    );
  return {
    name: 'settlements',
    status: 'pass',
    detail: `${count} settlements recomputed with settleBet (${gameOf(rules)} game, tie ${rules.tiePays}:1, commission ${rules.commission})`,
  };
}
