/** Where a hand is read from, the replay's refusal, and the shapes of its answers (in ./wire, for the browser). */
import type { EventStore } from '@coup/event-store';
import type { ReadModels } from '../read/read-models';
import type { RawEventReader } from '../runner/sqlite-store';

export type * from './wire';

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
