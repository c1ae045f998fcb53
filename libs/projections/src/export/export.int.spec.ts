/**
 * The exports against the rows they export: a night of three tables folded into SQLite, one gaming day exported
 * as CSV (read back by an RFC 4180 reader) and as Parquet (read back by hyparquet, another library than the
 * writer), compared row by row with the SQL rows: exact cents as INT64, doubles as DOUBLE, text, NULLs. Small
 * pages and row groups give the same rows; SQLite pages by the primary key (no sort, no day index scan); the same
 * export from PostgreSQL, whose text sorts by ICU en-US, gives the same bytes.
 */
import { gunzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { Client, Pool } from 'pg';
import type { TableDef } from '../read-models/kernel/types';
import { QueryError } from '../read/query-kit';
import {
  type SqlParam,
  type SqlReader,
  type SqlRow,
  pgTypes,
  postgresReader,
  sqliteReader,
} from '../sql/reader';
import { copyReadModelsToPostgres } from '../testing/pg-copy';
import { type TestPostgres, startTestPostgres, withDatabase } from '../testing/postgres';
import {
  EXPORT_TABLE_NAMES,
  type ExportRequest,
  ExportUnavailableError,
  exportFacts,
  exportTableDef,
  factPages,
} from './index';
import { exportProjection, foldExportHistory, readCsv } from './testing';

jest.setTimeout(60_000);

const DAY = '2026-11-30';
let db: Database.Database;
let lite: SqlReader;
let pg: TestPostgres;
let pool: Pool;

async function bytesOf(sql: SqlReader, request: ExportRequest): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of exportFacts(sql, request)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The day's rows as SQL answers them, in the key's order (SQLite sorts text by bytes). */
function sqlRows(def: TableDef, day = DAY): SqlRow[] {
  const order = def.primaryKey.map((c) => `"${c}"`).join(', ');
  return db
    .prepare(`SELECT * FROM "${def.name}" WHERE gaming_day = ? ORDER BY ${order}`)
    .all(day) as SqlRow[];
}

const arrayBuffer = (bytes: Buffer): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;

const metadataOf = (bytes: Buffer) => parquetMetadata(arrayBuffer(bytes));

function parquetRows(bytes: Buffer): Promise<Record<string, unknown>[]> {
  const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
  return parquetReadObjects({ file: arrayBuffer(bytes), compressors });
}

beforeAll(async () => {
  const starting = startTestPostgres(); // its own process: it starts while this one folds
  db = await foldExportHistory();
  lite = sqliteReader(db);
  pg = await starting;
  // a database whose text sorts by a language's rules, as production databases often do
  const name = `coup_export_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: pg.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`);
  await admin.end();
  pool = new Pool({ connectionString: withDatabase(pg.adminUrl, name), types: pgTypes });
  await copyReadModelsToPostgres(db, pool, [exportProjection]);
});
afterAll(async () => {
  await pool?.end();
  await pg?.stop();
  db?.close();
});

test('the day holds what an export must carry: side bets, voids, corrections, NULLs, two days, ids out of language order', () => {
  const bets = sqlRows(exportTableDef('bets'));
  const values = (rows: SqlRow[], col: string) => [...new Set(rows.map((r) => r[col]))].sort();
  expect(values(bets, 'status')).toEqual(['corrected', 'settled', 'voided']);
  expect(bets.some((r) => r['paytable'] === null) && bets.some((r) => r['paytable'] !== null)).toBe(true);
  expect(values(bets, 'player_id')).toEqual(expect.arrayContaining(['Zoe', 'amy']));
  expect(values(sqlRows(exportTableDef('amendments')), 'kind')).toEqual([
    'card-correction',
    'round-void',
    'settled-correction',
    'settled-void',
  ]);
  expect(values(sqlRows(exportTableDef('cash')), 'kind')).toEqual(['buy-in', 'cash-out']);
  expect(sqlRows(exportTableDef('coups'), '2026-11-29').length).toBeGreaterThan(0);
});

describe.each(EXPORT_TABLE_NAMES)('%s', (table) => {
  const def = exportTableDef(table);

  test('CSV: a header of the columns, then each row of the day in key order, exactly', async () => {
    const records = readCsv((await bytesOf(lite, { table, gamingDay: DAY, format: 'csv' })).toString('utf8'));
    const rows = sqlRows(def);
    expect(rows.length).toBeGreaterThan(0);
    expect(records[0]?.map((f) => f.text)).toEqual(def.columns.map((c) => c.name));
    expect(records.length - 1).toBe(rows.length);
    rows.forEach((row, i) => {
      const read = records[i + 1] ?? [];
      def.columns.forEach((c, j) => {
        const field = read[j] as { text: string; quoted: boolean };
        const v = row[c.name];
        if (v === null)
          expect({ col: c.name, field }).toEqual({ col: c.name, field: { text: '', quoted: false } });
        else if (typeof v === 'number')
          expect({ col: c.name, v: Number(field.text) }).toEqual({ col: c.name, v });
        else expect({ col: c.name, v: field.text }).toEqual({ col: c.name, v });
      });
    });
  });

  test.each(['snappy', 'gzip', 'none'] as const)(
    'Parquet (%s): typed columns from the table definition, each row as SQL has it',
    async (compression) => {
      const bytes = await bytesOf(lite, { table, gamingDay: DAY, format: 'parquet', compression });
      const meta = metadataOf(bytes);
      const codec = { snappy: 'SNAPPY', gzip: 'GZIP', none: 'UNCOMPRESSED' }[compression];
      expect(meta.row_groups[0]?.columns.map((c) => c.meta_data?.codec)).toEqual(
        def.columns.map(() => codec),
      );
      const types = {
        INTEGER: ['INT64', undefined],
        REAL: ['DOUBLE', undefined],
        TEXT: ['BYTE_ARRAY', 'UTF8'],
      };
      expect(meta.schema.slice(1).map((s) => [s.name, s.type, s.converted_type, s.repetition_type])).toEqual(
        def.columns.map((c) => [
          c.name,
          ...types[c.type],
          def.primaryKey.includes(c.name) ? 'REQUIRED' : 'OPTIONAL',
        ]),
      );
      const read = await parquetRows(bytes);
      const rows = sqlRows(def);
      expect(read.length).toBe(rows.length);
      rows.forEach((row, i) => {
        const expected = Object.fromEntries(
          def.columns.map((c) => {
            const v = row[c.name] ?? null;
            return [c.name, c.type === 'INTEGER' && v !== null ? BigInt(v) : v];
          }),
        );
        expect(read[i]).toEqual(expected);
      });
    },
  );

  test('small pages and row groups give the same rows, in several row groups', async () => {
    const request = { table, gamingDay: DAY, format: 'parquet' } as const;
    const small = await bytesOf(lite, { ...request, pageRows: 7, rowGroupRows: 5 });
    expect(metadataOf(small).row_groups.length).toBeGreaterThan(1);
    expect(await parquetRows(small)).toEqual(await parquetRows(await bytesOf(lite, request)));
    const csv = { table, gamingDay: DAY, format: 'csv' } as const;
    expect((await bytesOf(lite, { ...csv, pageRows: 3 })).equals(await bytesOf(lite, csv))).toBe(true);
  });

  test('PostgreSQL (text sorted by ICU en-US) exports the same bytes', async () => {
    const post = postgresReader(pool);
    for (const format of ['csv', 'parquet'] as const) {
      const request = { table, gamingDay: DAY, format, pageRows: 11 };
      expect((await bytesOf(post, request)).equals(await bytesOf(lite, request))).toBe(true);
    }
  });
});

test('SQLite reads each page as a range of an index, the group fixed: no sort, no scan of the whole day', async () => {
  const plans: string[] = [];
  const explain = (sql: string, params: readonly SqlParam[]) => {
    const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    plans.push(...steps.map((r) => `${sql.slice(0, 40)}: ${r.detail}`));
  };
  const explaining: SqlReader = {
    dialect: 'sqlite',
    all: async <T>(sql: string, params: readonly SqlParam[] = []) => {
      explain(sql, params);
      return lite.all<T>(sql, params);
    },
    get: async <T>(sql: string, params: readonly SqlParam[] = []) => {
      explain(sql, params);
      return lite.get<T>(sql, params);
    },
  };
  for (const table of EXPORT_TABLE_NAMES) {
    const def = exportTableDef(table);
    plans.length = 0;
    for await (const page of factPages(explaining, def, DAY, 10)) expect(page.length).toBeGreaterThan(0);
    const paging = plans.filter((p) => !p.includes('MIN('));
    expect(paging.length).toBeGreaterThan(2);
    for (const plan of paging) {
      expect(plan).not.toMatch(/TEMP B-TREE/);
      expect(plan).toMatch(/: SEARCH .*\((.* AND )?(rowid|round_no)>\? AND (rowid|round_no)<\?\)$/);
    }
  }
});

test('a page holds at most pageRows rows, and the rest of its last round', async () => {
  const def = exportTableDef('bets');
  const most = (
    db
      .prepare(`SELECT MAX(n) AS n FROM (SELECT COUNT(*) AS n FROM an_fact_bets GROUP BY table_id, round_no)`)
      .get() as { n: number }
  ).n;
  let rows = 0;
  for await (const page of factPages(lite, def, DAY, 10)) {
    expect(page.length).toBeLessThanOrEqual(10 + most - 1);
    rows += page.length;
  }
  expect(rows).toBe(sqlRows(def).length);
});

test('a day with no rows: the CSV header alone, a Parquet file of no rows with the schema', async () => {
  const request = { table: 'bets', gamingDay: '2027-01-01' } as const;
  const csv = await bytesOf(lite, { ...request, format: 'csv' });
  expect(csv.toString()).toBe(
    `${exportTableDef('bets')
      .columns.map((c) => c.name)
      .join(',')}\r\n`,
  );
  const parquet = await bytesOf(lite, { ...request, format: 'parquet' });
  expect(await parquetRows(parquet)).toEqual([]);
  expect(metadataOf(parquet).schema.length).toBe(exportTableDef('bets').columns.length + 1);
});

test('refusals: a day that is not a calendar day, read models without the analysts’ model', async () => {
  for (const gamingDay of ['2026-02-30', '2026-1-01', 'yesterday'])
    expect(() => exportFacts(lite, { table: 'coups', gamingDay, format: 'csv' })).toThrow(QueryError);
  const empty = sqliteReader(new (db.constructor as typeof Database)(':memory:'));
  await expect(bytesOf(empty, { table: 'coups', gamingDay: DAY, format: 'csv' })).rejects.toThrow(
    ExportUnavailableError,
  );
});
