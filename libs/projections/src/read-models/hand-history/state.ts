/** The hand history's fold state: the open hand, its span so far, the current shoe, the last stored state. */
import type { ShoeStartedData, TableState } from '@coup/table';
import type { ProjectionEvent } from '../kernel/types';
import type { BetLog } from './bet-log';
import type { Ending } from './rows';
import type { Amendment, CardEntry, CorrectionEntry, SettledResult } from './wire';

/** A hand being built (betting or dealing). */
export interface OpenHand {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: 'betting' | 'dealing';
  readonly openedAt: string;
  readonly openedBy: string;
  readonly deadline: string | null;
  readonly closedAt: string | null;
  readonly closedHow: 'dealer' | 'timer' | 'player' | null;
  readonly closedBy: string | null;
  readonly dealer: string | null;
  /** Bets and clears in order (chunked: see {@link BetLog}; {@link betsOfLog} flattens them). */
  readonly betLog: BetLog;
  readonly cards: readonly CardEntry[];
  readonly corrections: readonly CorrectionEntry[];
  readonly firstPosition: number;
  readonly firstRevision: number;
  readonly firstPrevHash: string;
  /** The hand whose stored state a replay of this hand starts from, and its first revision. */
  readonly replayRound: number;
  readonly replayRevision: number;
}

/**
 * `h` with some fields replaced, written out field by field in the order of {@link OpenHand} (a spread of the
 * 18 fields, once per bet and card, measured as one of the costliest lines of a rebuild).
 */
export function handWith(
  h: OpenHand,
  c: {
    readonly status?: OpenHand['status'];
    readonly closedAt?: string | null;
    readonly closedHow?: OpenHand['closedHow'];
    readonly closedBy?: string | null;
    readonly dealer?: string | null;
    readonly betLog?: BetLog;
    readonly cards?: readonly CardEntry[];
    readonly corrections?: readonly CorrectionEntry[];
  },
): OpenHand {
  return {
    roundNo: h.roundNo,
    shoeNo: h.shoeNo,
    status: c.status ?? h.status,
    openedAt: h.openedAt,
    openedBy: h.openedBy,
    deadline: h.deadline,
    closedAt: c.closedAt !== undefined ? c.closedAt : h.closedAt,
    closedHow: c.closedHow !== undefined ? c.closedHow : h.closedHow,
    closedBy: c.closedBy !== undefined ? c.closedBy : h.closedBy,
    dealer: c.dealer !== undefined ? c.dealer : h.dealer,
    betLog: c.betLog ?? h.betLog,
    cards: c.cards ?? h.cards,
    corrections: c.corrections ?? h.corrections,
    firstPosition: h.firstPosition,
    firstRevision: h.firstRevision,
    firstPrevHash: h.firstPrevHash,
    replayRound: h.replayRound,
    replayRevision: h.replayRevision,
  };
}

/** A shoe of the table: what its ShoeStarted event says, and where it starts and ends in the log. */
export interface ShoeRecord extends Pick<
  ShoeStartedData,
  | 'shoeNo'
  | 'dealing'
  | 'shuffle'
  | 'decks'
  | 'length'
  | 'commitment'
  | 'burnCard'
  | 'burnCount'
  | 'firstCoupIndex'
  | 'cutCard'
> {
  /** Only once revealed (ShoeEnded). */
  readonly seed: string | null;
  readonly startedAt: string;
  readonly startedBy: string;
  readonly startedPosition: number;
  readonly startedRevision: number;
  readonly startedPrevHash: string;
  readonly startedHash: string;
  readonly endedAt: string | null;
  readonly endReason: string | null;
  readonly endedPosition: number | null;
  readonly endedRevision: number | null;
  readonly endedPrevHash: string | null;
  readonly endedHash: string | null;
  readonly coups: number;
  readonly voids: number;
  readonly firstRound: number | null;
  readonly lastRound: number | null;
}

/** Where the open hand's span ends so far (kept apart from the hand: it moves with every event). */
export interface SpanEnd {
  readonly position: number;
  readonly revision: number;
  readonly hash: string;
  readonly count: number;
}

/**
 * The coup last settled, kept until the next round's betting opens: until then a supervisor may correct a card of
 * it or void it, and its row (hh_hands, updated in place: its bets stay as written) and its players' rows follow.
 */
export interface SettledHand {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly firstRevision: number;
  /** Each player's stakes at the end of betting, in player order. */
  readonly stakes: readonly (readonly [string, number])[];
  readonly cards: readonly CardEntry[];
  /** The result in force (a correction's, or the void). */
  readonly ending: Ending;
  readonly original: SettledResult;
  readonly amendments: readonly Amendment[];
  /** The coup's shoe once another has started (its row is written again if the coup is voided), else null. */
  readonly shoe: ShoeRecord | null;
}

export interface HandHistoryState {
  readonly position: number;
  readonly tableId: string;
  /** The table folded with @coup/table's evolve, seed removed until revealed. */
  readonly table: TableState;
  readonly hand: OpenHand | null;
  readonly handEnd: SpanEnd | null;
  readonly shoe: ShoeRecord | null;
  /** The last hand whose state before it was stored, and its first revision. */
  readonly snapshot: { readonly roundNo: number; readonly revision: number } | null;
  /** The coup last settled, until the next betting opens (absent in states stored by older code: none). */
  readonly settled?: SettledHand | null;
}

/** The span of the open hand ending at `e`, `count` events long. */
export function endAt(e: ProjectionEvent, count: number): SpanEnd {
  return { position: e.position, revision: e.revision, hash: e.hash, count };
}
