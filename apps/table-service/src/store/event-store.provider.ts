import { createEventStore, type EventStore, FieldSealer, SealedEventStore } from '@coup/event-store';

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

  static open(config: ServiceConfig): EventStoreHandle {
    const store = createEventStore(config.eventStore);
    const sealed = new SealedEventStore(store, new FieldSealer(config.seedKeys, SEED_FIELDS));
    return new EventStoreHandle(store, config.eventStore.kind, sealed);
  }
}
