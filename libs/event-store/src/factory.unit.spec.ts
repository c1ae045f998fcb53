import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreInputError, EventStoreUnavailableError } from './errors';
import { EventStoreDbEventStore } from './eventstoredb';
import { createEventStore, eventStoreConfigFromEnv } from './factory';
import { MemoryEventStore } from './memory';
import { SqliteEventStore } from './sqlite';

describe('configuration', () => {
  it('defaults to the SQLite file in the data folder', () => {
    expect(eventStoreConfigFromEnv({})).toEqual({ kind: 'sqlite', file: join('data', 'events.sqlite') });
    expect(eventStoreConfigFromEnv({ COUP_DATA_DIR: '/var/lib/coup' })).toEqual({
      kind: 'sqlite',
      file: '/var/lib/coup/events.sqlite',
    });
  });

  it('selects EventStoreDB with its connection string, and says what is missing', () => {
    expect(
      eventStoreConfigFromEnv({
        COUP_EVENT_STORE: 'eventstoredb',
        EVENTSTORE_CONNECTION_STRING: 'esdb://h:2113?tls=false',
      }),
    ).toEqual({
      kind: 'eventstoredb',
      connectionString: 'esdb://h:2113?tls=false',
    });
    expect(() => eventStoreConfigFromEnv({ COUP_EVENT_STORE: 'eventstoredb' })).toThrow(
      /EVENTSTORE_CONNECTION_STRING/,
    );
    expect(() => eventStoreConfigFromEnv({ COUP_EVENT_STORE: 'postgres' })).toThrow(EventStoreInputError);
  });

  it('creates each adapter; EventStoreDB connects lazily and refuses a malformed connection string', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coup-es-factory-'));
    try {
      const memory = createEventStore({ kind: 'memory' });
      expect(memory).toBeInstanceOf(MemoryEventStore);
      const sqlite = createEventStore({ kind: 'sqlite', file: join(dir, 'nested', 'events.sqlite') });
      expect(sqlite).toBeInstanceOf(SqliteEventStore);
      const esdb = createEventStore({
        kind: 'eventstoredb',
        connectionString: 'esdb://127.0.0.1:1?tls=false',
      });
      expect(esdb).toBeInstanceOf(EventStoreDbEventStore);
      expect(() => createEventStore({ kind: 'eventstoredb', connectionString: 'http://x' })).toThrow(
        EventStoreUnavailableError,
      );
      await Promise.all([memory.close(), sqlite.close(), esdb.close()]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
