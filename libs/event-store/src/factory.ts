import { join } from 'node:path';
import { EventStoreInputError } from './errors';
import { type EventStoreDbConfig, EventStoreDbEventStore } from './eventstoredb';
import { MemoryEventStore } from './memory';
import { type SqliteEventStoreConfig, SqliteEventStore, type SqliteStoreObserver } from './sqlite';
import type { EventStore } from './types';
import type { UpcasterRegistry } from './upcasting';

export type EventStoreConfig =
  | { kind: 'memory' }
  | ({ kind: 'sqlite' } & Omit<SqliteEventStoreConfig, 'upcasters' | 'observer'>)
  | ({ kind: 'eventstoredb' } & Omit<EventStoreDbConfig, 'upcasters'>);

export interface EventStoreOptions {
  /** Applied to every event read (readStream, readAll, subscribeToAll). */
  upcasters?: UpcasterRegistry;
  /** SQLite: told of each group commit and of a lost writer thread. */
  observer?: SqliteStoreObserver;
}

/** Opens the configured adapter. SQLite opens (and creates) its file now; EventStoreDB connects on first use. */
export function createEventStore(config: EventStoreConfig, options: EventStoreOptions = {}): EventStore {
  switch (config.kind) {
    case 'memory':
      return new MemoryEventStore({ upcasters: options.upcasters });
    case 'sqlite': {
      const { kind: _kind, ...sqlite } = config;
      return new SqliteEventStore({ ...sqlite, upcasters: options.upcasters, observer: options.observer });
    }
    case 'eventstoredb': {
      const { kind: _kind, ...esdb } = config;
      return new EventStoreDbEventStore({ ...esdb, upcasters: options.upcasters });
    }
    default: {
      const unknown: never = config;
      throw new EventStoreInputError(
        'INVALID_OPTIONS',
        `Unknown event store kind: ${JSON.stringify(unknown)}`,
      );
    }
  }
}

/** The default SQLite file inside the data folder. */
export const SQLITE_FILE_NAME = 'events.sqlite';

/**
 * The store configuration from the environment: `COUP_EVENT_STORE` = `sqlite` (default: the file
 * `events.sqlite` in `COUP_DATA_DIR`, default `./data`) or `eventstoredb` (needs
 * `EVENTSTORE_CONNECTION_STRING`, e.g. `esdb://localhost:2113?tls=false`).
 */
export function eventStoreConfigFromEnv(env: Record<string, string | undefined>): EventStoreConfig {
  const kind = env['COUP_EVENT_STORE'] || 'sqlite';
  if (kind === 'sqlite') return { kind, file: join(env['COUP_DATA_DIR'] || './data', SQLITE_FILE_NAME) };
  if (kind === 'eventstoredb') {
    const connectionString = env['EVENTSTORE_CONNECTION_STRING'];
    if (!connectionString) {
      throw new EventStoreInputError(
        'INVALID_OPTIONS',
        'COUP_EVENT_STORE=eventstoredb needs EVENTSTORE_CONNECTION_STRING (e.g. esdb://localhost:2113?tls=false)',
      );
    }
    return { kind, connectionString };
  }
  throw new EventStoreInputError(
    'INVALID_OPTIONS',
    `COUP_EVENT_STORE must be 'sqlite' or 'eventstoredb' (got '${kind}')`,
  );
}
