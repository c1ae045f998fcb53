/**
 * The built service on EventStoreDB (COUP_EVENT_STORE=eventstoredb), through @eventstore/db-client over real gRPC:
 * against the stand-in (tools/esdb-standin) by default, against a real server when EVENTSTORE_CONNECTION_STRING is
 * set (`npm run test:eventstoredb`). Bets and deals, the live push and its resume, idempotent retries, two service
 * processes on one store, and a crash (SIGKILL) with a restart. Runs the built service (`npm run build` first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { EventStoreDbEventStore, type RecordedEvent } from '@coup/event-store';
import { esdbForTests, type EsdbForTests } from './esdb-standin';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';
import { WsClient } from './ws-client';

jest.setTimeout(120_000);

type Role = 'admin' | 'dealer' | 'player';
const token = (role: Role, sub = `${role}-1`) => signToken(SECRET, { sub, role });

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  role: Role = 'admin',
  key?: string,
) {
  const res = await fetch(base + path, {
    // A service that stops answering fails the case here, not at jest's timeout.
    signal: AbortSignal.timeout(15_000),
    method,
    headers: {
      authorization: `Bearer ${token(role, role === 'player' ? 'p1' : undefined)}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
}

let esdb: EsdbForTests;
const dirs: string[] = [];
const procs: ServiceProcess[] = [];
const run = Math.random().toString(36).slice(2, 7);
const tableIds = (label: string) => `${label}${run}`;

async function service(
  dir?: string,
  env: Record<string, string> = {},
): Promise<{ proc: ServiceProcess; dir: string }> {
  const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'coup-esdb-e2e-'));
  if (!dir) dirs.push(dataDir);
  const proc = await spawnService(dataDir, {
    COUP_EVENT_STORE: 'eventstoredb',
    EVENTSTORE_CONNECTION_STRING: esdb.connectionString,
    COUP_PROJECTIONS: 'off',
    ...env,
  });
  procs.push(proc);
  return { proc, dir: dataDir };
}

async function events(tableId: string): Promise<{ events: RecordedEvent[]; ok: boolean }> {
  const store = new EventStoreDbEventStore({ connectionString: esdb.connectionString });
  try {
    const out: RecordedEvent[] = [];
    for await (const e of store.readStream(`table-${tableId}`)) out.push(e);
    return { events: out, ok: (await store.verifyStream(`table-${tableId}`)).ok };
  } finally {
    await store.close();
  }
}

async function openRound(base: string, tableId: string, players: string[]): Promise<number> {
  const steps: [string, string, unknown?, Role?][] = [
    ['POST', '/api/tables', { tableId, rules: { dealing: 'rng' } }],
    ...players.map((p): [string, string, unknown] => [
      'POST',
      `/api/tables/${tableId}/players/${p}/buy-in`,
      { amount: 10_000_000 },
    ]),
    ['POST', `/api/tables/${tableId}/shoes`, undefined, 'dealer'],
  ];
  for (const [method, path, body, role] of steps) {
    const r = await call(base, method, path, body, role);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const round = await call(base, 'POST', `/api/tables/${tableId}/rounds`, undefined, 'dealer');
  expect(round.status).toBe(201);
  return round.body.roundNo as number;
}

const bet = (base: string, tableId: string, roundNo: number, player: string, key?: string, amount = 1000) =>
  call(
    base,
    'POST',
    `/api/tables/${tableId}/rounds/${roundNo}/bets`,
    { playerId: player, spot: 'player', amount },
    'admin',
    key,
  );

/** The first service process, shared by the cases (each on tables of its own); a second joins it in two. */
let a: { proc: ServiceProcess; dir: string };
let b: { proc: ServiceProcess; dir: string };
beforeAll(async () => {
  esdb = await esdbForTests();
  // The read side in its worker thread (the last case checks it); the other processes keep none.
  a = await service(undefined, { COUP_PROJECTIONS: 'worker' });
});
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await esdb?.close();
});

it('bets and a deal are pushed live over WebSocket; a reconnect resumes from the last revision seen', async () => {
  const base = a.proc.url;
  const tableId = tableIds('LIVE');
  const roundNo = await openRound(base, tableId, ['p1', 'p2']);
  const wsUrl = `${base.replace('http', 'ws')}/ws?token=${token('dealer')}`;
  const watcher = await WsClient.open(wsUrl);
  watcher.send({ type: 'subscribe', tableId, every: true });
  await watcher.until((f) => f.some((x) => x.type === 'view'), 'the view');
  expect((await bet(base, tableId, roundNo, 'p1')).status).toBe(201);
  await watcher.until((f) => f.some((x) => x.event?.type === 'BetPlaced'), 'the bet, live');
  const lastSeen = watcher.events().at(-1)!.revision!;
  watcher.close();
  expect((await bet(base, tableId, roundNo, 'p2')).status).toBe(201);
  expect(
    (await call(base, 'POST', `/api/tables/${tableId}/rounds/${roundNo}/close`, undefined, 'dealer')).status,
  ).toBe(200);
  const deal = await call(base, 'POST', `/api/tables/${tableId}/rounds/${roundNo}/deal`, undefined, 'dealer');
  expect(deal.status).toBe(200);
  const again = await WsClient.open(wsUrl);
  again.send({ type: 'subscribe', tableId, fromRevision: lastSeen, every: true });
  await again.until((f) => f.some((x) => x.event?.type === 'CoupResolved'), 'the resumed events');
  const revisions = again.events().map((e) => e.revision!);
  expect(revisions[0]).toBe(lastSeen + 1);
  revisions.forEach((r, i) => i > 0 && expect(r).toBe(revisions[i - 1]! + 1));
  again.close();
  const stored = await events(tableId);
  expect(stored.ok).toBe(true);
  expect(stored.events.at(-1)!.streamRevision).toBe(BigInt(revisions.at(-1)!));
});

it('a keyed retry answers the first answer and records nothing new; the key with another body is 422', async () => {
  const { proc } = a;
  const tableId = tableIds('KEY');
  const roundNo = await openRound(proc.url, tableId, ['p1']);
  const first = await bet(proc.url, tableId, roundNo, 'p1', 'key-1');
  const again = await bet(proc.url, tableId, roundNo, 'p1', 'key-1');
  expect(first.status).toBe(201);
  expect(again).toEqual(first);
  expect((await bet(proc.url, tableId, roundNo, 'p1', 'key-1', 2000)).body).toMatchObject({
    code: 'IDEMPOTENCY_KEY_REUSED',
  });
  expect((await events(tableId)).events.filter((e) => e.type === 'BetPlaced')).toHaveLength(1);
});

it('two service processes on one store: bets through both on one table are each recorded once, and each lists the other’s tables', async () => {
  b = await service();
  const tableId = tableIds('TWO');
  const roundNo = await openRound(a.proc.url, tableId, ['p1', 'p2']);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      bet(i % 2 ? a.proc.url : b.proc.url, tableId, roundNo, i % 2 ? 'p1' : 'p2', `two-${i}`),
    ),
  );
  expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
  const stored = await events(tableId);
  expect(stored.ok).toBe(true);
  expect(stored.events.filter((e) => e.type === 'BetPlaced')).toHaveLength(20);
  const fromB = await call(b.proc.url, 'GET', `/api/tables/${tableId}`);
  expect(fromB.status).toBe(200);
  const listed = async () => (await call(b.proc.url, 'GET', '/api/tables')).body as { tableId: string }[];
  const deadline = Date.now() + 10_000;
  while (!(await listed()).some((t) => t.tableId === tableId)) {
    if (Date.now() > deadline) throw new Error('the table opened through A never reached B’s table list');
    await new Promise((r) => setTimeout(r, 100));
  }
});

it('a crash (SIGKILL) with an append in flight, then a restart: every retried key answers its first answer, recorded once', async () => {
  const first = b;
  const tableId = tableIds('CRASH');
  const roundNo = await openRound(first.proc.url, tableId, ['p1', 'p2']);
  const keys = Array.from({ length: 40 }, (_, i) => `crash-${i}`);
  // On the stand-in the service dies the moment the store has received its first append of these bets, which then
  // lands with its answer lost. A real server has no such hook: the service dies at the first answer instead.
  const standin = esdb.standin;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    first.proc.child.kill('SIGKILL');
  };
  if (standin)
    standin.faults.beforeAppend = (stream) => {
      if (stream === `table-${tableId}`) kill();
    };
  const before = await Promise.all(
    keys.map((key, i) =>
      bet(first.proc.url, tableId, roundNo, i % 2 ? 'p1' : 'p2', key).then(
        (answer) => {
          kill();
          return answer;
        },
        () => ({ status: 0, body: undefined }),
      ),
    ),
  );
  await first.proc.stop('SIGKILL');
  if (standin) {
    standin.faults.beforeAppend = null;
    expect(before.map((r) => r.status)).toEqual(Array(keys.length).fill(0));
    const landed = (await events(tableId)).events.filter((e) => e.type === 'BetPlaced');
    expect(landed.length).toBeGreaterThan(0); // the append in flight at the crash
  }
  const restarted = await service(first.dir);
  const retried = await Promise.all(
    keys.map((key, i) => bet(restarted.proc.url, tableId, roundNo, i % 2 ? 'p1' : 'p2', key)),
  );
  expect(retried.map((r) => r.status)).toEqual(Array(keys.length).fill(201));
  before.forEach((answer, i) => {
    if (answer.status === 201) expect(retried[i]).toEqual(answer);
  });
  const stored = await events(tableId);
  expect(stored.ok).toBe(true);
  expect(stored.events.filter((e) => e.type === 'BetPlaced')).toHaveLength(keys.length);
});

it('COUP_PROJECTIONS=worker: the read models fold in the worker thread, on a store connection of its own; the request thread folds nothing', async () => {
  const { proc } = a;
  const tableId = tableIds('READ');
  const roundNo = await openRound(proc.url, tableId, ['p1']);
  expect((await bet(proc.url, tableId, roundNo, 'p1')).status).toBe(201);
  const placed = (await events(tableId)).events.find((e) => e.type === 'BetPlaced')!;
  type Status = { running: boolean; projections: { name: string; checkpoint: number; lag: number }[] };
  const status = async () => (await call(proc.url, 'GET', '/api/projections')).body as Status;
  const caughtUp = (s: Status) =>
    s.projections.every((p) => p.lag === 0 && BigInt(p.checkpoint) >= placed.globalPosition);
  const deadline = Date.now() + 20_000;
  let now = await status();
  while (!caughtUp(now) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    now = await status();
  }
  // The request thread’s runner (which answers this status from the shared read-model file) never started.
  expect(now.running).toBe(false);
  expect(now.projections.filter((p) => !caughtUp({ ...now, projections: [p] }))).toEqual([]);
  const ledger = await call(proc.url, 'GET', '/api/players/p1/ledger');
  expect(ledger.body.accounts.find((a: { tableId: string }) => a.tableId === tableId)).toMatchObject({
    bets: 1,
    staked: 1000,
  });
});
