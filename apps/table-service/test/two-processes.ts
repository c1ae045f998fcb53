/**
 * One event store as two processes see it, per adapter: one memory store; two SQLite stores on one file (two
 * connections, two writer threads); two EventStoreDB adapters on one (fake) server. Test-only.
 */
import { join } from 'node:path';
import { EventStoreDbEventStore, createEventStore, type EventStore } from '@coup/event-store';
import { FakeEsdbClient } from '@coup/event-store/testing';

export const TWO_PROCESSES: Readonly<Record<string, (dir: string) => [EventStore, EventStore]>> = {
  memory: () => {
    const store = createEventStore({ kind: 'memory' });
    return [store, store];
  },
  sqlite: (dir) => {
    const file = join(dir, 'events.sqlite');
    return [createEventStore({ kind: 'sqlite', file }), createEventStore({ kind: 'sqlite', file })];
  },
  eventstoredb: () => {
    const server = new FakeEsdbClient();
    const adapter = () =>
      new EventStoreDbEventStore({
        connectionString: 'esdb://fake:2113?tls=false',
        createClient: () => server,
      });
    return [adapter(), adapter()];
  },
};
