/**
 * A service started with COUP_READ_MODELS=postgres://... (and COUP_PROJECTIONS=off: another process keeps those
 * read models) answers its queries from PostgreSQL. The database is filled by copying the golden corpus's SQLite
 * read models into it; the service's own store and data folder are empty, so every table, hand, statistic and
 * ledger it answers comes from PostgreSQL, and must equal what the same queries answer from the SQLite file.
 * COUP_READ_MODELS may also name another SQLite file: the projections fold into it and the queries read it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { PROJECTIONS, ReadModels, pgTypes } from '@coup/projections';
import * as testing from '@coup/projections/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the PostgreSQL test server is a test tool outside every project
import { startTestPostgres, type TestPostgres } from '../../../tools/postgres';
import { type Harness, startService } from './harness';

jest.setTimeout(60_000);

let pg: TestPostgres;
let h: Harness;
let local: ReadModels;
let tableId: string;

beforeAll(async () => {
  const starting = startTestPostgres(); // its own process: it starts while this one folds
  const events = testing.goldenCorpus();
  tableId = events[0]!.streamName.slice('table-'.length);
  const db = new Database(':memory:');
  testing.foldCorpus(db, events);
  local = ReadModels.sqlite(db);
  pg = await starting;
  const url = await pg.createDatabase();
  const pool = new Pool({ connectionString: url, types: pgTypes });
  try {
    await testing.copyReadModelsToPostgres(db, pool, PROJECTIONS);
  } finally {
    await pool.end();
  }
  h = await startService({ COUP_READ_MODELS: url, COUP_PROJECTIONS: 'off' });
});

afterAll(async () => {
  await h?.close();
  await pg?.stop();
});

const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

async function get(path: string): Promise<unknown> {
  const res = await h.api('GET', path, { token: h.token('compliance') });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.body;
}

test('hands, one hand, roads, stats and a ledger come from PostgreSQL, equal to the SQLite answers', async () => {
  const page = await local.hands(tableId, { order: 'asc' }, { limit: 20 });
  expect(page.items.length).toBe(20);
  expect(await get(`/api/tables/${tableId}/hands?order=asc&limit=20`)).toEqual(json(page));
  const next = await local.hands(tableId, { order: 'asc' }, { limit: 20, cursor: page.nextCursor! });
  expect(await get(`/api/tables/${tableId}/hands?order=asc&limit=20&cursor=${page.nextCursor}`)).toEqual(
    json(next),
  );
  expect(await get(`/api/tables/${tableId}/hands/3`)).toEqual(json(await local.hand(tableId, 3)));
  expect(await get(`/api/tables/${tableId}/roads`)).toEqual(json(await local.roads(tableId)));
  expect(await get(`/api/stats?tableId=${tableId}`)).toEqual(json(await local.stats({ tableId })));
  expect(await get('/api/stats?from=2025-01-02')).toEqual(json(await local.stats({ from: '2025-01-02' })));
  expect(await get('/api/stats/bets')).toEqual(json(await local.betStats()));
  expect(await get('/api/edge/report?limit=5')).toEqual(json(await local.edgeReport({}, { limit: 5 })));
  const ledger = await local.ledger('p1', { limit: 10 });
  expect(ledger.entries.length).toBe(10);
  expect(await get('/api/players/p1/ledger?limit=10')).toEqual(json(ledger));
});

test('a bad query is refused as from SQLite (400, its code and field)', async () => {
  const res = await h.api('GET', `/api/tables/${tableId}/hands?cursor=nonsense`, {
    token: h.token('compliance'),
  });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'INVALID_CURSOR', details: { field: 'cursor' } });
  const unknown = await h.api('GET', '/api/tables/nobody/roads', { token: h.token('compliance') });
  expect(unknown.body).toMatchObject({ statusCode: 404, code: 'UNKNOWN_TABLE' });
});

test('COUP_READ_MODELS as a SQLite path: the projections fold into that file and the queries read it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coup-rm-elsewhere-'));
  const file = join(dir, 'elsewhere.sqlite');
  const s = await startService({
    COUP_READ_MODELS: file,
    COUP_PROJECTIONS: 'in-process',
    COUP_PROJECTION_COMMIT_MS: '0',
  });
  try {
    expect((await s.api('POST', '/api/tables', { body: { tableId: 'E1' } })).status).toBe(201);
    expect(
      (await s.api('POST', '/api/tables/E1/players/p9/buy-in', { body: { amount: 5_000 } })).status,
    ).toBe(200);
    let ledger = await s.api('GET', '/api/players/p9/ledger');
    for (let i = 0; i < 250 && ledger.body.entries?.length !== 1; i++) {
      await sleep(20);
      ledger = await s.api('GET', '/api/players/p9/ledger');
    }
    expect(ledger.body.entries).toEqual([expect.objectContaining({ kind: 'buy-in', amount: 5_000 })]);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(join(s.dataDir, 'read-models.sqlite'))).toBe(false);
    const rows = new Database(file, { readonly: true });
    try {
      expect(rows.prepare('SELECT count(*) AS n FROM pl_entries').get()).toEqual({ n: 1 });
    } finally {
      rows.close();
    }
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
