/**
 * One query code, two dialects: the golden corpus folded into SQLite, its rows copied into a real PostgreSQL, and
 * every public ReadModels query asked of both (filters, pages, cursors; bad input too) must answer the same, to
 * the byte. The PostgreSQL database sorts text by a language's rules (ICU en-US), as production databases often
 * do, so a query that leans on SQLite's byte order shows here.
 */
import Database from 'better-sqlite3';
import { Client, Pool } from 'pg';
import { PROJECTIONS } from '../read-models';
import { pgTypes } from '../sql/reader';
import { foldCorpus, goldenCorpus } from '../testing/corpus';
import { copyReadModelsToPostgres } from '../testing/pg-copy';
import { startTestPostgres, type TestPostgres, withDatabase } from '../testing/postgres';
import { queryAnswers } from '../testing/query-answers';
import { QueryError, ReadModels } from './read-models';

jest.setTimeout(60_000);

let pg: TestPostgres;
let sqlite: ReadModels;
let postgres: ReadModels;
let tableIds: string[];

/** A database of its own whose default collation is ICU's en-US (there 'online-1' sorts before 'T1'). */
async function languageSortedDatabase(server: TestPostgres): Promise<string> {
  const name = `coup_dialects_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`,
    );
  } finally {
    await admin.end();
  }
  return withDatabase(server.adminUrl, name);
}

beforeAll(async () => {
  const starting = startTestPostgres(); // its own process: it starts while this one folds
  const events = goldenCorpus();
  tableIds = [...new Set(events.map((e) => e.streamName.slice('table-'.length)))];
  const db = new Database(':memory:');
  foldCorpus(db, events);
  pg = await starting;
  const url = await languageSortedDatabase(pg);
  const pool = new Pool({ connectionString: url, types: pgTypes });
  try {
    await copyReadModelsToPostgres(db, pool, PROJECTIONS);
  } finally {
    await pool.end();
  }
  sqlite = ReadModels.sqlite(db);
  postgres = await ReadModels.open(url);
});

afterAll(async () => {
  await postgres?.close();
  await pg?.stop();
});

/** Both answers, each as what it resolved to or the error it was refused with (code, field, message). */
async function both<T>(ask: (rm: ReadModels) => Promise<T>): Promise<[unknown, unknown]> {
  const settle = (rm: ReadModels) =>
    ask(rm).then(
      (v) => ({ answer: v }),
      (e: unknown) =>
        e instanceof QueryError
          ? { refused: { code: e.code, field: e.field, message: e.message } }
          : { failed: String(e) },
    );
  return [await settle(sqlite), await settle(postgres)];
}

test('the corpus: every query of the golden set answers the same from both, to the byte', async () => {
  const [fromSqlite, fromPostgres] = await Promise.all([
    queryAnswers(sqlite, tableIds),
    queryAnswers(postgres, tableIds),
  ]);
  for (const kind of Object.keys(fromSqlite) as (keyof typeof fromSqlite)[]) {
    expect({ kind, answers: fromPostgres[kind] }).toEqual({ kind, answers: fromSqlite[kind] });
  }
  expect(JSON.stringify(fromPostgres)).toBe(JSON.stringify(fromSqlite));
  // the set means something: hands, alerts and ledgers with several pages
  expect(fromSqlite.hand.length).toBeGreaterThan(1_000);
  expect(JSON.stringify(fromSqlite.edge)).toContain('"nextCursor":"');
});

test('more filters: ranges, one player, unknown tables, shoes, hands and players', async () => {
  const [t, other] = tableIds as [string, string];
  const asks: ((rm: ReadModels) => Promise<unknown>)[] = [
    (rm) => rm.hands(t, { player: 'p2', order: 'asc' }, { limit: 3 }),
    (rm) => rm.hands(t, { outcome: 'tie', roundFrom: 2 }),
    (rm) => rm.hands(other, { from: '2025-01-01T10:00:00+01:00', outcome: 'player' }, { limit: 500 }),
    (rm) => rm.stats({ tableId: t, from: '2025-01-01', to: '2025-01-01' }),
    (rm) => rm.stats({ tableId: t, from: '2025-01-02' }),
    (rm) => rm.betStats({ tableId: other, to: '2025-01-01' }),
    (rm) => rm.edgeReport({ to: '2025-01-01' }, { limit: 2 }),
    (rm) => rm.ledger('p1', { tableId: other, limit: 3 }),
    (rm) => rm.table('nobody'),
    (rm) => rm.hands('nobody'),
    (rm) => rm.hand(t, 99_999),
    (rm) => rm.stateBefore(t, 99_999),
    (rm) => rm.shoe(t, 999),
    (rm) => rm.roads(t, 999),
    (rm) => rm.roads('nobody'),
    (rm) => rm.stats({ tableId: 'nobody' }),
    (rm) => rm.edgeNow('nobody'),
    (rm) => rm.ledger('nobody'),
  ];
  for (const [i, ask] of asks.entries()) {
    const [a, b] = await both(ask);
    expect({ i, answer: b }).toEqual({ i, answer: a });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  }
});

test('bad input is refused the same way by both (QueryError code, field and message)', async () => {
  const t = tableIds[0] as string;
  const bad: ((rm: ReadModels) => Promise<unknown>)[] = [
    (rm) => rm.hands(t, { from: 'yesterday' }),
    (rm) => rm.hands(t, { outcome: 'draw' as never }),
    (rm) => rm.hands(t, {}, { cursor: 'not-a-cursor' }),
    (rm) => rm.hands(t, {}, { limit: 501 }),
    (rm) => rm.hand(t, 0),
    (rm) => rm.roads(t, -1),
    (rm) => rm.stats({ from: '2025-1-1' }),
    (rm) => rm.betStats({ tableId: '' }),
    (rm) => rm.edgeReport({ spot: 'dragon' }),
    (rm) => rm.edgeReport({}, { cursor: 'eyJwIjoxfQ' }),
    (rm) => rm.edgeNow('x'.repeat(65)),
    (rm) => rm.ledger(''),
    (rm) => rm.ledger('p1', { cursor: 'bad' }),
  ];
  for (const [i, ask] of bad.entries()) {
    const [a, b] = await both(ask);
    expect({ i, refused: (a as { refused?: unknown }).refused !== undefined }).toEqual({ i, refused: true });
    expect({ i, answer: b }).toEqual({ i, answer: a });
  }
});

test('a database whose projections are not created yet: no table view; the edge monitor says it has no tables, never "no alert"', async () => {
  const empty = await ReadModels.open(await pg.createDatabase());
  try {
    expect(await empty.table('T1')).toBeNull();
    // the missing table's own error, which the service answers as 503 READ_MODELS_UNAVAILABLE
    await expect(empty.edgeNow()).rejects.toMatchObject({ code: '42P01' });
    await expect(empty.edgeReport({}, {})).rejects.toMatchObject({ code: '42P01' });
  } finally {
    await empty.close();
  }
});
