/**
 * Bets, clears and rebets over the live socket, on two service processes sharing one data folder (the built service:
 * `npm run build` first): each is acked with the answer its REST route gives, retries with the same key (over
 * either socket, over REST, at once) get the first answer and record nothing new, and refusals (roles, validation,
 * parameters, keys, the decider, the command limits shared with REST) are the route's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken, type Role } from '@coup/auth';
import { createEventStore } from '@coup/event-store';
import { tableStream } from '@coup/table';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';
import { WsClient, rest, type Frame } from './ws-client';

jest.setTimeout(120_000);

const TABLE = 'B1';
const LIMIT = 10;
let dataDir: string;
let a: ServiceProcess;
let b: ServiceProcess;
const token = (role: Role, sub = `${role}-1`) => signToken(SECRET, { sub, role });
const sockets: WsClient[] = [];

async function socket(service: ServiceProcess, role: Role, sub?: string): Promise<WsClient> {
  const ws = await WsClient.open(`${service.url.replace('http', 'ws')}/ws?token=${token(role, sub)}`);
  sockets.push(ws);
  await ws.until((f) => f.some((x) => x.type === 'hello'), 'hello');
  return ws;
}

/** Sends a command `times` times at once and waits for as many acks of its key. */
async function acks(ws: WsClient, message: Record<string, unknown>, times = 1): Promise<Frame[]> {
  const key = message['key'];
  const before = ws.frames.filter((f) => f.type === 'ack' && f['key'] === key).length;
  for (let i = 0; i < times; i++) ws.send(message);
  await ws.until(
    (f) => f.filter((x) => x.type === 'ack' && x['key'] === key).length >= before + times,
    `${times} acks of ${String(key)}`,
  );
  return ws.frames.filter((f) => f.type === 'ack' && f['key'] === key).slice(before);
}

/** An answer without its correlation id (each request has its own). */
function answer(status: number, body: unknown): { status: number; body: unknown } {
  if (body && typeof body === 'object' && 'correlationId' in body) {
    const { correlationId: _id, ...rest } = body as Record<string, unknown>;
    return { status, body: rest };
  }
  return { status, body };
}
const ackAnswer = (f: Frame) => answer(f['status'] as number, f['body']);

async function restKeyed(
  service: ServiceProcess,
  as: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
) {
  const res = await fetch(service.url + path, {
    method,
    headers: {
      authorization: `Bearer ${as}`,
      'idempotency-key': key,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return answer(res.status, await res.json());
}

async function ok(service: ServiceProcess, as: string, method: string, path: string, body?: unknown) {
  const r = await rest(service.url, as, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Record<string, unknown>;
}

async function betEvents(playerId: string): Promise<number> {
  const store = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite'), readonly: true });
  let n = 0;
  try {
    for await (const e of store.readStream(tableStream(TABLE)))
      if (e.type === 'BetPlaced' && (e.data as { playerId: string }).playerId === playerId) n++;
  } finally {
    await store.close();
  }
  return n;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-live-bets-'));
  // A counts commands per principal as a floor does (low, to reach it); B is generous.
  a = await spawnService(dataDir, { COUP_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  b = await spawnService(dataDir, { COUP_PROJECTIONS: 'off' });
  await ok(b, token('admin'), 'POST', '/api/tables', { tableId: TABLE, rules: { dealing: 'rng' } });
  for (const p of ['p1', 'p2', 'p3', 'p9'])
    await ok(b, token('admin'), 'POST', `/api/tables/${TABLE}/players/${p}/buy-in`, { amount: 100_000 });
  await ok(b, token('dealer'), 'POST', `/api/tables/${TABLE}/shoes`);
  await ok(b, token('dealer'), 'POST', `/api/tables/${TABLE}/rounds`);
});

afterAll(async () => {
  for (const ws of sockets) ws.close();
  await a?.stop('SIGKILL');
  await b?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const bet = (key: string, amount = 500, extra: Record<string, unknown> = {}) => ({
  type: 'bet',
  key,
  tableId: TABLE,
  roundNo: 1,
  playerId: 'p1',
  spot: 'banker',
  amount,
  ...extra,
});

it('a bet over the socket is acked with the REST answer; every retry, anywhere, gets the first answer and records nothing new', async () => {
  const onA = await socket(a, 'player', 'p1');
  const onB = await socket(b, 'player', 'p1');
  const [first] = await acks(onA, bet('k1'));
  expect(first).toMatchObject({
    status: 201,
    body: { roundNo: 1, spot: 'banker', amount: 500, spotTotal: 500 },
  });
  const again = (await acks(onA, bet('k1')))[0]!;
  expect(ackAnswer(again)).toEqual(ackAnswer(first!));
  // The same key over REST on B, and over B's socket.
  const path = `/api/tables/${TABLE}/rounds/1/bets`;
  expect(
    await restKeyed(b, token('player', 'p1'), 'POST', path, 'k1', {
      playerId: 'p1',
      spot: 'banker',
      amount: 500,
    }),
  ).toEqual(ackAnswer(first!));
  expect(ackAnswer((await acks(onB, bet('k1')))[0]!)).toEqual(ackAnswer(first!));
  // Another body under the same key: the route's 422.
  expect(ackAnswer((await acks(onA, bet('k1', 2500)))[0]!)).toMatchObject({
    status: 422,
    body: { code: 'IDEMPOTENCY_KEY_REUSED' },
  });

  // Retries at once, on both processes: one bet, one answer.
  const [burstA, burstB] = await Promise.all([acks(onA, bet('k2', 100), 3), acks(onB, bet('k2', 100), 2)]);
  const answers = [...burstA, ...burstB].map(ackAnswer);
  expect(answers[0]).toMatchObject({ status: 201, body: { amount: 100, spotTotal: 600 } });
  for (const x of answers) expect(x).toEqual(answers[0]);
  expect(await betEvents('p1')).toBe(2);
});

it('a clear and a rebet over the socket: acked as their routes answer, retries the same', async () => {
  const p2 = await socket(a, 'player', 'p2');
  const p3 = await socket(b, 'player', 'p3');
  await acks(p2, { ...bet('p2-bet'), playerId: 'p2' });
  await acks(p3, { ...bet('p3-bet', 2500), playerId: 'p3', spot: 'player' });
  const clear = { type: 'clear', key: 'c1', tableId: TABLE, roundNo: 1, playerId: 'p2' };
  const cleared = await acks(p2, clear, 2);
  expect(cleared[0]).toMatchObject({ status: 200, body: { returned: 500 } });
  expect(ackAnswer(cleared[1]!)).toEqual(ackAnswer(cleared[0]!));
  expect(
    await restKeyed(b, token('player', 'p2'), 'DELETE', `/api/tables/${TABLE}/rounds/1/bets/p2`, 'c1'),
  ).toEqual(ackAnswer(cleared[0]!));

  await ok(b, token('dealer'), 'POST', `/api/tables/${TABLE}/rounds/1/close`);
  await ok(b, token('dealer'), 'POST', `/api/tables/${TABLE}/rounds/1/deal`);
  await ok(a, token('dealer'), 'POST', `/api/tables/${TABLE}/rounds`);
  const rebet = { type: 'rebet', key: 'r1', tableId: TABLE, roundNo: 2, playerId: 'p3' };
  const rebets = await acks(p3, rebet, 2);
  expect(rebets[0]).toMatchObject({ status: 201 });
  expect(ackAnswer(rebets[1]!)).toEqual(ackAnswer(rebets[0]!));
  expect(
    await restKeyed(a, token('player', 'p3'), 'POST', `/api/tables/${TABLE}/rounds/2/rebet`, 'r1', {
      playerId: 'p3',
    }),
  ).toEqual(ackAnswer(rebets[0]!));
});

it('refusals are the REST route’s own: roles, validation, parameters, keys, the decider', async () => {
  const path = (round: string) => `/api/tables/${TABLE}/rounds/${round}/bets`;
  const cases: [Role, string, Record<string, unknown>, string, unknown][] = [
    ['compliance', 'c-1', bet('x1'), path('2'), { playerId: 'p1', spot: 'banker', amount: 500 }],
    ['player', 'p1', bet('x2', 0, { roundNo: 2 }), path('2'), { playerId: 'p1', spot: 'banker', amount: 0 }],
    [
      'player',
      'p1',
      bet('x3', 500, { roundNo: 2, spot: 'middle' }),
      path('2'),
      { playerId: 'p1', spot: 'middle', amount: 500 },
    ],
    [
      'player',
      'p1',
      bet('x4', 500, { roundNo: 'abc' }),
      path('abc'),
      { playerId: 'p1', spot: 'banker', amount: 500 },
    ],
    [
      'player',
      'p1',
      bet('x5', 500, { roundNo: 1 }),
      path('1'),
      { playerId: 'p1', spot: 'banker', amount: 500 },
    ],
    [
      'player',
      'p1',
      bet('x6', 500, { roundNo: 2, playerId: 'p2' }),
      path('2'),
      { playerId: 'p2', spot: 'banker', amount: 500 },
    ],
    [
      'player',
      'p1',
      bet('has space', 500, { roundNo: 2 }),
      path('2'),
      { playerId: 'p1', spot: 'banker', amount: 500 },
    ],
  ];
  // On B, which counts generously: these are not about the limits.
  for (const [role, sub, message, route, body] of cases) {
    const ws = await socket(b, role, sub);
    const [acked] = await acks(ws, message);
    const viaRest = await restKeyed(b, token(role, sub), 'POST', route, String(message['key']), body);
    expect({ message, answer: ackAnswer(acked!) }).toEqual({ message, answer: viaRest });
    expect(viaRest.status).toBeGreaterThanOrEqual(400);
    ws.close();
  }
});

it('socket bets and REST commands count against the same limit: past it, the route’s 429', async () => {
  const ws = await socket(a, 'player', 'p9');
  const path = `/api/tables/${TABLE}/rounds/2/bets`;
  for (let i = 0; i < LIMIT / 2; i++)
    expect(
      (
        await restKeyed(a, token('player', 'p9'), 'POST', path, `rl-${i}`, {
          playerId: 'p9',
          spot: 'tie',
          amount: 100,
        })
      ).status,
    ).toBe(201);
  for (let i = LIMIT / 2; i < LIMIT; i++)
    expect(
      (await acks(ws, { ...bet(`rl-${i}`, 100, { roundNo: 2, playerId: 'p9', spot: 'tie' }) }))[0],
    ).toMatchObject({ status: 201 });
  const [over] = await acks(ws, bet('rl-over', 100, { roundNo: 2, playerId: 'p9', spot: 'tie' }));
  expect(over).toMatchObject({
    status: 429,
    body: { statusCode: 429, code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } },
  });
  const viaRest = await restKeyed(a, token('player', 'p9'), 'POST', path, 'rl-rest', {
    playerId: 'p9',
    spot: 'tie',
    amount: 100,
  });
  const message = /^too many commands from this caller: at most 10 a minute; retry in \d+ s$/;
  expect(viaRest).toMatchObject({
    status: 429,
    body: { code: 'RATE_LIMITED', message: expect.stringMatching(message) },
  });
  expect((over!['body'] as { message: string }).message).toMatch(message);
});
