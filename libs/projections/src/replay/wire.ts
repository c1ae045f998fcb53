/** What a hand's replay and verification answer (JSON over the API): browser-safe types, no code. */
import type { TableView } from '@coup/table';
import type { ShoeOdds } from '../read-models/edge-monitor/wire';
import type { HandRecord } from '../read-models/hand-history/wire';

/** An event of the hand as shown (an unrevealed seed removed). */
export interface ReplayEvent {
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly data: unknown;
  readonly recordedAt: string;
  readonly actor: string | null;
  readonly hash: string;
  readonly prevHash: string;
}

export interface ReplayStep {
  readonly event: ReplayEvent;
  /** The table as staff see it after this event. */
  readonly view: TableView;
}

export interface HandReplay {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: HandRecord['status'];
  /** The table just before the hand. */
  readonly before: TableView;
  readonly steps: ReplayStep[];
}

export type CheckStatus = 'pass' | 'fail' | 'pending' | 'skipped';

export interface Check {
  readonly name: 'index' | 'chain' | 'coup' | 'settlements' | 'commitment' | 'shuffle';
  readonly status: CheckStatus;
  readonly detail: string;
  /** The event a failure is about. */
  readonly event?: { readonly revision: number; readonly position: number; readonly type: string };
}

export interface HandVerification {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly ok: boolean;
  readonly checks: Check[];
}

/** A hand's odds before it (each offered bet on the cards not seen in its shoe): null with no shoe in play. */
export interface HandOdds {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly odds: ShoeOdds | null;
}
