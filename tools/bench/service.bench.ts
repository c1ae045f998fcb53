/**
 * npm run bench:service: drives the running service over HTTP (autocannon) with players betting on one table,
 * beside a bare NestJS endpoint under the same load, and prints bets/s, p50/p99 and the ratio; then bet latency on
 * a table with 100 and with 100,000 coups of history. Builds the service first.
 * Options (env): BENCH_SECONDS (default 8), BENCH_HISTORY_COUPS (default 100000), BENCH_PARTS (load,history),
 * BENCH_REPS (default 3), BENCH_LOADS (default `100,1000~1000,1000~3000,1000@3000`, see LOADS),
 * BENCH_SKIP_BARE=1, BENCH_BARE (default `stock,lean`), BENCH_SHOW_METRICS=1, BENCH_NODE_ARGS (e.g. `--cpu-prof`); COUP_* variables reach the service.
 * BENCH_BASELINE=<another checkout, built>: that checkout's service is measured too, in the same repetitions, and the
 * ratio to it printed (e.g. the code before a change). BENCH_KEYED=1: every bet carries a fresh Idempotency-Key.
 * BENCH_STALLS=1: for the worst stalls of a paced load, what the service's threads did meanwhile (from /proc);
 * BENCH_SERVICE_STDOUT=<file>: the service's standard output (e.g. BENCH_NODE_ARGS=--trace-gc) is appended there.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BENCH_SECRET as SECRET, serviceEnv, track } from './children';
import autocannon from 'autocannon';
import { paced } from './paced';
import { signToken } from '@coup/auth';
import { createEventStore, type NewEvent } from '@coup/event-store';
import {
  decide,
  evolve,
  EVENT_SCHEMA_VERSION,
  initialState,
  snapshotStream,
  tableStream,
  type TableCommand,
  type TableState,
} from '@coup/table';
import { snapshotEvent } from '../../apps/table-service/src/tables/snapshots';

const root = resolve(__dirname, '..', '..');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const HISTORY = Number(process.env['BENCH_HISTORY_COUPS'] ?? 100_000);
const PARTS = (process.env['BENCH_PARTS'] ?? 'load,history').split(',');
const PLAYERS = 1000;

async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`process exited ${child.exitCode}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${url} never answered`);
}

/** The V8 flags the service runs with (tools/service-node-flags.json), for the service and the bare endpoints alike. */
const SERVICE_FLAGS = (
  JSON.parse(readFileSync(join(root, 'tools', 'service-node-flags.json'), 'utf8')) as { flags: string[] }
).flags;
const NODE_ARGS = [...SERVICE_FLAGS, ...(process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean)];

const BASELINE = process.env['BENCH_BASELINE'] ? resolve(process.env['BENCH_BASELINE']) : null;
const KEYED = process.env['BENCH_KEYED'] === '1';
const SERVICE_STDOUT = process.env['BENCH_SERVICE_STDOUT'] ?? null;

/**
 * The load comes from one address and a few tokens, at thousands of commands a second: the per-client limits (a
 * real floor's defaults) are lifted, while their checks still run on every command. COUP_* in the environment win.
 */
const BENCH_LIMITS: Readonly<Record<string, string>> = {
  COUP_RATE_LIMIT_PER_MINUTE: '100000000',
  COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
  COUP_AUTH_FAILURES_PER_MINUTE: '100000000',
  COUP_MAX_CONNECTIONS_PER_IP: '0',
};

async function startCoup(
  dataDir: string,
  env: Record<string, string> = {},
  checkout = root,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, [...NODE_ARGS, join(checkout, 'apps/table-service/dist/main.js')], {
      env: {
        ...BENCH_LIMITS,
        ...process.env,
        ...env,
        ...serviceEnv(port, dataDir),
      },
      // BENCH_SERVICE_STDOUT=<file>: the service's standard output (e.g. with BENCH_NODE_ARGS=--trace-gc) goes there.
      stdio: ['ignore', SERVICE_STDOUT === null ? 'ignore' : openSync(SERVICE_STDOUT, 'a'), 'inherit'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/health`, child);
  return { url, child };
}

/**
 * The bare endpoints: `stock` is NestJS on Node 20 as it comes; `lean` is the same with the service's lean
 * AsyncResource.bind (apps/table-service/src/common/async-resource-bind.ts), i.e. the server setup Coup itself
 * runs, so the ratio to `lean` measures Coup's own work and not a Node 20 cost Coup removes for itself only.
 */
type BareKind = 'stock' | 'lean';
const BARE_KINDS: readonly BareKind[] = (process.env['BENCH_BARE'] ?? 'stock,lean')
  .split(',')
  .filter((k): k is BareKind => k === 'stock' || k === 'lean');

async function startBare(kind: BareKind): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = track(
    spawn(
      process.execPath,
      [...SERVICE_FLAGS, '--import', 'tsx', join(__dirname, 'bare-service.ts'), String(port)],
      {
        env: {
          ...process.env,
          TSX_TSCONFIG_PATH: join(root, 'tsconfig.json'),
          BENCH_BARE_LEAN_BIND: kind === 'lean' ? '1' : '0',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/bare`, child);
  return { url, child };
}

const admin = signToken(SECRET, { sub: 'bench-admin', role: 'admin' });
const dealer = signToken(SECRET, { sub: 'bench-dealer', role: 'dealer' });
const playerTokens = Array.from({ length: PLAYERS }, (_, i) =>
  signToken(SECRET, { sub: `p${i}`, role: 'player' }),
);

async function call(url: string, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await fetch(url + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const LIMITS = {
  player: { min: 100, max: 1_000_000_000 },
  banker: { min: 100, max: 1_000_000_000 },
  tie: { min: 100, max: 1_000_000_000 },
};

async function prepareTable(url: string, tableId: string): Promise<number> {
  await call(url, 'POST', '/api/tables', admin, { tableId, rules: { dealing: 'rng', limits: LIMITS } });
  for (let i = 0; i < PLAYERS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, PLAYERS - i) }, (_, j) =>
        call(url, 'POST', `/api/tables/${tableId}/players/p${i + j}/buy-in`, admin, {
          amount: 10_000_000_000,
        }),
      ),
    );
  }
  await call(url, 'POST', `/api/tables/${tableId}/shoes`, dealer, {});
  return (await call(url, 'POST', `/api/tables/${tableId}/rounds`, dealer)).roundNo as number;
}

interface Load {
  connections: number;
  /** autocannon's overallRate: each connection's quota per second, all starting on the same tick (bursts). */
  overallRate?: number;
  /** An open-loop rate spread evenly over the second (tools/bench/paced.ts). */
  pacedRate?: number;
}

type Req = { body: string; token: string };

/**
 * Drives one endpoint; each new request takes the next of `reqs` in turn (the bodies and headers are built up front,
 * so the load generator spends its core on sockets). Not autocannon's `requests` array: that one is copied into every
 * connection, a million requests for 1,000 connections.
 */
function run(url: string, path: string, load: Load, reqs: readonly Req[]): Promise<autocannon.Result> {
  if (load.pacedRate) {
    // Keyed: every request of the run its own key (so one request per key; the requests cycle through the players).
    const run = Date.now().toString(36);
    const keyed = Array.from({ length: Math.round(load.pacedRate * SECONDS) }, (_, i) => ({
      ...reqs[i % reqs.length]!,
      key: `${run}-${i}`,
    }));
    return paced(
      url,
      path,
      { connections: load.connections, rate: load.pacedRate, seconds: SECONDS },
      KEYED ? keyed : reqs,
    ).then(
      (r) =>
        ({
          '2xx': r.ok,
          non2xx: r.non2xx,
          errors: r.errors,
          latency: { p50: r.p50, p90: r.p90, p99: r.p99, max: r.max },
          stalls: r.stalls,
          startedAt: r.startedAt,
        }) as unknown as autocannon.Result,
    );
  }
  const prepared = reqs.map(({ body, token }) => ({
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  }));
  let n = 0;
  const run = Date.now().toString(36);
  const next = () => {
    const r = prepared[n++ % prepared.length]!;
    return KEYED ? { ...r, headers: { ...r.headers, 'idempotency-key': `${run}-${n}` } } : r;
  };
  return new Promise<autocannon.Result>((res, rej) => {
    const instance = autocannon(
      {
        url: url + path,
        method: 'POST',
        connections: load.connections,
        ...(load.overallRate ? { overallRate: load.overallRate } : {}),
        duration: SECONDS,
        requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
      },
      (err, result) => (err ? rej(err) : res(result)),
    );
    void instance;
  });
}

/** One bet of each of the 1,000 players, in turn. */
const betRequests: Req[] = Array.from({ length: PLAYERS }, (_, p) => ({
  body: JSON.stringify({ playerId: `p${p}`, spot: 'player', amount: 100 }),
  token: playerTokens[p]!,
}));

/**
 * Writes a table with `coups` coups of history straight through the decider (fast, in big appends), then a
 * snapshot a couple of hundred events before the end, as the service would have written one on its own.
 */
async function writeHistory(dataDir: string, tableId: string, coups: number): Promise<number> {
  const store = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite') });
  let state: TableState = initialState;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let seedNo = 0;
  const pending: NewEvent[] = [];
  let revision = -1n;
  let written = -1n;
  let snapshotAt: { state: TableState; revision: bigint } | null = null;
  const flush = async () => {
    if (pending.length === 0) return;
    await store.appendToStream(tableStream(tableId), pending.splice(0), {
      expectedRevision: written < 0n ? 'no_stream' : written,
    });
    written = revision;
  };
  const exec = async (
    type: TableCommand['type'],
    data: object,
    actor = { id: 'gen', role: 'supervisor' as const },
  ) => {
    const command = {
      type,
      data,
      meta: { actor, at: new Date((clock += 1000)).toISOString() },
    } as TableCommand;
    const d = decide(command, state);
    if (!d.ok) throw new Error(`${type}: ${d.error.code} ${d.error.message}`);
    for (const e of d.events) {
      state = evolve(state, e);
      revision++;
      pending.push({
        id: crypto.randomUUID(),
        type: e.type,
        data: e.data as never,
        metadata: { schemaVersion: EVENT_SCHEMA_VERSION[e.type], commandType: type },
      });
    }
    if (pending.length >= 5000) await flush();
  };
  const seed = () => createHash('sha256').update(`bench-${tableId}-${seedNo++}`).digest('hex');
  await exec(
    'OpenTable',
    { tableId, rules: { dealing: 'rng', limits: LIMITS } },
    { id: 'gen', role: 'admin' as never },
  );
  await exec('BuyIn', { playerId: 'h1', amount: 1_000_000_000_000 }, { id: 'gen', role: 'admin' as never });
  for (let coup = 0; coup < coups; coup++) {
    const view = state as unknown as { shoe: { ended: boolean } | null };
    if (view.shoe === null || view.shoe.ended) await exec('StartShoe', { seed: seed() });
    await exec('OpenBetting', {});
    const roundNo = (state as unknown as { round: { roundNo: number } }).round.roundNo;
    await exec('PlaceBet', { roundNo, playerId: 'h1', spot: coup % 2 ? 'player' : 'banker', amount: 500 });
    await exec('CloseBetting', { roundNo });
    await exec('Deal', { roundNo });
    if (coup === coups - 40) snapshotAt = { state, revision };
  }
  const view = state as unknown as { shoe: { ended: boolean } | null };
  if (view.shoe === null || view.shoe.ended) await exec('StartShoe', { seed: seed() });
  await exec('OpenBetting', {});
  await flush();
  if (snapshotAt) {
    // A snapshot names the hash of the stream's event at its revision (the service trusts only a matching one).
    let hash = '';
    for await (const e of store.readStream(tableStream(tableId), {
      fromRevision: snapshotAt.revision,
      maxCount: 1,
    }))
      hash = e.hash;
    await store.appendToStream(
      snapshotStream(tableId),
      [snapshotEvent(snapshotAt.state, snapshotAt.revision, hash)],
      { expectedRevision: 'any' },
    );
  }
  await store.close();
  return Number(revision + 1n);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** CPU seconds a process's threads have used so far (user + system, from /proc): the main thread and the rest. */
function cpuByThread(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Worker threads are all called "node": the main thread (its id is the process id), the others by thread id.
      const name = tid === String(pid) ? 'main' : `t${tid}`;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** A metric's value in Prometheus text (the first sample of that name), or NaN. */
function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

/** Garbage-collection pauses so far, by duration bucket (prom-client's histogram, cumulative `le` buckets). */
function gcPauses(text: string): { over10ms: number; over100ms: number; seconds: number } {
  const bucket = (le: string) =>
    [
      ...text.matchAll(
        new RegExp(`^coup_nodejs_gc_duration_seconds_bucket\\{le="${le}",[^}]*\\} (\\d+)`, 'gm'),
      ),
    ]
      .map((m) => Number(m[1]))
      .reduce((a, b) => a + b, 0);
  const count = [...text.matchAll(/^coup_nodejs_gc_duration_seconds_count\{[^}]*\} (\d+)/gm)]
    .map((m) => Number(m[1]))
    .reduce((a, b) => a + b, 0);
  const seconds = [...text.matchAll(/^coup_nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)/gm)]
    .map((m) => Number(m[1]))
    .reduce((a, b) => a + b, 0);
  return { over10ms: count - bucket('0.01'), over100ms: count - bucket('0.1'), seconds };
}

/**
 * The event-loop delay of a run: the service's (its /metrics: prom-client's monitorEventLoopDelay, 10 ms
 * resolution, reset by every scrape; so one scrape before the run and one after) and the load generator's own (a
 * late generator sends late, and paced latency counts from when a request was due), plus the service's GC pauses.
 */
interface LoopDelay {
  serverP99: number;
  serverMax: number;
  clientP99: number;
  clientMax: number;
  gcOver10ms: number;
  gcOver100ms: number;
  gcMsPerSecond: number;
}

async function withLoopDelay<T>(
  url: string | null,
  go: () => Promise<T>,
): Promise<{ result: T; delay: LoopDelay }> {
  const scrape = async () => (url ? await (await fetch(`${url}/metrics`)).text() : '');
  const gcBefore = gcPauses(await scrape());
  const client = monitorEventLoopDelay({ resolution: 10 });
  client.enable();
  const started = performance.now();
  const result = await go();
  client.disable();
  const seconds = (performance.now() - started) / 1000;
  const text = await scrape();
  const gcAfter = gcPauses(text);
  const ms = (s: number) => Math.round(s * 10_000) / 10; // seconds to ms, one decimal
  return {
    result,
    delay: {
      serverP99: ms(metricValue(text, 'coup_nodejs_eventloop_lag_p99_seconds')),
      serverMax: ms(metricValue(text, 'coup_nodejs_eventloop_lag_max_seconds')),
      clientP99: ms(client.percentile(99) / 1e9),
      clientMax: ms(client.max / 1e9),
      gcOver10ms: gcAfter.over10ms - gcBefore.over10ms,
      gcOver100ms: gcAfter.over100ms - gcBefore.over100ms,
      gcMsPerSecond: ms((gcAfter.seconds - gcBefore.seconds) / seconds),
    },
  };
}

/** Each thread's time on a CPU and waiting for one (ns, from /proc/<pid>/task/<tid>/schedstat), by thread id. */
function schedByThread(pid: number): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      out.set(tid === String(pid) ? 'main' : `t${tid}`, [run!, wait!]);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * BENCH_STALLS=1: samples the service's threads every 10 ms during a paced run, and says for each stall (requests
 * answered over 50 ms late) what the threads did meanwhile: time on a CPU (working) and time runnable but waiting
 * for a CPU (the machine busy), the rest asleep (idle, or waiting on the disk or a lock).
 */
const STALL_THREADS = process.env['BENCH_STALLS'] === '1';

class ThreadSampler {
  private readonly samples: { at: number; threads: Map<string, [number, number]> }[] = [];
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 10);
    this.sample();
  }
  private sample(): void {
    this.samples.push({ at: performance.now(), threads: schedByThread(this.pid) });
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
  /** Per thread, ms on a CPU and ms waiting for one between `from` and `to` (performance.now()), busiest first. */
  between(from: number, to: number): string {
    const first = this.samples.findLast((x) => x.at <= from) ?? this.samples[0]!;
    const last = this.samples.find((x) => x.at >= to) ?? this.samples[this.samples.length - 1]!;
    const rows = [...last.threads].map(([name, [run, wait]]) => {
      const [run0, wait0] = first.threads.get(name) ?? [0, 0];
      return { name, run: (run - run0) / 1e6, wait: (wait - wait0) / 1e6 };
    });
    rows.sort((a, b) => (a.name === 'main' ? -1 : b.name === 'main' ? 1 : b.run - a.run));
    return `${Math.round(last.at - first.at)} ms: ${rows
      .slice(0, 4)
      .map((r) => `${r.name} cpu ${r.run.toFixed(0)} wait ${r.wait.toFixed(0)}`)
      .join(', ')}`;
  }
}

/** Runs a load and adds the server's CPU time per answered request: all threads, and by thread name. */
async function measured(
  child: ChildProcess,
  go: () => Promise<autocannon.Result>,
  url: string | null = null,
) {
  const before = cpuByThread(child.pid!);
  const sampler = STALL_THREADS ? new ThreadSampler(child.pid!) : null;
  const { result: r, delay } = await withLoopDelay(url, go);
  sampler?.stop();
  const after = cpuByThread(child.pid!);
  const paced = r as { stalls?: readonly (readonly number[])[]; startedAt?: number };
  if (sampler && paced.stalls && paced.startedAt !== undefined) {
    const worst = [...paced.stalls].sort((a, b) => b[2]! - a[2]!).slice(0, 6);
    for (const [from, to, late, n] of worst)
      console.log(
        `stall ${from}-${to} ms (${n} late, worst ${late} ms), threads over [due of the first, answer of the last]: ` +
          sampler.between(paced.startedAt + from!, paced.startedAt + to! + late!),
      );
  }
  const ok = Math.max(1, r['2xx']);
  const used = [...after].map(([name, cpu]) => [name, cpu - (before.get(name) ?? 0)] as const);
  const total = used.reduce((sum, [, u]) => sum + u, 0);
  // The main thread, the three busiest others (the read side's worker, the SQLite writer, a GC helper: their
  // order says which is which), and the rest together.
  const others = used.filter(([name]) => name !== 'main').sort((a, b) => b[1] - a[1]);
  const perOk = (u: number) => Math.round((u * 1e6) / ok);
  const threads: Record<string, number> = {
    main: perOk(used.find(([name]) => name === 'main')?.[1] ?? 0),
  };
  others.slice(0, 3).forEach(([, u], i) => (threads[`other #${i + 1}`] = perOk(u)));
  threads['the rest'] = perOk(others.slice(3).reduce((sum, [, u]) => sum + u, 0));
  return { ...summary('', r), cpuUsPerOk: Math.round((total * 1e6) / ok), threads, delay };
}

function summary(name: string, r: autocannon.Result) {
  const ok = r['2xx'];
  return {
    name,
    okPerSec: Math.round(ok / SECONDS),
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    /** Paced loads: runs of requests answered over 50 ms late ([from, to] due in ms, worst ms, count). */
    stalls: (r as { stalls?: readonly (readonly number[])[] }).stalls ?? [],
  };
}

/**
 * BENCH_LOADS, comma-separated: `C` (C connections flat out), `C~R` (C connections, R requests/s offered evenly:
 * latency), `C@R` (autocannon's overallRate: R/s arriving in one burst per second).
 */
const LOADS: readonly Load[] = (process.env['BENCH_LOADS'] ?? '100,1000~1000,1000~3000,1000@3000')
  .split(',')
  .map((l) => {
    const [connections, rate] = l.split(/[@~]/);
    if (!rate) return { connections: Number(connections) };
    return l.includes('~')
      ? { connections: Number(connections), pacedRate: Number(rate) }
      : { connections: Number(connections), overallRate: Number(rate) };
  });
const REPS = Number(process.env['BENCH_REPS'] ?? 3);
const SKIP_BARE = process.env['BENCH_SKIP_BARE'] === '1';
const loadName = (l: Load) =>
  `c=${l.connections}${l.pacedRate ? ` paced ${l.pacedRate}/s` : l.overallRate ? ` bursts ${l.overallRate}/s` : ' flat out'}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Waits until every projection has caught up, so the read side's catch-up does not overlap the next measurement. */
async function projectionsIdle(url: string): Promise<void> {
  if (process.env['COUP_PROJECTIONS'] === 'off') return; // nothing folds: the lag only grows
  for (let i = 0; i < 600; i++) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const lags = [...text.matchAll(/^coup_projection_lag_events\{[^}]*\} (\d+)/gm)].map((m) => Number(m[1]));
    if (lags.every((l) => l === 0)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Throughput and latency of bets on one table with 1,000 players, beside the bare endpoint under the same load.
 * The two never run at once: each repetition starts the bare process, measures it, stops it, then starts Coup
 * (same store every time, the read side caught up first), measures it, stops it; medians over BENCH_REPS.
 */
async function loadPart(dir: string): Promise<void> {
  type Measured = Awaited<ReturnType<typeof measured>>;
  const results = new Map<
    string,
    { coup: Measured[]; baseline: Measured[]; bare: Record<BareKind, Measured[]> }
  >();
  for (const l of LOADS) results.set(loadName(l), { coup: [], baseline: [], bare: { stock: [], lean: [] } });
  for (let rep = 0; rep < REPS; rep++) {
    for (const kind of SKIP_BARE ? [] : BARE_KINDS) {
      const bare = await startBare(kind);
      try {
        await run(bare.url, '/bare', { connections: 50 }, betRequests); // warm-up
        for (const l of LOADS)
          results
            .get(loadName(l))!
            .bare[kind].push(await measured(bare.child, () => run(bare.url, '/bare', l, betRequests)));
      } finally {
        await stop(bare.child);
      }
    }
    const variants: ['coup' | 'baseline', string][] = [['coup', root]];
    if (BASELINE) variants.push(['baseline', BASELINE]);
    for (const [which, checkout] of variants) {
      const coup = await startCoup(which === 'coup' ? dir : `${dir}-baseline`, {}, checkout);
      try {
        // Every run bets on a table of its own whose round opens empty: one round does not carry the bets of all runs.
        const table = async (name: string) =>
          `/api/tables/${name}/rounds/${await prepareTable(coup.url, name)}/bets`;
        await run(coup.url, await table(`W${rep}`), { connections: 50 }, betRequests); // warm-up
        for (const [i, l] of LOADS.entries()) {
          const betPath = await table(`B${rep}x${i}`);
          await projectionsIdle(coup.url);
          results
            .get(loadName(l))!
            [which].push(await measured(coup.child, () => run(coup.url, betPath, l, betRequests), coup.url));
          if (process.env['BENCH_SHOW_METRICS'] === '1') {
            const text = await (await fetch(`${coup.url}/metrics`)).text();
            console.log(
              text
                .split('\n')
                .filter((line) => /^coup_(append_batch|nodejs_eventloop_lag|nodejs_gc)/.test(line))
                .join('\n'),
            );
          }
        }
      } finally {
        await stop(coup.child);
      }
    }
    process.stderr.write(`repetition ${rep + 1} of ${REPS} done\n`);
  }
  const med = (xs: Measured[]) => ({
    ok: median(xs.map((r) => r.okPerSec)),
    p50: median(xs.map((r) => r.p50)),
    p99: median(xs.map((r) => r.p99)),
    cpu: median(xs.map((r) => r.cpuUsPerOk)),
  });
  const rows = [];
  const ratio = (coup: Measured[], other: Measured[]) =>
    `${(median(coup.map((r) => r.okPerSec)) / median(other.map((r) => r.okPerSec))).toFixed(2)} (${coup.map((r, i) => (r.okPerSec / (other[i]?.okPerSec ?? NaN)).toFixed(2)).join(' ')})`;
  for (const [name, { coup, baseline, bare }] of results) {
    const c = med(coup);
    const row: Record<string, string | number> = {
      load: name,
      'coup bets/s': c.ok,
      'coup p50/p99 ms': `${c.p50} / ${c.p99}`,
      'coup CPU µs': c.cpu,
    };
    if (BASELINE) {
      const b = med(baseline);
      row['baseline bets/s'] = b.ok;
      row['baseline p50/p99 ms'] = `${b.p50} / ${b.p99}`;
      row['baseline CPU µs'] = b.cpu;
      row['ratio to baseline (per rep)'] = ratio(coup, baseline);
    }
    for (const kind of BARE_KINDS) {
      const b = med(bare[kind]);
      row[`bare ${kind} req/s`] = b.ok;
      row[`bare ${kind} p50/p99`] = `${b.p50} / ${b.p99}`;
      row[`bare ${kind} CPU µs`] = b.cpu;
      row[`ratio to ${kind} (per rep)`] =
        `${(c.ok / b.ok).toFixed(2)} (${coup.map((r, i) => (r.okPerSec / (bare[kind][i]?.okPerSec ?? NaN)).toFixed(2)).join(' ')})`;
    }
    const failed = (xs: Measured[]) => xs.reduce((a, r) => a + r.non2xx + r.errors, 0);
    row['non-2xx+errors coup / bare'] =
      `${failed(coup)} / ${BARE_KINDS.reduce((a, k) => a + failed(bare[k]), 0)}`;
    rows.push(row);
  }
  console.table(rows);
  // Latency per repetition and what stalls the loops: the service's event-loop delay and GC pauses, the load
  // generator's own loop delay (a stalled generator also shows as latency).
  const delayRows = [];
  for (const [name, { coup, baseline }] of results) {
    const variants: [string, Measured[]][] = [['coup', coup]];
    if (BASELINE) variants.push(['baseline', baseline]);
    for (const [which, xs] of variants) {
      const each = (f: (r: Measured) => number | string) => xs.map(f).join(', ');
      delayRows.push({
        load: name,
        server: which,
        'p99 / max ms per rep': each((r) => `${r.p99} / ${r.max}`),
        'server loop delay p99 / max ms': each((r) => `${r.delay?.serverP99} / ${r.delay?.serverMax}`),
        'client loop delay p99 / max ms': each((r) => `${r.delay?.clientP99} / ${r.delay?.clientMax}`),
        'GC pauses >10 / >100 ms': each((r) => `${r.delay?.gcOver10ms} / ${r.delay?.gcOver100ms}`),
        'GC ms/s': each((r) => r.delay?.gcMsPerSecond ?? NaN),
        'main µs/bet': each((r) => r.threads['main'] ?? NaN),
      });
      xs.forEach((r, i) => {
        if (r.stalls.length === 0) return;
        const shown = r.stalls
          .slice(0, 12)
          .map(([from, to, worst, n]) => `${from}-${to} ms: ${n} late, worst ${worst} ms`);
        console.log(
          `stalls, ${name}, ${which}, rep ${i + 1}: ${shown.join('; ')}${r.stalls.length > 12 ? '; ...' : ''}`,
        );
      });
    }
  }
  console.table(delayRows);
  for (const [name, { coup, bare }] of results) {
    const last = (xs: Measured[]) => JSON.stringify(xs[xs.length - 1]?.threads ?? {});
    console.log(
      `server CPU µs per answered request by thread, ${name}, last rep: coup ${last(coup)}; ${BARE_KINDS.map((k) => `bare ${k} ${last(bare[k])}`).join('; ')}`,
    );
  }
}

async function main() {
  // The benchmark runs the built service: build what is out of date first (Nx caches the rest).
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/.bin/nx'), 'run', '@coup/table-service:build'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false' },
    },
  );
  if (build.status !== 0) throw new Error('the service build failed');
  const dir = mkdtempSync(join(tmpdir(), 'coup-bench-service-'));
  if (PARTS.includes('load')) await loadPart(dir);
  rmSync(`${dir}-baseline`, { recursive: true, force: true });
  if (!PARTS.includes('history')) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }

  // History: two tables in one store, 100 and HISTORY coups; bet latency at a fixed rate on each.
  const started = Date.now();
  const small = await writeHistory(dir, 'H100', 100);
  const large = await writeHistory(dir, 'HBIG', HISTORY);
  console.log(
    `history written: H100 ${small} events, HBIG ${large} events (${HISTORY} coups) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const again = await startCoup(dir);
  try {
    // The read side first folds the new history (a restart's catch-up), so it does not share the cores with the bets.
    await projectionsIdle(again.url);
    const historyRows = [];
    for (const tableId of ['H100', 'HBIG']) {
      const t0 = process.hrtime.bigint();
      const view = await call(again.url, 'GET', `/api/tables/${tableId}`, admin);
      const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const token = signToken(SECRET, { sub: 'h1', role: 'player' });
      const body = JSON.stringify({ playerId: 'h1', spot: 'tie', amount: 100 });
      const r = await run(
        again.url,
        `/api/tables/${tableId}/rounds/${view.round.roundNo}/bets`,
        { connections: 50, pacedRate: 500 },
        [{ body, token }],
      );
      historyRows.push({
        table: tableId,
        coups: tableId === 'H100' ? 100 : HISTORY,
        firstLoadMs: +loadMs.toFixed(1),
        ...summary(`bets paced 500/s`, r),
      });
    }
    console.table(historyRows);
  } finally {
    await stop(again.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
