/**
 * npm run bench:service: drives the running service over HTTP (autocannon) with players betting on one table,
 * beside a bare NestJS endpoint under the same load, and prints bets/s, p50/p99 and the ratio; then bet latency on
 * a table with 100 and with 100,000 coups of history. Needs the build (`npm run build`).
 * Options (env): BENCH_SECONDS (default 8), BENCH_HISTORY_COUPS (default 100000).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import { signToken } from '@coup/auth';
import { createEventStore, type NewEvent } from '@coup/event-store';
import {
  decide,
  evolve,
  EVENT_SCHEMA_VERSION,
  initialState,
  type TableCommand,
  type TableState,
} from '@coup/table';
import {
  snapshotEvent,
  snapshotStream,
  tableStream,
} from '../../apps/table-service/src/tables/table-processor';

const root = resolve(__dirname, '..', '..');
const SECRET = 'bench-secret-0123456789-0123456789-0123456789';
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
  throw new Error(`${url} never answered`);
}

async function startCoup(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'apps/table-service/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      COUP_DATA_DIR: dataDir,
      COUP_JWT_SECRET: SECRET,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/health`, child);
  return { url, child };
}

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'bare-service.ts'), String(port)],
    {
      env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
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
  overallRate?: number;
}

function run(url: string, path: string, load: Load, bodyFor: (n: number) => { body: string; token: string }) {
  let n = 0;
  return new Promise<autocannon.Result>((res, rej) => {
    const instance = autocannon(
      {
        url: url + path,
        method: 'POST',
        connections: load.connections,
        ...(load.overallRate ? { overallRate: load.overallRate } : {}),
        duration: SECONDS,
        requests: [
          {
            setupRequest: (req) => {
              const { body, token } = bodyFor(n++);
              return {
                ...req,
                body,
                headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              };
            },
          },
        ],
      },
      (err, result) => (err ? rej(err) : res(result)),
    );
    void instance;
  });
}

const betBody = (n: number) => {
  const p = n % PLAYERS;
  return {
    body: JSON.stringify({ playerId: `p${p}`, spot: 'player', amount: 100 }),
    token: playerTokens[p]!,
  };
};

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
  if (snapshotAt)
    await store.appendToStream(
      snapshotStream(tableId),
      [snapshotEvent(snapshotAt.state, snapshotAt.revision)],
      { expectedRevision: 'any' },
    );
  await store.close();
  return Number(revision + 1n);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function summary(name: string, r: autocannon.Result) {
  const ok = r['2xx'];
  return {
    name,
    okPerSec: Math.round(ok / SECONDS),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
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
  const bare = await startBare();
  if (PARTS.includes('load')) {
    const coup = await startCoup(dir);
    try {
      const roundNo = await prepareTable(coup.url, 'B1');
      const betPath = `/api/tables/B1/rounds/${roundNo}/bets`;
      // Warm-up
      await run(coup.url, betPath, { connections: 50 }, betBody);
      await run(bare.url, '/bare', { connections: 50 }, betBody);

      const rows = [];
      for (const load of [{ connections: 100 }, { connections: 1000, overallRate: 2000 }] as Load[]) {
        const c = summary(
          `coup bets c=${load.connections}${load.overallRate ? ` rate=${load.overallRate}/s` : ''}`,
          await run(coup.url, betPath, load, betBody),
        );
        const b = summary(
          `bare   c=${load.connections}${load.overallRate ? ` rate=${load.overallRate}/s` : ''}`,
          await run(bare.url, '/bare', load, betBody),
        );
        rows.push(c, b, { name: '  ratio coup/bare', okPerSec: +(c.okPerSec / b.okPerSec).toFixed(2) });
      }
      console.table(rows);
    } finally {
      await stop(coup.child);
    }
  }
  if (!PARTS.includes('history')) {
    await stop(bare.child);
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
        { connections: 50, overallRate: 500 },
        () => ({ body, token }),
      );
      historyRows.push({
        table: tableId,
        coups: tableId === 'H100' ? 100 : HISTORY,
        firstLoadMs: +loadMs.toFixed(1),
        ...summary(`bets rate=500/s`, r),
      });
    }
    console.table(historyRows);
  } finally {
    await stop(again.child);
    await stop(bare.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
