/**
 * The PostgreSQL rebuild is blue-green: readers querying while a rebuild runs get the old tables or the rebuilt
 * ones, whole, never an empty or half table nor an error; a reader arriving while the swap waits for a lock gets
 * the rebuilt table once the swap commits; and a live runner folding beside the rebuild resumes from the rebuilt
 * checkpoints (the swap and its commits lock the checkpoint rows in the same order: neither deadlocks). And a
 * runner whose database is not there yet keeps trying, and folds once it is.
 */
import { MemoryEventStore } from '@coup/event-store';
import { Client } from 'pg';
import { PROJECTIONS } from '../../read-models';
import { TableDriver } from '../../testing/driver';
import { startTestPostgres, type TestPostgres, withDatabase } from '../../testing/postgres';
import { appendTable } from '../../testing/store';
import { dumpTables, eventsStore } from '../../testing/storage-contract';
import { ProjectionRunner } from '../runner';
import { SqliteReadModelStorage } from '../sqlite-storage';
import { PostgresReadModelStorage } from './storage';

jest.setTimeout(60_000);

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startTestPostgres();
});
afterAll(() => pg?.stop());

/** A table's hands as one signature (count and a digest): equal answers mean equal tables. */
const SIGNATURE = `SELECT count(*) AS n, md5(coalesce(string_agg(round_no || ':' || outcome, ',' ORDER BY round_no), '')) AS digest FROM hh_hands WHERE table_id = 'R1'`;

/** Polls until `sql` answers a row with `n` > 0 (a state of the server the test waits for), or fails after 20 s. */
async function until(client: Client, sql: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    if (Number((await client.query<{ n: string }>(sql)).rows[0]?.n) > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never: ${sql}`);
}

const waitingOnLock = (like: string, notLike = '') =>
  `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '${like}'${notLike ? ` AND query NOT LIKE '${notLike}'` : ''}`;

test('readers see the old or the rebuilt table, whole; one that waited for the swap reads the rebuilt one', async () => {
  const store = new MemoryEventStore();
  const driver = new TableDriver({ tableId: 'R1', voidRate: 0.1, seed: 5 });
  await appendTable(store, 'R1', driver.open());
  for (let i = 0; i < 60; i++) await appendTable(store, 'R1', driver.playRound());
  const url = await pg.createDatabase('coup_bluegreen');
  const storage = new PostgresReadModelStorage(url);
  const runner = new ProjectionRunner({ store, storage });
  await runner.catchUp();
  const reader = new Client({ connectionString: url });
  const holder = new Client({ connectionString: url });
  const watcher = new Client({ connectionString: url });
  const poller = new Client({ connectionString: url });
  const clients = [reader, holder, watcher, poller];
  await Promise.all(clients.map((c) => c.connect()));
  const signature = async (c: Client) => JSON.stringify((await c.query(SIGNATURE)).rows[0]);
  const rebuilt = await signature(reader);
  await storage.pool.query(`UPDATE hh_hands SET outcome = 'tampered' WHERE round_no % 2 = 0`);
  const old = await signature(reader);
  expect(old).not.toBe(rebuilt);

  // readers all along (their own connection), and one query holding the live table until released
  const seen: string[] = [];
  let reading = true;
  const loop = (async () => {
    while (reading) seen.push(await signature(watcher));
  })();
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM hh_hands LIMIT 1');
  const rebuild = storage.rebuild({ store, names: ['hand-history'], swapLockTimeoutMs: 30_000 });
  await until(poller, waitingOnLock('%RENAME%'));
  // a reader arriving now queues behind the swap
  const late = signature(reader);
  await until(poller, waitingOnLock('%hh_hands%', '%RENAME%'));
  await holder.query('COMMIT');
  expect(await late).toBe(rebuilt);
  await rebuild;
  reading = false;
  await loop;
  expect(seen.length).toBeGreaterThan(5);
  expect(seen.every((s) => s === old || s === rebuilt)).toBe(true);
  expect(seen[0]).toBe(old);
  expect(seen[seen.length - 1]).toBe(rebuilt);
  await Promise.all(clients.map((c) => c.end()));
  await runner.close();
  await storage.close();
});

test('a live runner folding beside a rebuild resumes from the rebuilt checkpoints; the tables equal a fold from scratch', async () => {
  const store = new MemoryEventStore();
  const drivers = ['R1', 'R2'].map((tableId, i) => new TableDriver({ tableId, seed: 7 + i, voidRate: 0.05 }));
  for (const d of drivers) await appendTable(store, d.options.tableId, d.open());
  const url = await pg.createDatabase('coup_beside');
  const runner = new ProjectionRunner({ store, readModels: url, maxBatch: 20 });
  runner.start();
  const play = async (rounds: number) => {
    let last = 0n;
    for (let i = 0; i < rounds; i++)
      for (const d of drivers) last = (await appendTable(store, d.options.tableId, d.playRound())).position;
    return last;
  };
  await runner.waitFor(await play(10));
  const rebuilding = new PostgresReadModelStorage(url);
  const [, last] = await Promise.all([rebuilding.rebuild({ store, page: 50, commitEvery: 100 }), play(15)]);
  await runner.waitFor(last, 30_000);
  expect((await runner.status()).projections.map((p) => p.checkpoint)).toEqual(
    PROJECTIONS.map(() => Number(last)),
  );
  const scratch = new SqliteReadModelStorage(':memory:');
  const events = [];
  for await (const e of store.readAll()) events.push(e);
  const reference = new ProjectionRunner({ store: eventsStore(events), storage: scratch });
  await reference.catchUp();
  expect(await dumpTables(runner.storage.reader, PROJECTIONS)).toEqual(
    await dumpTables(scratch.reader, PROJECTIONS),
  );
  await reference.close();
  await scratch.close();
  await rebuilding.close();
  await runner.close();
});

test('a runner started before its database exists keeps trying, then folds everything', async () => {
  const store = new MemoryEventStore();
  const d = new TableDriver({ tableId: 'R1', seed: 9 });
  await appendTable(store, 'R1', d.open());
  const name = `coup_later_${process.pid}`;
  const runner = new ProjectionRunner({ store, readModels: withDatabase(pg.adminUrl, name) });
  runner.start();
  for (let i = 0; i < 200 && (await runner.status()).lastError === null; i++)
    await new Promise((r) => setTimeout(r, 20));
  expect((await runner.status()).lastError).toMatch(new RegExp(name));
  const admin = new Client({ connectionString: pg.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const last = await appendTable(store, 'R1', d.playRound());
  await runner.waitFor(last.position, 20_000);
  expect((await runner.status()).projections.every((p) => p.lag === 0)).toBe(true);
  await runner.close();
});
