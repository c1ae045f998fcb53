// The exports benchmark: `npm run bench:export` (node tools/run-ts.mjs tools/bench/export.bench.ts).
//
// Writes a read-model SQLite file of synthetic bets (an_fact_bets, from its TableDef): BENCH_EXPORT_BETS on gaming
// day 2026-12-01 (default 1,000,000: 100 tables, 4 stakes a round) and a fifth as many on 2026-11-30, then exports
// each day as Parquet and as CSV, each export in a child process whose heap is capped at BENCH_EXPORT_HEAP_MB
// (default 192): finishing under the cap, for both days, shows the export's memory does not grow with the day.
// Prints wall and CPU seconds, rows/s, the file's size, the child's peak RSS and the largest heap seen between
// chunks. BENCH_KEEP=1 keeps the temp dir. The machine's 2 cores are shared: read CPU seconds beside wall time.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import {
  type ExportFormat,
  ReadModels,
  createTableStatements,
  exportFacts,
  exportTableDef,
} from '@coup/projections';

const DAY = '2026-12-01';
const BEFORE = '2026-11-30';
const SPOTS = ['player', 'banker', 'tie', 'playerPair'] as const;
const T0 = Date.parse('2026-11-30T06:00:00Z');

/** A synthetic settled stake: table t, round r, stake b of the round. */
function bet(t: number, r: number, b: number, day: string): Record<string, string | number | null> {
  const stake = 1_000 + ((t * 7 + r * 13 + b) % 50) * 100;
  const won = b % 2 === 1;
  const atMs = T0 + r * 45_000;
  return {
    table_id: `T${String(t).padStart(3, '0')}`,
    round_no: r,
    player_id: `p${(r + b) % 7}`,
    spot: SPOTS[b % 4] as string,
    shoe_no: Math.ceil(r / 70),
    rules_version: 1,
    bet_type: `${SPOTS[b % 4]}:bench`,
    paytable: b % 4 === 3 ? '11-to-1' : null,
    game: 'commission',
    decks: 8,
    commission_mode: 'deducted',
    dealer_id: `dealer-${t % 9}`,
    opened_ms: atMs - 30_000,
    at: new Date(atMs).toISOString(),
    at_ms: atMs,
    gaming_day: day,
    shift: 'day',
    hour: Math.floor(r / 80) % 24,
    stake,
    result: won ? 'win' : 'lose',
    paid: won ? stake * 2 : 0,
    commission: 0,
    net: won ? stake : -stake,
    win: won ? -stake : stake,
    edge: 0.0106,
    variance: 0.95,
    theo_win: stake * 0.0106,
    theo_var: stake * stake * 0.95,
    status: 'settled',
  };
}

function build(file: string, bets: number): void {
  const def = exportTableDef('bets');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const sql of createTableStatements(def, def.name, 'g1', 'sqlite')) db.exec(sql);
  const cols = def.columns.map((c) => c.name);
  const insert = db.prepare(
    `INSERT INTO an_fact_bets (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
  );
  const rounds = Math.ceil(bets / 400); // per table, 4 stakes a round, 100 tables
  const before = Math.ceil(rounds / 5);
  db.transaction(() => {
    for (let t = 0; t < 100; t++)
      for (let r = 1; r <= before + rounds; r++)
        for (let b = 0; b < 4; b++) {
          const row = bet(t, r, b, r <= before ? BEFORE : DAY);
          insert.run(...cols.map((c) => row[c] ?? null));
        }
  })();
  db.close();
}

interface Figures {
  readonly rows: number;
  readonly wall: number;
  readonly cpu: number;
  readonly bytes: number;
  readonly rssMB: number;
  readonly heapMB: number;
}

/** In the child: one export to a file, then its figures as a JSON line. */
async function child(file: string, day: string, format: ExportFormat, out: string): Promise<void> {
  const read = await ReadModels.open(file);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let heap = 0;
  const facts = exportFacts(read.sql, { table: 'bets', gamingDay: day, format });
  const watch = new Transform({
    transform(chunk, _encoding, done) {
      heap = Math.max(heap, process.memoryUsage().heapUsed);
      done(null, chunk);
    },
  });
  await pipeline(Readable.from(facts), watch, createWriteStream(out));
  const used = process.cpuUsage(cpu);
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  await read.close();
  const result: Figures = {
    rows: facts.rows,
    wall,
    cpu: (used.user + used.system) / 1e6,
    bytes: statSync(out).size,
    rssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapMB: Math.round(heap / 2 ** 20),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function main(): void {
  const bets = Number(process.env['BENCH_EXPORT_BETS'] ?? 1_000_000);
  const heapCap = Number(process.env['BENCH_EXPORT_HEAP_MB'] ?? 192);
  const dir = mkdtempSync(join(tmpdir(), 'coup-bench-export-'));
  const file = join(dir, 'read-models.sqlite');
  try {
    let t = Date.now();
    build(file, bets);
    console.log(
      `built ${file}: ${statSync(file).size.toLocaleString('en-US')} bytes in ${(Date.now() - t) / 1000} s`,
    );
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; heap cap ${heapCap} MB`,
    );
    console.log(
      '| day | format | rows | wall s | CPU s | rows/s (wall) | file bytes | peak RSS MB | peak heap MB |',
    );
    console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const day of [BEFORE, DAY])
      for (const format of ['parquet', 'csv'] as const) {
        t = Date.now();
        const run = spawnSync(
          process.execPath,
          [`--max-old-space-size=${heapCap}`, '--import', 'tsx', __filename, '--child', file, day, format],
          { encoding: 'utf8', env: process.env },
        );
        if (run.status !== 0)
          throw new Error(`the ${format} export of ${day} failed: ${run.stderr.slice(-2000)}`);
        const r = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Figures;
        const n = (v: number) => v.toLocaleString('en-US');
        const cells = [
          day,
          format,
          n(r.rows),
          r.wall.toFixed(1),
          r.cpu.toFixed(1),
          n(Math.round(r.rows / r.wall)),
        ];
        console.log(`| ${[...cells, n(r.bytes), r.rssMB, r.heapMB].join(' | ')} |`);
      }
  } finally {
    if (process.env['BENCH_KEEP'] !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const [file, day, format] = process.argv.slice(3) as [string, string, ExportFormat];
  void child(file, day, format, `${file}.${day}.${format}`);
} else main();
