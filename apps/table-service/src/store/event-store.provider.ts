import { createEventStore, type EventStore } from '@coup/event-store';

import type { ServiceConfig } from '../config/config';

/** The configured event store, with the kind it is (for health and logs). */
export class EventStoreHandle {
  constructor(
    readonly store: EventStore,
    readonly kind: ServiceConfig['eventStore']['kind'],
  ) {}

  static open(config: ServiceConfig): EventStoreHandle {
    return new EventStoreHandle(createEventStore(config.eventStore), config.eventStore.kind);
  }
}
