/**
 * The hand history's fold, one handler per event type: each updates the step (the open hand, its span, the
 * shoe, the last stored state) and adds the rows it finishes. Events with no handler change only the table.
 */
import { isSideSpot } from '@coup/engine';
import type { TableEvent, TableState } from '@coup/table';
import type { ProjectionEvent, Write } from '../kernel/types';
import { EMPTY_LOG, appendBet } from './bet-log';
import { type Ending, finish, json, openHandRow, shoeRow } from './rows';
import { HH_HANDS, HH_HAND_STATES, SNAPSHOT_EVERY } from './schema';
import { placesOf, settledCoupCorrected, settledCoupVoided, settledHand, voidedEnding } from './settled';
import {
  type HandHistoryState,
  type OpenHand,
  type SettledHand,
  type ShoeRecord,
  type SpanEnd,
  endAt,
  handWith,
} from './state';
import type { BetEntry, CardEntry, CorrectionEntry } from './wire';

/** One event's step: what it starts from and what the handler changes. */
export interface Step {
  readonly s: HandHistoryState;
  readonly e: ProjectionEvent;
  /** The table state before the event (stored before every SNAPSHOT_EVERYth hand). */
  readonly before: TableState;
  hand: OpenHand | null;
  handEnd: SpanEnd | null;
  shoe: ShoeRecord | null;
  snapshot: HandHistoryState['snapshot'];
  settled: SettledHand | null;
  readonly writes: Write[];
}

export type DataOf<K extends TableEvent['type']> = Extract<TableEvent, { type: K }>['data'];
type Handlers = { readonly [K in TableEvent['type']]?: (x: Step, d: DataOf<K>) => void };

/** The open hand of `roundNo`, or null when the event is about another round (or none is open). */
const handOf = (x: Step, roundNo: number): OpenHand | null =>
  x.hand !== null && x.hand.roundNo === roundNo ? x.hand : null;

function shoeStarted(x: Step, d: DataOf<'ShoeStarted'>): void {
  const e = x.e;
  // the settled coup's shoe is kept with it: a void of the coup still counts it there
  if (x.settled !== null && x.shoe !== null && x.shoe.shoeNo === x.settled.shoeNo)
    x.settled = { ...x.settled, shoe: x.shoe };
  x.shoe = {
    shoeNo: d.shoeNo,
    dealing: d.dealing,
    shuffle: d.shuffle,
    decks: d.decks,
    length: d.length,
    commitment: d.commitment,
    seed: null,
    burnCard: d.burnCard,
    burnCount: d.burnCount,
    firstCoupIndex: d.firstCoupIndex,
    cutCard: d.cutCard,
    startedAt: d.at,
    startedBy: d.by,
    startedPosition: e.position,
    startedRevision: e.revision,
    startedPrevHash: e.prevHash,
    startedHash: e.hash,
    endedAt: null,
    endReason: null,
    endedPosition: null,
    endedRevision: null,
    endedPrevHash: null,
    endedHash: null,
    coups: 0,
    voids: 0,
    firstRound: null,
    lastRound: null,
  };
  x.writes.push(shoeRow(x.s.tableId, x.shoe));
}

function shoeEnded(x: Step, d: DataOf<'ShoeEnded'>): void {
  if (x.shoe === null || x.shoe.shoeNo !== d.shoeNo) return;
  const e = x.e;
  x.shoe = {
    ...x.shoe,
    seed: d.seed,
    endedAt: d.at,
    endReason: d.reason,
    endedPosition: e.position,
    endedRevision: e.revision,
    endedPrevHash: e.prevHash,
    endedHash: e.hash,
  };
  x.writes.push(shoeRow(x.s.tableId, x.shoe));
}

/** The table state before every SNAPSHOT_EVERYth hand (and a table's first) is stored: replays start there. */
function snapshotFor(x: Step, roundNo: number): NonNullable<HandHistoryState['snapshot']> {
  const snapshot = x.s.snapshot;
  if (snapshot !== null && roundNo - snapshot.roundNo < SNAPSHOT_EVERY && roundNo > snapshot.roundNo)
    return snapshot;
  x.writes.push({
    kind: 'upsert',
    table: HH_HAND_STATES,
    row: { table_id: x.s.tableId, round_no: roundNo, state_json: json(x.before) },
  });
  return { roundNo, revision: x.e.revision };
}

function bettingOpened(x: Step, d: DataOf<'BettingOpened'>): void {
  const { s, e } = x;
  if (x.hand !== null) {
    // cannot come from decide: keep what was recorded of the unfinished hand
    x.writes.push({
      kind: 'upsert',
      table: HH_HANDS,
      row: openHandRow(s.tableId, x.hand, s.handEnd ?? endAt(e, 1)),
    });
  }
  const snapshot = snapshotFor(x, d.roundNo);
  // the coup settled before can no longer be corrected
  x.settled = null;
  x.hand = {
    roundNo: d.roundNo,
    shoeNo: d.shoeNo,
    status: 'betting',
    openedAt: d.at,
    openedBy: d.by,
    deadline: d.deadline,
    closedAt: null,
    closedHow: null,
    closedBy: null,
    dealer: null,
    betLog: EMPTY_LOG,
    cards: [],
    corrections: [],
    firstPosition: e.position,
    firstRevision: e.revision,
    firstPrevHash: e.prevHash,
    replayRound: snapshot.roundNo,
    replayRevision: snapshot.revision,
  };
  x.snapshot = snapshot;
  x.handEnd = endAt(e, 1);
  if (x.shoe !== null && x.shoe.shoeNo === d.shoeNo) {
    x.shoe = { ...x.shoe, firstRound: x.shoe.firstRound ?? d.roundNo, lastRound: d.roundNo };
    x.writes.push(shoeRow(s.tableId, x.shoe));
  }
}

function betPlaced(x: Step, d: DataOf<'BetPlaced'>): void {
  const hand = handOf(x, d.roundNo);
  if (hand === null) return;
  const paytable = isSideSpot(d.spot) ? x.before.rules?.sideBets?.[d.spot]?.paytable : undefined;
  const bet: BetEntry = {
    kind: 'bet',
    playerId: d.playerId,
    spot: d.spot,
    amount: d.amount,
    cleared: null,
    rebet: d.rebet,
    ...(paytable === undefined ? {} : { paytable }),
    at: d.at,
    by: d.by,
    role: d.role,
    position: x.e.position,
  };
  x.hand = handWith(hand, { betLog: appendBet(hand.betLog, bet) });
}

function betsCleared(x: Step, d: DataOf<'BetsCleared'>): void {
  const hand = handOf(x, d.roundNo);
  if (hand === null) return;
  const clear: BetEntry = {
    kind: 'clear',
    playerId: d.playerId,
    spot: null,
    amount: d.returned,
    cleared: d.bets,
    rebet: false,
    at: d.at,
    by: d.by,
    role: d.role,
    position: x.e.position,
  };
  x.hand = handWith(hand, { betLog: appendBet(hand.betLog, clear) });
}

function bettingClosed(x: Step, d: DataOf<'BettingClosed'>): void {
  const hand = handOf(x, d.roundNo);
  if (hand === null) return;
  x.hand = handWith(hand, { status: 'dealing', closedAt: d.at, closedHow: d.by, closedBy: d.actorId });
}

function cardDealt(x: Step, d: DataOf<'CardDealt'>): void {
  const hand = handOf(x, d.roundNo);
  if (hand === null) return;
  const card: CardEntry = {
    index: d.index,
    card: d.card,
    to: d.to,
    slot: d.slot,
    shoePosition: d.shoePosition,
    at: d.at,
    by: d.by,
    role: d.role,
    position: x.e.position,
    correctedFrom: null,
  };
  x.hand = handWith(hand, { cards: [...hand.cards, card], dealer: hand.dealer ?? d.by });
}

function cardCorrected(x: Step, d: DataOf<'CardCorrected'>): void {
  const hand = handOf(x, d.roundNo);
  if (hand === null) return;
  const corrected = hand.cards.map((c, i) => (i === d.index ? d.newCard : c.card));
  const placed = placesOf(corrected);
  const cards = hand.cards.map((c, i) => ({
    ...c,
    ...placed[i],
    ...(i === d.index ? { card: d.newCard, correctedFrom: c.correctedFrom ?? d.oldCard } : {}),
  }));
  const correction: CorrectionEntry = {
    index: d.index,
    oldCard: d.oldCard,
    newCard: d.newCard,
    at: d.at,
    by: d.by,
    role: d.role,
    position: x.e.position,
  };
  x.hand = handWith(hand, { cards, corrections: [...hand.corrections, correction] });
}

function coupResolved(x: Step, d: DataOf<'CoupResolved'>): void {
  const hand = handOf(x, d.roundNo);
  if (hand !== null) {
    // written out (a spread of resultOf with more fields is slow in V8), the same fields in the same order
    const ending: Ending = {
      status: 'resolved',
      at: d.at,
      outcome: d.outcome,
      natural: d.natural,
      playerCards: [...d.playerCards],
      bankerCards: [...d.bankerCards],
      playerTotal: d.playerTotal,
      bankerTotal: d.bankerTotal,
      settlements: d.settlements,
      commissionMode: d.commissionMode,
      void: null,
    };
    const { writes, stakes } = finish(x.s, hand, x.handEnd ?? endAt(x.e, 1), ending);
    x.writes.push(...writes);
    x.settled = settledHand(hand, d, ending, stakes, x.e.position);
    x.hand = null;
  }
  if (x.shoe !== null && x.shoe.shoeNo === d.shoeNo) {
    x.shoe = { ...x.shoe, coups: x.shoe.coups + 1 };
    x.writes.push(shoeRow(x.s.tableId, x.shoe));
  }
}

function roundVoided(x: Step, d: DataOf<'RoundVoided'>): void {
  const hand = handOf(x, d.roundNo);
  if (hand === null) return;
  const { writes } = finish(x.s, hand, x.handEnd ?? endAt(x.e, 1), voidedEnding(d));
  x.writes.push(...writes);
  x.hand = null;
  if (x.shoe !== null && x.shoe.shoeNo === hand.shoeNo) {
    x.shoe = { ...x.shoe, voids: x.shoe.voids + 1 };
    x.writes.push(shoeRow(x.s.tableId, x.shoe));
  }
}

/** The handler of each event type the hand history records. */
export const HANDLERS: Handlers = {
  ShoeStarted: shoeStarted,
  ShoeEnded: shoeEnded,
  BettingOpened: bettingOpened,
  BetPlaced: betPlaced,
  BetsCleared: betsCleared,
  BettingClosed: bettingClosed,
  CardDealt: cardDealt,
  CardCorrected: cardCorrected,
  CoupResolved: coupResolved,
  RoundVoided: roundVoided,
  SettledCoupCorrected: settledCoupCorrected,
  SettledCoupVoided: settledCoupVoided,
};
