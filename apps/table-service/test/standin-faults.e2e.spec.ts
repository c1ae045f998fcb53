/**
 * The service on EventStoreDB when the store misbehaves (issue 20, findings 2, 5 and 7 as a client sees them),
 * against the stand-in's faults: a commit timeout after the write, a store that cannot be asked whether a write
 * landed, appends over the server's maximum append size, a stream deleted behind the service, a store down at start
 * (the last runs the built service: `npm run build` first). Stand-in only.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { EventStoreDBClient } from '@eventstore/db-client';
import { EventStoreDbEventStore } from '@coup/event-store';
import { SECRET, startService, type Harness } from './harness';
import { spawnService } from './process';
import { standinForTests, type StandinNode } from './esdb-standin';

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
    return n;
  } finally {
    await store.close();
  }
}

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
  node.faults.beforeAppend = () => setImmediate(() => void node.stop());
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

it('finding 5: bets batched past the maximum append size are split at command boundaries; a command over it alone is 422, not 500', async () => {
  const { h, node } = await serviceOn({ maxAppendSize: 2500 });
  const tableId = `AS${randomUUID().slice(0, 6)}`;
  const roundNo = await openRound(h, tableId);
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) => bet(h, tableId, roundNo, `k-${i}`, i % 2 ? 'p1' : 'p2')),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
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
