import { Logger } from '@nestjs/common';
import {
  createEventStore,
  type EventStore,
  FieldSealer,
  SealedEventStore,
  type SqliteStoreObserver,
  type WriterStatus,
} from '@coup/event-store';
import type { Metrics } from '../common/metrics';

import type { ServiceConfig } from '../config/config';
import { SEED_FIELDS } from './seal';

/** The configured event store, with the kind it is (for health and logs). */
export class EventStoreHandle {
  /**
   * @param store The store as stored: unrevealed seeds sealed. For every reader that needs no unrevealed seed
   *   (projections, replay and verify, the live push, the table list, health); it verifies hash chains.
   * @param processorStore The same store with the seed fields sealed on append and opened on read: for the table
   *   processor only, the one reader that deals from a seed before it is revealed.
   */
  constructor(
    readonly store: EventStore,
    readonly kind: ServiceConfig['eventStore']['kind'],
    readonly processorStore: EventStore = store,
  ) {}

  /** Where the store's commits run and whether its writer thread was lost (SQLite; null for the others). */
  writerStatus(): WriterStatus | null {
    const store = this.store as EventStore & { writerStatus?: () => WriterStatus };
    return typeof store.writerStatus === 'function' ? store.writerStatus() : null;
  }

  static open(config: ServiceConfig, metrics?: Metrics): EventStoreHandle {
    const store = createEventStore(config.eventStore, { observer: storeObserver(metrics) });
    const sealed = new SealedEventStore(store, new FieldSealer(config.seedKeys, SEED_FIELDS));
    return new EventStoreHandle(store, config.eventStore.kind, sealed);
  }
}

/** The store's commits into the metrics; a lost writer thread into the log and the metrics (once). */
function storeObserver(metrics: Metrics | undefined): SqliteStoreObserver {
  const log = new Logger('store');
  return {
    committed: (seconds) => metrics?.storeCommitSeconds.observe(seconds),
    writerThreadLost: (lost) => {
      metrics?.storeWriterThreadLost.set(1);
      log.error({
        msg: 'the event store writer thread was lost: commits run on the request thread from now on (restart to get it back)',
        reason: lost.reason,
      });
    },
  };
}
