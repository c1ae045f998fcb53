/**
 * The service on EventStoreDB when the store misbehaves (issue 20, findings 1, 2, 5, 7 and 8 as a client sees them),
 * against the stand-in's faults: a commit timeout after the write, a commit that lands after its timeout, a store
 * that cannot be asked whether a write landed, appends over the server's maximum append size, a stream deleted
 * behind the service, the store stopped and restarted under the service, a store down at start (the last runs the
 * built service: `npm run build` first). Stand-in only.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { EventStoreDBClient } from '@eventstore/db-client';
import { EventStoreDbEventStore } from '@coup/event-store';
import { TableProcessor } from '../src/tables/table-processor';
import { SECRET, startService, type Harness } from './harness';
import { spawnService } from './process';
import { standinForTests, type StandinNode } from './esdb-standin';
import { type Frame, WsClient } from './ws-client';

jest.setTimeout(60_000);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function serviceOn(
  options: Parameters<typeof standinForTests>[0] = {},
  env: Record<string, string> = {},
) {
  const esdb = await standinForTests(options);
  cleanups.push(() => esdb.close());
  const h = await startService({
    COUP_EVENT_STORE: 'eventstoredb',
    EVENTSTORE_CONNECTION_STRING: esdb.connectionString,
    COUP_PROJECTIONS: 'off',
    ...env,
  });
  cleanups.push(() => h.close());
  return { h, node: esdb.standin };
}

async function openRound(h: Harness, tableId: string): Promise<number> {
  const dealer = { token: h.token('dealer') };
  for (const [method, path, options] of [
    ['POST', '/api/tables', { body: { tableId, rules: { dealing: 'rng' } } }],
    ['POST', `/api/tables/${tableId}/players/p1/buy-in`, { body: { amount: 1_000_000 } }],
    ['POST', `/api/tables/${tableId}/players/p2/buy-in`, { body: { amount: 1_000_000 } }],
    ['POST', `/api/tables/${tableId}/shoes`, dealer],
  ] as const) {
    const r = await h.api(method, path, options);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const round = await h.api('POST', `/api/tables/${tableId}/rounds`, dealer);
  expect(round.status).toBe(201);
  return round.body.roundNo as number;
}

const bet = (h: Harness, tableId: string, roundNo: number, key?: string, player = 'p1') =>
  h.api('POST', `/api/tables/${tableId}/rounds/${roundNo}/bets`, {
    body: { playerId: player, spot: 'player', amount: 1000 },
    headers: key ? { 'idempotency-key': key } : {},
  });

async function betsRecorded(node: StandinNode, tableId: string): Promise<number> {
  const store = new EventStoreDbEventStore({ connectionString: node.connectionString });
  try {
    let n = 0;
    for await (const e of store.readStream(`table-${tableId}`)) if (e.type === 'BetPlaced') n++;
    expect((await store.verifyStream(`table-${tableId}`)).ok).toBe(true);
    return n;
  } finally {
    await store.close();
  }
}

/** Polls `get` until `ok` (every 50 ms, at most `ms`); its last value. */
async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: gave up, last ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const health = (h: Harness) => h.api('GET', '/health', { token: null });

it('finding 2: a bet whose append times out after the write is answered as recorded, once', async () => {
  const { h, node } = await serviceOn();
  const tableId = `TO${randomUUID().slice(0, 6)}`;
  const roundNo = await openRound(h, tableId);
  node.faults.failAppends('timeout-after-write', { stream: `table-${tableId}` });
  const answer = await bet(h, tableId, roundNo, 'bet-key-1');
  expect(answer.status).toBe(201);
  expect(await betsRecorded(node, tableId)).toBe(1);
});

it('finding 2: when the store cannot be asked, 503 STORE_OUTCOME_UNKNOWN; the retry with the same key answers the first answer, recorded once', async () => {
  const { h, node } = await serviceOn();
  const tableId = `UK${randomUUID().slice(0, 6)}`;
  const roundNo = await openRound(h, tableId);
  // The bet lands, its answer is lost, and the store goes down before the service can ask.
  node.faults.failAppends('timeout-after-write', { stream: `table-${tableId}` });
  node.faults.beforeAppend = (stream) => {
    if (stream === `table-${tableId}`) setImmediate(() => void node.stop());
  };
  const lost = await bet(h, tableId, roundNo, 'bet-key-2');
  expect(lost.status).toBe(503);
  expect(lost.body).toMatchObject({ code: 'STORE_OUTCOME_UNKNOWN' });
  expect(lost.body.message).toMatch(/same Idempotency-Key/);
  node.faults.reset();
  await node.start();
  const retry = await bet(h, tableId, roundNo, 'bet-key-2');
  expect(retry.status).toBe(201);
  expect(await betsRecorded(node, tableId)).toBe(1);
});

it('finding 2: a commit that lands after its timeout (a slow commit) is answered as recorded, and written once', async () => {
  const { h, node } = await serviceOn({ writeTimeoutMs: 300 });
  const tableId = `SL${randomUUID().slice(0, 6)}`;
  const stream = `table-${tableId}`;
  const roundNo = await openRound(h, tableId);
  const appends = () => node.served.filter((c) => c.stream === stream && c.rpc.endsWith('ppend')).length;
  const before = appends();
  // Each commit of this append takes 500 ms: the server answers a timeout at 300 and the write lands at 500. The
  // adapter looks, finds nothing yet, sends the same events again (which time out and land later too), then finds
  // the first write there.
  node.faults.commitDelayMs = 500;
  const slow = await bet(h, tableId, roundNo, 'slow-1');
  expect(slow.status).toBe(201);
  expect(appends() - before).toBeGreaterThan(1); // the answer was lost and found out, not merely slow
  node.faults.commitDelayMs = 0;
  // The next bet goes in while the resent copy of the first is still on its way: that copy lands as a retry of the
  // first, recorded nothing new, and the chain holds.
  expect((await bet(h, tableId, roundNo, 'next-1', 'p2')).status).toBe(201);
  await node.faults.lateWritesLanded();
  expect(await betsRecorded(node, tableId)).toBe(2);
  const retry = await bet(h, tableId, roundNo, 'slow-1');
  expect([retry.status, retry.body]).toEqual([slow.status, slow.body]);
});

it('finding 5: bets batched past the maximum append size are split at command boundaries; a command over it alone is 422, not 500', async () => {
  const { h, node } = await serviceOn({ maxAppendSize: 2500 });
  const tableId = `AS${randomUUID().slice(0, 6)}`;
  const stream = `table-${tableId}`;
  const roundNo = await openRound(h, tableId);
  // The first bet's append is held at the store until the other eleven wait behind it in the table's queue, so
  // that those are decided together into one append, over the limit.
  const execute = jest.spyOn(h.app.get(TableProcessor), 'execute');
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const received = new Promise<void>((resolve) => {
    node.faults.beforeAppend = (s) => {
      if (s !== stream) return;
      node.faults.beforeAppend = null;
      resolve();
      return held;
    };
  });
  const first = bet(h, tableId, roundNo, 'k-0', 'p2');
  await received;
  const others = Array.from({ length: 11 }, (_, i) =>
    bet(h, tableId, roundNo, `k-${i + 1}`, i % 2 ? 'p2' : 'p1'),
  );
  await until(
    'the bets queued',
    async () => execute.mock.calls.length,
    (n) => n === 12,
  );
  await new Promise((r) => setImmediate(r)); // each call queues its command on the next microtask
  release();
  const answers = await Promise.all([first, ...others]);
  expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
  expect(node.refusedAppends).toEqual([{ stream, limit: 'append' }]); // the batch of eleven, then split
  expect(await betsRecorded(node, tableId)).toBe(12);
  await h.api('POST', `/api/tables/${tableId}/rounds/${roundNo}/close`, { token: h.token('dealer') });
  const deal = await h.api('POST', `/api/tables/${tableId}/rounds/${roundNo}/deal`, {
    token: h.token('dealer'),
  });
  expect(deal.status).toBe(422);
  expect(deal.body).toMatchObject({ code: 'APPEND_TOO_LARGE' });
});

it('finding 7: a table whose stream was deleted in EventStoreDB is refused with 410 STREAM_DELETED', async () => {
  const { h, node } = await serviceOn();
  const tableId = `DEL${randomUUID().slice(0, 6)}`;
  const roundNo = await openRound(h, tableId);
  const client = EventStoreDBClient.connectionString(node.connectionString);
  cleanups.push(() => client.dispose());
  await client.deleteStream(`table-${tableId}`);
  const refused = await bet(h, tableId, roundNo);
  expect(refused.status).toBe(410);
  expect(refused.body).toMatchObject({ code: 'STREAM_DELETED' });
});

it('finding 1: the store stopped and restarted under the service: /health 503 then 200, a live client gets the next bet (no gap, no duplicate), a table opened after is listed', async () => {
  const { h, node } = await serviceOn({}, { COUP_FOLLOW_RETRY_MS: '50', COUP_FOLLOW_RETRY_MAX_MS: '200' });
  const tableId = `RS${randomUUID().slice(0, 6)}`;
  const roundNo = await openRound(h, tableId);
  const ws = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${h.token('dealer')}`);
  cleanups.push(async () => ws.close());
  const bets = (frames: Frame[]) => frames.filter((f) => f.event?.type === 'BetPlaced').length;
  ws.send({ type: 'subscribe', tableId, every: true });
  await ws.until((f) => f.some((m) => m.type === 'view'), 'the view');
  expect((await bet(h, tableId, roundNo)).status).toBe(201);
  await ws.until((f) => bets(f) === 1, 'the first bet');

  await node.stop();
  const down = await until(
    '/health 503',
    () => health(h),
    (r) => r.status === 503,
  );
  expect(down.body.status).toBe('unavailable');
  await node.start();
  const up = await until(
    '/health 200',
    () => health(h),
    (r) => r.status === 200,
  );
  expect(up.body.followers.every((f: { up: boolean }) => f.up)).toBe(true);

  expect((await bet(h, tableId, roundNo, undefined, 'p2')).status).toBe(201);
  await ws.until((f) => bets(f) === 2, 'the bet placed after the restart');
  const view = ws.frames.find((f) => f.type === 'view')!;
  const revisions = ws.events().map((e) => e.revision!);
  expect(revisions).toEqual(revisions.map((_, i) => view.revision! + 1 + i));
  expect(ws.errors()).toEqual([]);

  const later = `RL${randomUUID().slice(0, 6)}`;
  expect(
    (await h.api('POST', '/api/tables', { body: { tableId: later, rules: { dealing: 'rng' } } })).status,
  ).toBe(201);
  await until(
    'the table opened after the restart, listed',
    async () => ((await h.api('GET', '/api/tables')).body as { tableId: string }[]).map((t) => t.tableId),
    (ids) => ids.includes(later),
    5_000,
  );
});

it('finding 8: after a store that was down at start, /health answers 503 starting until the start-up reads have finished, then 200', async () => {
  const esdb = await standinForTests();
  cleanups.push(() => esdb.close());
  const node = esdb.standin;
  await node.stop();
  const h = await startService({
    COUP_EVENT_STORE: 'eventstoredb',
    EVENTSTORE_CONNECTION_STRING: esdb.connectionString,
    COUP_PROJECTIONS: 'off',
  });
  cleanups.push(() => h.close());
  expect((await health(h)).body).toMatchObject({ status: 'unavailable', store: { reachable: false } });
  // The store answers again, all but the start-up's read of $all (the table list): start-up cannot finish yet.
  node.faults.dropReads = (stream) => stream === '$all';
  await node.start();
  const starting = await until(
    'the store reachable',
    () => health(h),
    (r) => r.body.store.reachable === true,
  );
  expect([starting.status, starting.body.status]).toEqual([503, 'starting']);
  node.faults.dropReads = null;
  await until(
    '/health 200',
    () => health(h),
    (r) => r.status === 200,
  );
});

it('finding 8: a store that is down at start does not stop the process: /health says unavailable until the store answers, then the service serves', async () => {
  const esdb = await standinForTests();
  cleanups.push(() => esdb.close());
  await esdb.standin.stop(); // the port now refuses connections
  const dir = mkdtempSync(join(tmpdir(), 'coup-esdb-down-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const proc = await spawnService(
    dir,
    {
      COUP_EVENT_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: esdb.connectionString,
      COUP_PROJECTIONS: 'off',
    },
    { waitHealthy: false },
  );
  cleanups.push(() => proc.stop('SIGKILL'));
  const health = async () => {
    try {
      const res = await fetch(`${proc.url}/health`);
      return { status: res.status, body: (await res.json()) as { status: string } };
    } catch {
      return null;
    }
  };
  const until = async (what: string, ok: (h: Awaited<ReturnType<typeof health>>) => boolean) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.child.exitCode !== null)
        throw new Error(
          `the service exited with ${proc.child.exitCode} (a read of the store at start outside startWhenStoreAnswers, ` +
            `src/store/store-startup.ts?):\n${proc.output()}`,
        );
      if (ok(await health())) return;
      if (Date.now() > deadline) throw new Error(`${what}: gave up\n${proc.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await until('/health answers, unavailable', (h) => h?.status === 503 && h.body.status === 'unavailable');
  await new Promise((r) => setTimeout(r, 500));
  expect(proc.child.exitCode).toBeNull();
  await esdb.standin.start();
  await until('/health ok once the store answers', (h) => h?.status === 200);
  const admin = signToken(SECRET, { sub: 'admin-1', role: 'admin' });
  const open = await fetch(`${proc.url}/api/tables`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tableId: `UP${randomUUID().slice(0, 6)}`, rules: { dealing: 'rng' } }),
  });
  expect(open.status).toBe(201);
});
