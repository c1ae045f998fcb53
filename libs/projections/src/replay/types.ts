/** The shapes of a hand's replay and verification, and where a hand is read from. */
import type { EventStore } from '@coup/event-store';
import type { TableView } from '@coup/table';
import type { HandRecord } from '../read-models/hand-history/wire';
import type { ReadModels } from '../read/read-models';
import type { RawEventReader } from '../runner/sqlite-store';

export type ReplayErrorCode = 'UNKNOWN_HAND' | 'HAND_EVENTS_MISSING';

export class ReplayError extends Error {
  constructor(
    readonly code: ReplayErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReplayError';
  }
}

export interface HandSource {
  readonly store: EventStore;
  readonly readModels: ReadModels;
  /**
   * The stored bytes of events (SQLite: `sqliteRawReader(file)`). With it, the chain check hashes exactly what
   * is stored (a changed byte anywhere, even whitespace, fails; upcasting cannot disturb it). Without it, each
   * event's hash is recomputed from its contents as the port returns them.
   */
  readonly raw?: RawEventReader;
}

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
