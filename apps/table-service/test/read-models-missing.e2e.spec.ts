/**
 * Read routes over read models without the tables they read (PostgreSQL the projection process has not built, or
 * not the analysts' model; a SQLite file whose tables were dropped): each answers 503 READ_MODELS_UNAVAILABLE, or
 * what it knows, and never a 500; nothing is logged or counted as an unexpected error. Exports were a 500 on both
 * (their stream failed), and on SQLite every route.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CHECKPOINTS, PROJECTIONS, PostgresReadModelStorage } from '@coup/projections';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the PostgreSQL test server is a test tool outside every project
import { startTestPostgres, type TestPostgres } from '../../../tools/postgres';
import { type Harness, startService } from './harness';

jest.setTimeout(60_000);

let pg: TestPostgres;

beforeAll(async () => {
  pg = await startTestPostgres();
});

afterAll(async () => {
  await pg?.stop();
});

/** The routes that read the analysts' tables. */
const ANALYSTS = [
  '/api/exports/coups?gamingDay=2026-12-01',
  '/api/exports/bets?gamingDay=2026-12-01&format=parquet',
  '/api/exports/amendments?gamingDay=2026-12-01&format=csv',
  '/api/reports/hold',
  '/api/reports/bet-types?gamingDay=2026-12-01',
  '/api/reports/dealer-pace',
  '/api/reports/player-rating?format=csv',
  '/api/reports/anomalies',
  '/api/stats?gamingDayFrom=2026-12-01&gamingDayTo=2026-12-02',
];
/** The other read routes. */
const OTHERS = [
  '/api/stats',
  '/api/stats/bets',
  '/api/tables/T1/hands',
  '/api/tables/T1/hands?gamingDay=2026-12-01',
  '/api/tables/T1/hands/1',
  '/api/tables/T1/roads',
  '/api/players/p1/ledger',
  '/api/edge/favourable',
  '/api/edge/report',
];

/** The requests answered 500 and logged as unexpected so far. */
async function unexpectedErrors(h: Harness): Promise<number> {
  const metrics = (await h.api('GET', '/metrics', { token: null })).body as string;
  return Number(metrics.match(/^coup_unexpected_errors_total\{source="request"\} (\d+)$/m)?.[1] ?? 0);
}

async function answers(h: Harness, paths: readonly string[]) {
  const out = [];
  for (const path of paths) {
    const res = await h.api('GET', path, { token: h.token('analyst') });
    out.push({ path, status: res.status, code: res.body?.code });
  }
  return out;
}

const unavailable = (path: string) => ({ path, status: 503, code: 'READ_MODELS_UNAVAILABLE' });

test('a database the projection process has not built: every read route answers 503 READ_MODELS_UNAVAILABLE', async () => {
  const h = await startService({ COUP_READ_MODELS: await pg.createDatabase(), COUP_PROJECTIONS: 'off' });
  try {
    const before = await unexpectedErrors(h);
    expect(await answers(h, [...ANALYSTS, ...OTHERS])).toEqual([...ANALYSTS, ...OTHERS].map(unavailable));
    const res = await h.api('GET', ANALYSTS[0]!, { token: h.token('analyst') });
    expect(res.body.message).toMatch(/not built yet/);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(await unexpectedErrors(h)).toBe(before);
  } finally {
    await h.close();
  }
});

test("read models without the analysts' model: its routes answer 503, the others what they hold", async () => {
  const url = await pg.createDatabase();
  const storage = new PostgresReadModelStorage(url);
  await storage.ensure(PROJECTIONS.filter((p) => p.name !== 'analyst'));
  await storage.close();
  const h = await startService({ COUP_READ_MODELS: url, COUP_PROJECTIONS: 'off' });
  try {
    const before = await unexpectedErrors(h);
    expect(await answers(h, ANALYSTS)).toEqual(ANALYSTS.map(unavailable));
    for (const answer of await answers(h, OTHERS)) expect(answer.status).toBeLessThan(500);
    expect(await unexpectedErrors(h)).toBe(before);
  } finally {
    await h.close();
  }
});

test('SQLite read models whose tables were dropped: every read route answers 503 READ_MODELS_UNAVAILABLE', async () => {
  const h = await startService({ COUP_PROJECTIONS: 'off' });
  try {
    const db = new Database(join(h.dataDir, 'read-models.sqlite'));
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name <> ?`)
      .pluck()
      .all(CHECKPOINTS) as string[];
    for (const t of tables) db.exec(`DROP TABLE "${t}"`);
    db.close();
    const before = await unexpectedErrors(h);
    expect(await answers(h, [...ANALYSTS, ...OTHERS])).toEqual([...ANALYSTS, ...OTHERS].map(unavailable));
    expect(await unexpectedErrors(h)).toBe(before);
  } finally {
    await h.close();
  }
});
