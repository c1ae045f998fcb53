/**
 * The `coup` and `settlements` checks: the engine re-resolves the recorded cards (corrections applied) to the
 * recorded result, and `settleBet` recomputes each stake's recorded settlement (for a void, every stake returned).
 * A settled coup corrected or voided after it settled (`SettledCoupCorrected`, `SettledCoupVoided`) is checked
 * the same way, one amendment after the other: each correction's card replaced what the card then was, the
 * corrected cards re-resolve to its recorded result, each reversal is the settlement then in force, each new
 * settlement is recomputed, and a void returns every stake.
 */
import {
  type Card,
  type CoupResult,
  fullShoeCounts,
  isSideSpot,
  nextPosition,
  resolveCoup,
  settleBet,
} from '@coup/engine';
import { type JsonValue, type RecordedEvent, canonicalJson } from '@coup/event-store';
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
type CorrectionData = EventData<'SettledCoupCorrected'>;
type SettledVoidData = EventData<'SettledCoupVoided'>;

/** The events of the hand after its coup resolved that amend it (this round's corrections and void), in order. */
function amendmentsOf(
  hand: HandRecord,
  events: readonly RecordedEvent[],
  resolved: RecordedEvent,
): RecordedEvent[] {
  const after = events.slice(events.indexOf(resolved) + 1);
  return after.filter(
    (e) =>
      (e.type === 'SettledCoupCorrected' || e.type === 'SettledCoupVoided') &&
      (e.data as { roundNo?: unknown }).roundNo === hand.roundNo,
  );
}

/** What the engine resolves `cards` to, against a recorded result: null when they agree, else why not. */
function resolvedOtherwise(cards: readonly Card[], d: CoupResult): string | null {
  let engine;
  try {
    engine = resolveCoup(cards);
  } catch (error) {
    return `the recorded cards do not make a coup: ${(error as Error).message}`;
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
  if (same) return null;
  return (
    `the engine resolves the cards ${cards.join(' ')} to ${engine.outcome} ${engine.playerTotal}-${engine.bankerTotal}` +
    ` (player ${engine.playerCards.join(' ')}, banker ${engine.bankerCards.join(' ')}); recorded: ${d.outcome} ${d.playerTotal}-${d.bankerTotal}` +
    ` (player ${d.playerCards.join(' ')}, banker ${d.bankerCards.join(' ')})`
  );
}

const resultText = (d: CoupResult) =>
  `${d.outcome} ${d.playerTotal}-${d.bankerTotal}${d.natural ? ', natural' : ''}`;

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
  if (!resolved) {
    return {
      name: 'coup',
      status: 'skipped',
      detail:
        hand.status === 'voided'
          ? `voided before the coup resolved (${dealtCards(events).length} cards on record)`
          : 'the coup has not resolved yet',
    };
  }
  const cards = dealtCards(events.slice(0, events.indexOf(resolved) + 1));
  const d = resolved.data as unknown as CoupData;
  const misplaced = misdealt(cards);
  if (misplaced) return misplaced;
  let current = cards.map((c) => c.card);
  const otherwise = resolvedOtherwise(current, d);
  if (otherwise) return failedAt('coup', otherwise, resolved);
  let detail = `${current.join(' ')}: ${resultText(d)}`;
  for (const e of amendmentsOf(hand, events, resolved)) {
    if (e.type === 'SettledCoupVoided') {
      const v = e.data as unknown as SettledVoidData;
      detail += `; voided after it settled by ${v.by} (${v.reason})`;
      continue;
    }
    const c = e.data as unknown as CorrectionData;
    if (current[c.index] !== c.oldCard) {
      return failedAt(
        'coup',
        `the correction replaces card ${c.index} as ${c.oldCard}, but it was ${current[c.index] ?? 'not dealt'}`,
        e,
      );
    }
    current = current.map((card, i) => (i === c.index ? c.newCard : card));
    const wrong = resolvedOtherwise(current, c);
    if (wrong) return failedAt('coup', `corrected after it settled: ${wrong}`, e);
    detail += `; card ${c.index} corrected after it settled, ${c.oldCard} to ${c.newCard}, by ${c.by} (${c.reason}): ${current.join(' ')}: ${resultText(c)}`;
  }
  return { name: 'coup', status: 'pass', detail };
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
  d: CoupResult,
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

/**
 * Every stake's recorded settlement of the coup `d` recomputed, none missing or extra: the number of settlements,
 * or what is wrong.
 */
function settledAsRecomputed(
  rules: TableRules,
  stakes: ReadonlyMap<string, Stakes>,
  d: CoupResult & { readonly settlements: readonly Settlement[] },
): number | string {
  const recorded = new Map(d.settlements.map((s) => [`${s.playerId}/${s.spot}`, s]));
  let count = 0;
  for (const [playerId, s] of stakes) {
    for (const spot of stakedSpots(s)) {
      count += 1;
      const problem = stakeProblem(rules, { playerId, spot, amount: amountOn(s, spot) }, d, recorded);
      if (problem) return problem;
    }
  }
  const extra = [...recorded.keys()];
  return extra.length > 0 ? `settlements recorded for stakes never placed: ${extra.join(', ')}` : count;
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
  const count = settledAsRecomputed(rules, stakes, d);
  if (typeof count === 'string') return failedAt('settlements', count, resolved);
  let inForce: readonly Settlement[] = d.settlements;
  const after: string[] = [];
  for (const e of amendmentsOf(hand, events, resolved)) {
    const reversed = (e.data as { reversed?: readonly Settlement[] }).reversed ?? [];
    const json = (v: readonly Settlement[]) => canonicalJson(v as unknown as JsonValue);
    if (json(reversed) !== json(inForce)) {
      return failedAt(
        'settlements',
        `${e.type} reverses a settlement other than the one in force (reversed ${JSON.stringify(reversed)}; in force ${JSON.stringify(inForce)})`,
        e,
      );
    }
    if (e.type === 'SettledCoupVoided') {
      const returns = checkVoidReturns(stakes, e);
      if (returns.status === 'fail') return returns;
      after.push('voided after it settled: the settlement in force reversed, every stake returned');
      inForce = [];
      continue;
    }
    const c = e.data as unknown as CorrectionData;
    const again = settledAsRecomputed(rules, stakes, c);
    if (typeof again === 'string') return failedAt('settlements', `corrected after it settled: ${again}`, e);
    after.push(
      `corrected after it settled: the settlement in force reversed, ${again} settlements recomputed on the corrected coup`,
    );
    inForce = c.settlements;
  }
  return {
    name: 'settlements',
    status: 'pass',
    detail:
      `${count} settlements recomputed with settleBet (${gameOf(rules)} game, tie ${rules.tiePays}:1, commission ${rules.commission})` +
      after.map((a) => `; ${a}`).join(''),
  };
}
