/**
 * npm run bench:live: the live push at casino-floor scale (issue 18), with the load in child processes
 * (tools/bench/live-clients.ts, each holding its share of the sockets) and the built service in its own.
 * - `window`: one table, BENCH_SOCKETS sockets (default 5,000: all players but BENCH_STAFF staff consoles, 100, who
 *   ask for every event), of which BENCH_BETTORS players (500) bet over their sockets, each once a second, for
 *   BENCH_SECONDS (15); then betting closes and the coup is dealt. Reports send->ack, a bet's acceptance -> the
 *   totals frame that includes it on every coalesced socket, staff (every event) delivery, every card's delivery.
 * - `floor`: BENCH_TABLES tables (100) of 50 sockets each (30 bettors, 15 watchers, 5 staff consoles), each table
 *   dealing a round every 25 s (5 to 30 bets over 12 s, close at 13 s, deal at 15 s), for BENCH_FLOOR_SECONDS (60;
 *   the issue asks 5 minutes: BENCH_FLOOR_SECONDS=300). Reports CPU, memory per socket and per table, RSS over the
 *   run, every card's append -> its frame on every socket.
 * Each part runs Coup, then the bare `ws` broadcast server (tools/bench/bare-ws.ts) with the same sockets, the same
 * bets and table events and Coup's own frames, and prints the server CPU (from /proc, by thread: main, the three
 * busiest others, the rest) per delivered frame and per bet of both. Options (env): BENCH_PARTS (window,floor),
 * BENCH_WORKERS (4), BENCH_SKIP_BUILD=1, BENCH_SKIP_BARE=1, BENCH_NODE_ARGS (the service's, e.g. `--cpu-prof`),
 * BENCH_SERVICE_STDOUT=<file> (the service's standard output, e.g. with BENCH_NODE_ARGS=--trace-gc); COUP_*
 * variables reach the service.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_SECRET as SECRET, serviceEnv, track } from './children';
import { signToken, type Role } from '@coup/auth';
import type { Accepted, Command, SocketSpec } from './live-clients';

const root = resolve(__dirname, '..', '..');
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PARTS = (process.env['BENCH_PARTS'] ?? 'window,floor').split(',');
const WORKERS = env('BENCH_WORKERS', 4);
const SOCKETS = env('BENCH_SOCKETS', 5000);
const STAFF = env('BENCH_STAFF', 100);
const BETTORS = env('BENCH_BETTORS', 500);
const SECONDS = env('BENCH_SECONDS', 15);
const TABLES = env('BENCH_TABLES', 100);
const FLOOR_SECONDS = env('BENCH_FLOOR_SECONDS', 60);
const ROUND_MS = 25_000;
const BET_RATE = env('BENCH_BET_RATE', 500);
const COALESCE_MS = env('COUP_WS_COALESCE_MS', 250);
const FLAGS = (
  JSON.parse(readFileSync(join(root, 'tools', 'service-node-flags.json'), 'utf8')) as { flags: string[] }
).flags;
/** One address and thousands of tokens at hundreds of commands a second: the per-client limits are lifted. */
const LIMITS = {
  COUP_RATE_LIMIT_PER_MINUTE: '100000000',
  COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
  COUP_AUTH_FAILURES_PER_MINUTE: '100000000',
  COUP_MAX_CONNECTIONS_PER_IP: '0',
};
const LIMITS_ON_TABLE = {
  player: { min: 100, max: 1_000_000_000 },
  banker: { min: 100, max: 1_000_000_000 },
  tie: { min: 100, max: 1_000_000_000 },
};

const token = (role: Role, sub: string) => signToken(SECRET, { sub, role });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------- the servers

interface Server {
  readonly child: ChildProcess;
  readonly http: string;
  /** The server's own timings (Prometheus text), if it keeps any. */
  readonly metrics?: () => Promise<string>;
  readonly ws: (spec: { tableId: string; role: Role; sub: string; every: boolean }) => string;
  stop(): Promise<void>;
}

async function waitReady(child: ChildProcess, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('server never ready');
}

function stopper(child: ChildProcess, cleanup: () => void = () => undefined): () => Promise<void> {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    cleanup();
  };
}

/** Node options for both servers (BENCH_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`). */
const SERVICE_STDOUT = process.env['BENCH_SERVICE_STDOUT'];
const nodeArgs = () => (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

async function startCoup(): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coup-bench-live-'));
  const port = await freePort();
  const child = track(
    spawn(process.execPath, [...FLAGS, ...nodeArgs(), join(root, 'apps/table-service/dist/main.js')], {
      env: {
        ...LIMITS,
        ...process.env,
        ...serviceEnv(port, dataDir),
      },
      // BENCH_SERVICE_STDOUT=<file>: the service's standard output (e.g. with BENCH_NODE_ARGS=--trace-gc) goes there.
      stdio: ['ignore', SERVICE_STDOUT === undefined ? 'ignore' : openSync(SERVICE_STDOUT, 'a'), 'inherit'],
    }),
  );
  const http = `http://127.0.0.1:${port}`;
  await waitReady(child, async () => (await fetch(`${http}/health`)).ok);
  return {
    child,
    http,
    metrics: async () => (await fetch(`${http}/metrics`)).text(),
    ws: ({ role, sub }) => `ws://127.0.0.1:${port}/ws?token=${token(role, sub)}`,
    stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })),
  };
}

async function startBare(frames: Record<string, string>): Promise<Server> {
  const file = join(mkdtempSync(join(tmpdir(), 'coup-bench-bare-')), 'frames.json');
  writeFileSync(file, JSON.stringify(frames));
  const port = await freePort();
  const child = track(
    spawn(
      process.execPath,
      [
        ...FLAGS,
        ...nodeArgs(),
        '--import',
        'tsx',
        join(__dirname, 'bare-ws.ts'),
        String(port),
        file,
        String(COALESCE_MS),
      ],
      {
        env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  let ready = false;
  child.stdout!.on('data', (d: Buffer) => (ready ||= d.toString().includes('ready')));
  await waitReady(child, async () => ready);
  const http = `http://127.0.0.1:${port}`;
  return {
    child,
    http,
    ws: ({ tableId, role, sub, every }) =>
      `ws://127.0.0.1:${port}/ws?table=${tableId}${role === 'player' ? `&player=${sub}` : ''}${every ? '&every=1' : ''}`,
    stop: stopper(child, () => rmSync(file, { force: true })),
  };
}

// ---------------------------------------------------------------------------------------------- what a server is asked

/** The table's dealer: Coup's REST routes, or the bare server's broadcast of the same events. */
interface Dealer {
  open(tableId: string): Promise<number>;
  close(tableId: string, roundNo: number): Promise<void>;
  deal(tableId: string, roundNo: number): Promise<void>;
}

async function call(base: string, method: string, path: string, as: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${as}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

function coupDealer(http: string): Dealer {
  const dealer = token('dealer', 'bench-dealer');
  return {
    open: async (t) => (await call(http, 'POST', `/api/tables/${t}/rounds`, dealer)).roundNo as number,
    close: (t, r) => call(http, 'POST', `/api/tables/${t}/rounds/${r}/close`, dealer),
    deal: (t, r) => call(http, 'POST', `/api/tables/${t}/rounds/${r}/deal`, dealer),
  };
}

function bareDealer(http: string): Dealer {
  const event = (t: string, type: string) =>
    fetch(`${http}/event?table=${t}&type=${type}`, { method: 'POST' }).then((r) => r.text());
  return {
    open: async (t) => (await event(t, 'BettingOpened'), 1),
    close: async (t) => void (await event(t, 'BettingClosed')),
    async deal(t) {
      for (let i = 0; i < 5; i++) await event(t, 'CardDealt');
      await event(t, 'CoupResolved');
    },
  };
}

/** Opens each table (rng, high limits), buys its bettors in, starts a shoe. */
async function prepare(
  http: string,
  tables: readonly { id: string; bettors: readonly string[] }[],
): Promise<void> {
  const admin = token('admin', 'bench-admin');
  const dealer = token('dealer', 'bench-dealer');
  const jobs: (() => Promise<unknown>)[] = [];
  for (const t of tables) {
    await call(http, 'POST', '/api/tables', admin, {
      tableId: t.id,
      rules: { dealing: 'rng', limits: LIMITS_ON_TABLE },
    });
    for (const p of t.bettors)
      jobs.push(() =>
        call(http, 'POST', `/api/tables/${t.id}/players/${p}/buy-in`, admin, { amount: 1_000_000_000 }),
      );
    jobs.push(() => call(http, 'POST', `/api/tables/${t.id}/shoes`, dealer, {}));
  }
  for (let i = 0; i < jobs.length; i += 50) await Promise.all(jobs.slice(i, i + 50).map((j) => j()));
}

// ---------------------------------------------------------------------------------------------- the load processes

class Workers {
  private readonly children: ChildProcess[] = [];
  private readonly inbox: Map<ChildProcess, { ev: string }[]> = new Map();

  async start(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const child = fork(join(__dirname, 'live-clients.ts'), [], {
        execArgv: ['--import', 'tsx', '--max-old-space-size=2048'],
        env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      this.inbox.set(child, []);
      child.on('message', (m: { ev: string }) => this.inbox.get(child)!.push(m));
      this.children.push(child);
    }
    await this.all('started');
  }

  /** Sends each process its command (one for all, or one per process), and waits for `ev` from each. */
  async ask<T>(command: Command | ((i: number) => Command), ev?: string): Promise<T[]> {
    this.children.forEach((c, i) => c.send(typeof command === 'function' ? command(i) : command));
    return ev ? this.all<T>(ev) : [];
  }

  private async all<T>(ev: string): Promise<T[]> {
    return Promise.all(
      this.children.map(async (c) => {
        for (;;) {
          const box = this.inbox.get(c)!;
          const i = box.findIndex((m) => m.ev === ev);
          if (i >= 0) return box.splice(i, 1)[0] as T;
          if (c.exitCode !== null) throw new Error(`a load process exited ${c.exitCode}`);
          await sleep(20);
        }
      }),
    );
  }

  get count(): number {
    return this.children.length;
  }

  /** CPU seconds the load processes have used so far, all together. */
  cpuSeconds(): number {
    let total = 0;
    for (const c of this.children) for (const s of threadCpu(c.pid!).values()) total += s;
    return total;
  }

  async stop(): Promise<void> {
    await this.ask({ cmd: 'close' });
    await sleep(200);
    for (const c of this.children) if (c.exitCode === null) c.kill('SIGKILL');
  }
}

interface Results {
  latest: number[];
  missed: number;
  acks: [number, number, number][];
  staffDelays: number[];
  cardDelays: number[];
  cardLatest: [string, number][];
  counts: { frames: number; bytes: number; closes: number; tooSlow: number };
  samples: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------- measures

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
}

/** CPU seconds so far of each thread of a process (user + system): the main thread by name, the others by id. */
function threadCpu(pid: number): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const rest = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(tid === String(pid) ? 'main' : tid, (Number(rest[11]) + Number(rest[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return ticks;
}

/** CPU µs per unit between two readings: all threads, main, the three busiest others, the rest. */
function cpuPer(before: Map<string, number>, after: Map<string, number>, units: number) {
  const used = [...after].map(([name, s]) => [name, s - (before.get(name) ?? 0)] as const);
  const us = (s: number) => Math.round((s * 1e6) / Math.max(1, units));
  const others = used
    .filter(([n]) => n !== 'main')
    .map(([, s]) => s)
    .sort((a, b) => b - a);
  const total = used.reduce((n, [, s]) => n + s, 0);
  return {
    seconds: Math.round(total * 100) / 100,
    all: us(total),
    main: us(used.find(([n]) => n === 'main')?.[1] ?? 0),
    others: others.slice(0, 3).map(us),
    rest: us(others.slice(3).reduce((n, s) => n + s, 0)),
  };
}

function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}
const dist = (xs: readonly number[]) =>
  `p50 ${pct(xs, 50)} / p99 ${pct(xs, 99)} / max ${pct(xs, 100)} ms (n=${xs.length})`;

/** A histogram's cumulative bucket counts ([upper bound s, count]) in Prometheus text, for one series. */
function buckets(text: string, name: string, label = ''): [number, number][] {
  const out: [number, number][] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}_bucket{`) || !line.includes(label)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le !== undefined) out.push([le === '+Inf' ? Infinity : Number(le), Number(line.split(' ').at(-1))]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** How many collections paused the server between two readings, and how many of them 10 ms or more. */
function gcPauses(before: string, after: string): string {
  const delta = (le: number) => {
    const at = (text: string) =>
      buckets(text, 'coup_nodejs_gc_duration_seconds')
        .filter(([l]) => l === le)
        .reduce((sum, [, n]) => sum + n, 0);
    return at(after) - at(before);
  };
  const all = delta(Infinity);
  return `${all}, of which ${all - delta(0.01)} took 10 ms or more`;
}

/** p50 / p99 in ms of what a histogram took between two readings (linear within a bucket). */
function serverDist(before: string, after: string, name: string, label = ''): string {
  const b0 = new Map(buckets(before, name, label));
  const b = buckets(after, name, label).map(([le, n]) => [le, n - (b0.get(le) ?? 0)] as const);
  const total = b.at(-1)?.[1] ?? 0;
  if (total === 0) return 'none';
  const q = (p: number) => {
    let lo = 0;
    let below = 0;
    for (const [le, n] of b) {
      if (n >= p * total) {
        if (le === Infinity) return `> ${lo * 1000}`;
        return String(
          Math.round((lo + ((le - lo) * (p * total - below)) / Math.max(1, n - below)) * 10000) / 10,
        );
      }
      lo = le;
      below = n;
    }
    return '?';
  };
  return `p50 ${q(0.5)} / p99 ${q(0.99)} ms (n=${total})`;
}

function merge(results: readonly Results[]) {
  const flat = <K extends keyof Results>(k: K) => results.flatMap((r) => r[k] as unknown as never[]);
  const cards = new Map<string, number>();
  for (const r of results)
    for (const [card, ms] of r.cardLatest) cards.set(card, Math.max(cards.get(card) ?? -Infinity, ms));
  const sum = (k: keyof Results['counts']) => results.reduce((n, r) => n + r.counts[k], 0);
  return {
    acks: flat('acks') as [number, number, number][],
    staff: flat('staffDelays') as number[],
    cards: flat('cardDelays') as number[],
    cardLatest: [...cards.values()],
    frames: sum('frames'),
    bytes: sum('bytes'),
    closes: sum('closes'),
    tooSlow: sum('tooSlow'),
    missed: results.reduce((n, r) => n + r.missed, 0),
    samples: Object.assign({}, ...results.map((r) => r.samples)) as Record<string, string>,
    latest:
      results.length === 0
        ? []
        : results[0]!.latest.map((_, i) => Math.max(...results.map((r) => r.latest[i]!))),
  };
}

// ---------------------------------------------------------------------------------------------- the parts

interface Socketed {
  readonly tableId: string;
  readonly role: Role;
  readonly sub: string;
  readonly every: boolean;
  readonly bettor: boolean;
}

async function openSockets(workers: Workers, server: Server, sockets: readonly Socketed[]): Promise<number> {
  const specs: SocketSpec[][] = Array.from({ length: workers.count }, () => []);
  sockets.forEach((s, i) =>
    specs[i % workers.count]!.push({
      url: server.ws(s),
      tableId: s.tableId,
      every: s.every,
      bettor: s.bettor ? s.sub : null,
    }),
  );
  const opened = await workers.ask<{ ready: number }>((i) => ({ cmd: 'open', sockets: specs[i]! }), 'opened');
  return opened.reduce((n, o) => n + o.ready, 0);
}

interface RunOutcome {
  readonly merged: ReturnType<typeof merge>;
  readonly cpu: ReturnType<typeof cpuPer>;
  readonly cpuPerBet: ReturnType<typeof cpuPer>;
  readonly wallSeconds: number;
  readonly rss: {
    readonly base: number;
    readonly tables: number;
    readonly sockets: number;
    readonly samples: number[];
    /** The V8 heap in use (MB) at the same moments, when the server tells it (its /metrics). */
    readonly heap: number[];
  };
  readonly bets: number;
  readonly ready: number;
  /** The server's own timings at the start and the end of the measure (Prometheus text), if it keeps any. */
  readonly server: { readonly before: string; readonly after: string } | null;
  /** CPU seconds the load processes used meanwhile (on the same two cores). */
  readonly loadSeconds: number;
}

/** One server through one part: its tables, its sockets, then the load; what it cost and what arrived. */
async function runPart(
  server: Server,
  tables: readonly { id: string; bettors: readonly string[] }[],
  sockets: readonly Socketed[],
  load: (workers: Workers) => Promise<void>,
  prepared: boolean,
): Promise<RunOutcome> {
  const pid = server.child.pid!;
  const base = rssMb(pid);
  if (prepared) await prepare(server.http, tables);
  const afterTables = rssMb(pid);
  const workers = new Workers();
  await workers.start(WORKERS);
  try {
    const ready = await openSockets(workers, server, sockets);
    await sleep(1000);
    const afterSockets = rssMb(pid);
    await workers.ask({ cmd: 'mark' }, 'marked');
    const samples: number[] = [];
    const heap: number[] = [];
    const sampler = setInterval(() => {
      samples.push(Math.round(rssMb(pid)));
      void server.metrics?.().then((text) => {
        const used = /^coup_nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1];
        if (used !== undefined) heap.push(Math.round(Number(used) / 2 ** 20));
      });
    }, 5000);
    const metrics0 = server.metrics ? await server.metrics() : null;
    const cpu0 = threadCpu(pid);
    const load0 = workers.cpuSeconds();
    const started = performance.now();
    await load(workers);
    await sleep(2000);
    const cpu1 = threadCpu(pid);
    const metrics1 = server.metrics ? await server.metrics() : null;
    const loadSeconds = workers.cpuSeconds() - load0;
    const wallSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const accepted = (await workers.ask<{ bets: Accepted[] }>({ cmd: 'accepted' }, 'accepted')).flatMap(
      (a) => a.bets,
    );
    const merged = merge(await workers.ask<Results>({ cmd: 'results', bets: accepted }, 'results'));
    const bets = merged.acks.filter((a) => a[2] < 300).length;
    return {
      merged,
      cpu: cpuPer(cpu0, cpu1, merged.frames),
      cpuPerBet: cpuPer(cpu0, cpu1, bets),
      wallSeconds,
      rss: { base, tables: afterTables, sockets: afterSockets, samples, heap },
      loadSeconds,
      bets,
      ready,
      server: metrics0 !== null && metrics1 !== null ? { before: metrics0, after: metrics1 } : null,
    };
  } finally {
    await workers.stop();
  }
}

function report(name: string, o: RunOutcome, sockets: number, tables: number): void {
  const m = o.merged;
  const perSocketKb = Math.round(((o.rss.sockets - o.rss.tables) * 1024) / sockets);
  const perTableKb = Math.round(((o.rss.tables - o.rss.base) * 1024) / tables);
  console.log(`\n## ${name}`);
  console.log(
    `sockets ready ${o.ready} of ${sockets}; closed during the run ${m.closes} (too slow: ${m.tooSlow})`,
  );
  console.log(
    `bets accepted ${o.bets}, acks ${m.acks.length}; frames delivered ${m.frames} (${Math.round(m.bytes / 1e6)} MB) in ${o.wallSeconds.toFixed(1)} s`,
  );
  console.log(`send -> ack: ${dist(m.acks.map(([s, a]) => a - s))}`);
  if (m.latest.length > 0)
    console.log(
      `acceptance -> the totals frame including it on every coalesced socket: ${dist(m.latest.filter(Number.isFinite))}; missing ${m.missed}`,
    );
  if (m.staff.length > 0) console.log(`staff (every event): acceptance -> frame ${dist(m.staff)}`);
  if (m.cards.length > 0) {
    console.log(`cards: append -> frame, each socket: ${dist(m.cards)}`);
    console.log(`cards: append -> frame on every socket (latest per card): ${dist(m.cardLatest)}`);
  }
  if (o.server) {
    const { before, after } = o.server;
    console.log(
      `server side: message read -> ack written ${serverDist(before, after, 'coup_live_ack_seconds')}`,
    );
    console.log(
      `server side: a bet queued at its table -> answered (its decision and fsync'd append) ${serverDist(before, after, 'coup_command_duration_seconds', 'type="PlaceBet"')}`,
    );
    console.log(
      `server side: a group commit, start -> answer (the writer thread's message, insert, fsync) ${serverDist(before, after, 'coup_store_commit_seconds')}`,
    );
    console.log(`server side: garbage collections ${gcPauses(before, after)}`);
    console.log(
      `server side: append -> frame written to every every-event socket ${serverDist(before, after, 'coup_live_frame_seconds', 'audience="every"')}`,
    );
    console.log(
      `server side: append -> a table event's frame written to every socket ${serverDist(before, after, 'coup_live_frame_seconds', 'audience="all"')}`,
    );
  }
  const core = (x: number) => Math.round((x / o.wallSeconds) * 100);
  console.log(
    `server CPU ${o.cpu.seconds} s = ${core(o.cpu.seconds)} % of one core; the load processes ` +
      `${o.loadSeconds.toFixed(1)} s = ${core(o.loadSeconds)} %; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.log(
    `server CPU µs per delivered frame: all ${o.cpu.all}, main ${o.cpu.main}, others ${o.cpu.others.join(' / ')}, rest ${o.cpu.rest}`,
  );
  if (o.bets > 0)
    console.log(
      `server CPU µs per bet: all ${o.cpuPerBet.all}, main ${o.cpuPerBet.main}, others ${o.cpuPerBet.others.join(' / ')}, rest ${o.cpuPerBet.rest}`,
    );
  console.log(
    `server RSS MB: start ${Math.round(o.rss.base)}, with the tables ${Math.round(o.rss.tables)}, with the sockets ${Math.round(o.rss.sockets)}; ` +
      `${perSocketKb} kB per socket, ${perTableKb} kB per table; during the run ${o.rss.samples.join(', ')}`,
  );
  if (o.rss.heap.length > 0) console.log(`server V8 heap used MB during the run: ${o.rss.heap.join(', ')}`);
}

/** One table, thousands of sockets, hundreds of bettors betting through a 15 s window, then the coup. */
async function bettingWindow(): Promise<void> {
  const tableId = 'W';
  const bettors = Array.from({ length: BETTORS }, (_, i) => `p${i}`);
  const sockets: Socketed[] = [
    ...Array.from({ length: SOCKETS - STAFF }, (_, i) => ({
      tableId,
      role: 'player' as Role,
      sub: `p${i}`,
      every: false,
      bettor: i < BETTORS,
    })),
    ...Array.from({ length: STAFF }, (_, i) => ({
      tableId,
      role: 'supervisor' as Role,
      sub: `s${i}`,
      every: true,
      bettor: false,
    })),
  ];
  const load = (dealer: Dealer) => async (workers: Workers) => {
    const roundNo = await dealer.open(tableId);
    const perSecond = BET_RATE / BETTORS;
    await workers.ask({ cmd: 'bet', seconds: SECONDS, perSecond, rounds: { [tableId]: roundNo } }, 'betted');
    await dealer.close(tableId, roundNo);
    await dealer.deal(tableId, roundNo);
  };
  console.log(
    `\n# betting window: ${SOCKETS} sockets (${STAFF} staff asking for every event), ${BETTORS} bettors at ${BET_RATE} bets/s for ${SECONDS} s, totals every ${COALESCE_MS} ms`,
  );
  const coup = await startCoup();
  let frames: Record<string, string> = {};
  try {
    const o = await runPart(coup, [{ id: tableId, bettors }], sockets, load(coupDealer(coup.http)), true);
    report('Coup', o, SOCKETS, 1);
    frames = { ...o.merged.samples, ack: o.merged.samples['ack'] ?? '{}' };
  } finally {
    await coup.stop();
  }
  if (process.env['BENCH_SKIP_BARE'] === '1') return;
  const bare = await startBare(frames);
  try {
    const o = await runPart(bare, [{ id: tableId, bettors }], sockets, load(bareDealer(bare.http)), false);
    report('bare ws broadcast, the same frames', o, SOCKETS, 1);
  } finally {
    await bare.stop();
  }
}

/** Many tables dealing at a real pace: a round every 25 s, 5 to 30 bets each. */
async function floor(): Promise<void> {
  const tables = Array.from({ length: TABLES }, (_, t) => ({
    id: `F${t}`,
    bettors: Array.from({ length: 30 }, (_, i) => `f${t}-${i}`),
  }));
  const sockets: Socketed[] = tables.flatMap((t) => [
    ...t.bettors.map((sub) => ({ tableId: t.id, role: 'player' as Role, sub, every: false, bettor: true })),
    ...Array.from({ length: 15 }, (_, i) => ({
      tableId: t.id,
      role: 'player' as Role,
      sub: `w${t.id}-${i}`,
      every: false,
      bettor: false,
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      tableId: t.id,
      role: 'dealer' as Role,
      sub: `d${t.id}-${i}`,
      every: false,
      bettor: false,
    })),
  ]);
  const load = (dealer: Dealer) => async (workers: Workers) => {
    const start = performance.now();
    const rounds = tables.map(async (t, i) => {
      for (let at = (i * ROUND_MS) / TABLES; at + 15_000 <= FLOOR_SECONDS * 1000; at += ROUND_MS) {
        await sleep(start + at - performance.now());
        const roundNo = await dealer.open(t.id);
        const count = 5 + Math.floor(Math.random() * 26);
        const bettors = [...t.bettors].sort(() => Math.random() - 0.5).slice(0, count);
        await workers.ask({ cmd: 'round', tableId: t.id, roundNo, bettors, spreadMs: 12_000 });
        await sleep(start + at + 13_000 - performance.now());
        await dealer.close(t.id, roundNo);
        await sleep(start + at + 15_000 - performance.now());
        await dealer.deal(t.id, roundNo);
      }
    });
    await Promise.all(rounds);
  };
  const n = sockets.length;
  console.log(
    `\n# floor: ${TABLES} tables x 50 sockets (${n}), a round every 25 s per table, ${FLOOR_SECONDS} s`,
  );
  const coup = await startCoup();
  let frames: Record<string, string> = {};
  try {
    const o = await runPart(coup, tables, sockets, load(coupDealer(coup.http)), true);
    report('Coup', o, n, TABLES);
    frames = o.merged.samples;
  } finally {
    await coup.stop();
  }
  if (process.env['BENCH_SKIP_BARE'] === '1') return;
  const bare = await startBare(frames);
  try {
    const o = await runPart(bare, tables, sockets, load(bareDealer(bare.http)), false);
    report('bare ws broadcast, the same frames', o, n, TABLES);
  } finally {
    await bare.stop();
  }
}

async function main(): Promise<void> {
  if (process.env['BENCH_SKIP_BUILD'] !== '1') {
    const built = spawnSync('npx', ['nx', 'run', '@coup/table-service:build'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('the build failed');
  }
  console.log(
    `bench:live on ${new Date().toISOString()}, Node ${process.version}, ${WORKERS} load processes`,
  );
  if (PARTS.includes('window')) await bettingWindow();
  if (PARTS.includes('floor')) await floor();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
