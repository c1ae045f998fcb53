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

/** The global position of the last event in the store, or null when it is empty. */
export async function headPosition(store: EventStore): Promise<bigint | null> {
  const withHead = store as EventStore & { headPosition?: () => Promise<bigint | null> };
  if (typeof withHead.headPosition === 'function') return withHead.headPosition();
  let last: bigint | null = null;
  for await (const e of store.readAll()) last = e.globalPosition;
  return last;
}
