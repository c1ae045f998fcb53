/**
 * The table list on EventStoreDB (issue 20, finding 3): a restart resumes from the catalog file, checking the event
 * at the saved position without computing a position (EventStoreDB's are byte offsets, and it reads $all only from
 * where an event starts), so it reads only the events appended since, as on SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDbEventStore } from '@coup/event-store';
import * as testing from '@coup/projections/testing';
import { TableCatalog } from '../src/tables/table-catalog';
import { esdbForTests, type EsdbForTests } from './esdb-standin';

jest.setTimeout(60_000);

let esdb: EsdbForTests;
let dir: string;
beforeAll(async () => {
  esdb = await esdbForTests();
  dir = mkdtempSync(join(tmpdir(), 'coup-esdb-catalog-'));
});
afterAll(async () => {
  await esdb?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a restart resumes from the saved position and reads only the events since', async () => {
  const store = new EventStoreDbEventStore({ connectionString: esdb.connectionString });
  const suffix = Math.random().toString(36).slice(2, 8);
  const open = async (tableId: string) => {
    const driver = new testing.TableDriver({ tableId, rules: {}, players: 2, seed: 7 });
    await testing.appendTable(store, tableId, driver.open());
  };
  const indexFile = join(dir, 'catalog.sqlite');
  try {
    await open(`A${suffix}`);
    const first = new TableCatalog(store, { indexFile });
    await first.start();
    await first.stop();
    const saved = first.position;
    expect(saved).not.toBeNull();
    await open(`B${suffix}`);
    const second = new TableCatalog(store, { indexFile });
    await second.start();
    await second.stop();
    expect(second.startStats.resumedFrom).toBe(saved);
    expect(second.startStats.eventsRead).toBeLessThan(10);
    expect(second.list().map((t) => t.tableId)).toEqual(expect.arrayContaining([`A${suffix}`, `B${suffix}`]));
  } finally {
    await store.close();
  }
});
