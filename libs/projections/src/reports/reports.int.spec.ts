/**
 * The reports on SQLite and PostgreSQL: a history with side bets, box commission, voids and corrections folded
 * into SQLite, copied into a real PostgreSQL, the views created on both: every view and every REST query answer
 * the same on both, and the REST queries with no filter answer what the views hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { analystProjection, gamingDayConfig } from '../read-models/analyst';
import type { Db } from '../runner/db';
import { type SqlReader, pgTypes, postgresReader, sqliteReader } from '../sql/reader';
import { copyReadModelsToPostgres } from '../testing/pg-copy';
import { type TestPostgres, startTestPostgres } from '../testing/postgres';
import {
  REPORT_VIEWS,
  anomalyReport,
  betTypeReport,
  createReportViews,
  holdReport,
  paceReport,
  ratingReport,
} from './index';
import { ANALYST_DOC_START } from './analyst-doc';
import { foldHistory, reportsHistory } from './testing/corpus';
import { type Row, camel, rowDifference } from './testing/same-rows';

jest.setTimeout(120_000);

const LONDON = gamingDayConfig({
  gamingDay: '06:00 Europe/London',
  shifts: 'day=06:00,swing=14:00,grave=22:00',
});
const projection = analystProjection(LONDON);

const expectSame = (a: readonly Row[], b: readonly Row[], what: string): void =>
  expect({ what, difference: rowDifference(a, b) }).toEqual({ what, difference: null });

/**
 * The fact tables' text columns in PostgreSQL under a language's collation (ICU English), as a database created
 * with a language's locale has them: the answers must still come in SQLite's (byte) order.
 */
async function languageCollation(p: Pool): Promise<void> {
  const found = await p.query(`SELECT 1 FROM pg_collation WHERE collname = 'en-x-icu'`);
  if (found.rowCount === 0)
    throw new Error('this PostgreSQL has no ICU collation en-x-icu: build it with ICU');
  for (const def of projection.tables.filter((t) => t.name.startsWith('an_fact_'))) {
    for (const c of def.columns.filter((col) => col.type === 'TEXT'))
      await p.query(`ALTER TABLE "${def.name}" ALTER COLUMN "${c.name}" TYPE TEXT COLLATE "en-x-icu"`);
  }
}

let pg: TestPostgres;
let pool: Pool;
let db: Db;
let readers: { sqlite: SqlReader; postgres: SqlReader };

beforeAll(async () => {
  pg = await startTestPostgres();
  pool = new Pool({ connectionString: await pg.createDatabase(), types: pgTypes });
  db = await foldHistory(reportsHistory(), [projection]);
  await copyReadModelsToPostgres(db, pool, [projection]);
  await languageCollation(pool);
  await createReportViews((sql) => db.exec(sql));
  await createReportViews((sql) => pool.query(sql));
  readers = { sqlite: sqliteReader(db), postgres: postgresReader(pool) };
});
afterAll(async () => {
  await pool?.end();
  await pg?.stop();
  db?.close();
});

test('the history has what the reports are about: side bets, voids, corrections, several dealers, days and shifts', async () => {
  const one = async (sql: string) => (await readers.sqlite.all<Row>(sql)).map((r) => Object.values(r)[0]);
  expect(await one(`SELECT DISTINCT kind FROM an_fact_amendments ORDER BY kind`)).toEqual([
    'card-correction',
    'round-void',
    'settled-correction',
    'settled-void',
  ]);
  expect(await one(`SELECT DISTINCT gaming_day FROM an_fact_coups ORDER BY 1`)).toEqual([
    '2026-03-28',
    '2026-03-29',
  ]);
  expect(await one(`SELECT DISTINCT shift FROM an_fact_coups ORDER BY 1`)).toEqual(['day', 'grave', 'swing']);
  expect(await one(`SELECT DISTINCT dealer_id FROM an_fact_coups ORDER BY 1`)).toEqual([
    'Zoe',
    'amy',
    'dealer-1',
  ]);
  // PostgreSQL sorts the same ids in another order by the columns' own collation
  const pgOrder = await readers.postgres.all<Row>(`SELECT DISTINCT dealer_id FROM an_fact_coups ORDER BY 1`);
  expect(pgOrder.map((r) => r['dealer_id'])).toEqual(['amy', 'dealer-1', 'Zoe']);
  expect((await one(`SELECT COUNT(DISTINCT bet_type) FROM an_fact_bets`))[0]).toBeGreaterThanOrEqual(9);
  expect(await one(`SELECT hours FROM an_dim_gaming_days ORDER BY gaming_day`)).toEqual([23, 24]);
});

describe.each(REPORT_VIEWS.map((v) => v.name))('view %s', (view) => {
  test('answers the same on SQLite and PostgreSQL', async () => {
    const lite = await readers.sqlite.all<Row>(`SELECT * FROM "${view}"`);
    const post = await readers.postgres.all<Row>(`SELECT * FROM "${view}"`);
    expect(lite.length).toBeGreaterThan(0);
    expectSame(lite, post, view);
  });
});

describe('the REST queries', () => {
  test('with no filter answer what the views hold', async () => {
    const view = async (name: string) => (await readers.sqlite.all<Row>(`SELECT * FROM ${name}`)).map(camel);
    expectSame(
      (await holdReport(readers.sqlite)).rows as unknown as Row[],
      await view('an_report_hold'),
      'hold',
    );
    expectSame(
      (await betTypeReport(readers.sqlite)).rows as unknown as Row[],
      await view('an_report_bet_types'),
      'bet types',
    );
    expectSame(
      (await paceReport(readers.sqlite)).rows as unknown as Row[],
      await view('an_report_dealer_pace'),
      'pace',
    );
    expectSame(
      (await ratingReport(readers.sqlite)).rows as unknown as Row[],
      await view('an_report_player_rating'),
      'rating',
    );
    const anomalies = (await anomalyReport(readers.sqlite, { threshold: 3 })).rows.map((r) => {
      const { flagged: _flagged, ...rest } = r;
      return rest as Row;
    });
    expectSame(anomalies, await view('an_report_anomalies'), 'anomalies');
  });

  const filters = [
    {},
    { gamingDay: '2026-03-29' },
    { from: '2026-03-28', to: '2026-03-28', shift: 'grave' },
    { since: '2026-03-28T23:00:00Z', until: '2026-03-29T03:30:00Z', tableId: 'L1' },
    { tableId: 'n1', shift: 'day' },
    { hour: 2, dealer: 'dealer-1' },
  ];

  test.each(filters)('answer the same rows in the same order on both, filtered by %j', async (filter) => {
    for (const [name, f] of [
      ['hold', (r: SqlReader) => holdReport(r, { filter })],
      ['hold by hour', (r: SqlReader) => holdReport(r, { filter, groupBy: ['gamingDay', 'hour'] })],
      ['hold overall', (r: SqlReader) => holdReport(r, { filter, groupBy: [] })],
      ['bet types', (r: SqlReader) => betTypeReport(r, { filter, groupBy: ['table', 'betType'] })],
      ['pace', (r: SqlReader) => paceReport(r, { filter })],
      ['rating', (r: SqlReader) => ratingReport(r, { filter })],
      ['anomalies', (r: SqlReader) => anomalyReport(r, { filter, threshold: 1 })],
    ] as const) {
      const lite = (await f(readers.sqlite)).rows as unknown as Row[];
      const post = (await f(readers.postgres)).rows as unknown as Row[];
      expectSame(lite, post, name);
      // the same order too (the text columns in byte order, NULLs last)
      expect(
        post.map((r) => JSON.stringify(Object.values(r).filter((v) => typeof v === 'string' || v === null))),
      ).toEqual(
        lite.map((r) => JSON.stringify(Object.values(r).filter((v) => typeof v === 'string' || v === null))),
      );
    }
  });

  test('the table-level figures add up to the facts', async () => {
    const [hold] = (await holdReport(readers.postgres, { groupBy: [] })).rows;
    const sums = await readers.postgres.get<Row>(
      `SELECT SUM(stake) AS handle, SUM(win) AS win FROM an_fact_bets WHERE status <> 'voided'`,
    );
    const drop = await readers.postgres.get<Row>(
      `SELECT SUM(amount) AS d FROM an_fact_cash WHERE kind = 'buy-in'`,
    );
    expect(hold).toMatchObject({ handle: sums?.['handle'], win: sums?.['win'], dropAmount: drop?.['d'] });
    const amendments = await readers.postgres.get<Row>(`SELECT COUNT(*) AS n FROM an_fact_amendments`);
    expect(hold!.voids + hold!.corrections).toBe(amendments?.['n']);
  });
});

test("the analysts' page's example queries run on both and answer the same", async () => {
  const page = readFileSync(join(__dirname, '../../../../docs/analyst-schema.md'), 'utf8');
  const written = page.slice(0, page.indexOf(ANALYST_DOC_START));
  const examples = [...written.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  expect(examples.length).toBeGreaterThanOrEqual(7);
  let answered = 0;
  for (const sql of examples) {
    const lite = await readers.sqlite.all<Row>(sql);
    expectSame(lite, await readers.postgres.all<Row>(sql), sql);
    answered += lite.length > 0 ? 1 : 0;
  }
  // the examples name days, shifts and a player of this history: most of them find rows
  expect(answered).toBeGreaterThanOrEqual(5);
});
