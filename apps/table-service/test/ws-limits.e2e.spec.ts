/**
 * The live push's limits against the built service in its own process (`npm run build` first): every message is
 * checked against the protocol's schema and refused with a typed error frame, the process never exits on one;
 * a frame over the size limit closes the socket; sockets per principal are capped; a resume too far behind gets a
 * fresh view; messages are rate-limited per socket; subscribes to tables that do not exist create nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken, type Role } from '@coup/auth';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';
import { WsClient, openTableForBets, rest } from './ws-client';

jest.setTimeout(60_000);

const LIMITS = {
  COUP_WS_MAX_FRAME_BYTES: '2048',
  COUP_WS_MAX_SOCKETS_PER_PRINCIPAL: '3',
  COUP_WS_MAX_RESUME_EVENTS: '20',
  COUP_WS_MESSAGES_PER_SECOND: '10',
};
const BETS = 30;

const token = (role: Role, sub = `${role}-1`) => signToken(SECRET, { sub, role });
let dataDir: string;
let service: ServiceProcess;
let head: number;
const ws = (t: string) => WsClient.open(`${service.url.replace('http', 'ws')}/ws?token=${t}`);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-ws-limits-'));
  service = await spawnService(dataDir, LIMITS);
  const table = await openTableForBets(
    service.url,
    { admin: token('admin'), dealer: token('dealer'), player: token('player', 'p1') },
    'L1',
    'p1',
  );
  for (let i = 0; i < BETS; i++) await table.bet();
  const watcher = await ws(token('analyst'));
  watcher.send({ type: 'subscribe', tableId: 'L1' });
  await watcher.until((f) => f.some((x) => x.type === 'view'), 'view');
  head = watcher.frames.find((x) => x.type === 'view')!.revision!;
  watcher.close();
});
afterAll(async () => {
  await service?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The service answers /health and its process has not exited. */
async function stillUp(): Promise<void> {
  expect((await fetch(`${service.url}/health`)).status).toBe(200);
  expect(service.child.exitCode).toBeNull();
}

describe('every message is checked before it is used', () => {
  it.each([
    ['-2', -2],
    ['-1e9', -1e9],
    ['a huge number', 1e300],
    ['past the safe integers', 2 ** 53],
    ['a fraction', 1.5],
    ['a negative string', '-2'],
    ['a non-numeric string', 'abc'],
    ['an object', { $gt: 0 }],
    ['an array', [1]],
    ['null', null],
    ['a boolean', true],
  ])('fromRevision %s is refused 400 and the process stays up', async (_name, fromRevision) => {
    const c = await ws(token('player', 'p1'));
    c.send({ type: 'subscribe', tableId: 'L1', fromRevision });
    c.send({ type: 'ping' });
    await c.until((f) => f.some((x) => x.type === 'pong'), 'pong');
    expect(c.errors()).toEqual([
      {
        type: 'error',
        statusCode: 400,
        code: 'INVALID_MESSAGE',
        message: expect.stringContaining('fromRevision'),
      },
    ]);
    expect(c.frames.some((x) => x.type === 'view' || x.type === 'resumed')).toBe(false);
    c.close();
    await stillUp();
  });

  it('refuses what is not a message of the protocol, each with a typed error frame, and keeps the socket', async () => {
    const c = await ws(token('dealer'));
    const bad: [string | Buffer, boolean, string][] = [
      ['not json', false, 'INVALID_JSON'],
      [Buffer.from([1, 2, 3]), true, 'INVALID_MESSAGE'],
      ['[]', false, 'INVALID_MESSAGE'],
      ['null', false, 'INVALID_MESSAGE'],
      ['"subscribe"', false, 'INVALID_MESSAGE'],
      ['{"type":"dance"}', false, 'INVALID_MESSAGE'],
      ['{"type":"subscribe"}', false, 'INVALID_MESSAGE'],
      ['{"type":"subscribe","tableId":"L1","extra":1}', false, 'INVALID_MESSAGE'],
      ['{"type":"subscribe","tableId":"L1","__proto__":{"fromRevision":-2}}', false, 'INVALID_MESSAGE'],
      ['{"type":"subscribe","tableId":{"toString":"L1"}}', false, 'INVALID_MESSAGE'],
      ['{"type":"ping","constructor":{"prototype":{}}}', false, 'INVALID_MESSAGE'],
    ];
    for (const [data, binary] of bad) c.sendRaw(data, binary);
    c.send({ type: 'ping' });
    await c.until((f) => f.some((x) => x.type === 'pong'), 'pong');
    expect(c.errors().map((e) => [e.statusCode, e.code])).toEqual(bad.map(([, , code]) => [400, code]));
    expect(c.closed).toBeNull();
    c.close();
    await stillUp();
  });
});

describe('limits', () => {
  it('a frame over COUP_WS_MAX_FRAME_BYTES closes the socket (1009); one under it is read', async () => {
    const under = await ws(token('dealer'));
    under.sendRaw(JSON.stringify({ type: 'ping', pad: 'x'.repeat(1900) }));
    await under.until((f) => f.some((x) => x.type === 'error'), 'error');
    expect(under.errors()[0]).toMatchObject({ statusCode: 400, code: 'INVALID_MESSAGE' });

    const over = await ws(token('dealer', 'd-big'));
    over.sendRaw(JSON.stringify({ type: 'ping', pad: 'x'.repeat(3000) }));
    expect((await over.untilClosed()).code).toBe(1009);
    expect(over.frames.filter((x) => x.type !== 'hello')).toEqual([]);
    under.close();
    await stillUp();
  });

  it('a principal holds at most COUP_WS_MAX_SOCKETS_PER_PRINCIPAL sockets; the next is refused (429, close 4429)', async () => {
    const mine = await Promise.all([1, 2, 3].map(() => ws(token('player', 'p-cap'))));
    for (const c of mine) await c.until((f) => f.some((x) => x.type === 'hello'), 'hello');
    const extra = await ws(token('player', 'p-cap'));
    expect((await extra.untilClosed()).code).toBe(4429);
    expect(extra.frames).toEqual([
      { type: 'error', statusCode: 429, code: 'TOO_MANY_SOCKETS', message: expect.stringContaining('3') },
    ]);
    // Another principal is not affected, and a closed socket frees its place.
    const other = await ws(token('player', 'p-other'));
    await other.until((f) => f.some((x) => x.type === 'hello'), 'hello');
    mine[0]!.close();
    await mine[0]!.untilClosed();
    let again = await ws(token('player', 'p-cap'));
    // The server sees the close a moment after the client does: retry until the place is free.
    for (let i = 0; i < 50 && again.frames[0]?.code === 'TOO_MANY_SOCKETS'; i++) {
      await again.untilClosed();
      again = await ws(token('player', 'p-cap'));
      await again.until((f) => f.length > 0, 'first frame');
    }
    await again.until((f) => f.some((x) => x.type === 'hello'), 'hello');
    for (const c of [...mine, other, again]) c.close();
    await stillUp();
  });

  it('a resume within COUP_WS_MAX_RESUME_EVENTS gets the missed events; one further behind gets a fresh view', async () => {
    const near = await ws(token('dealer'));
    near.send({ type: 'subscribe', tableId: 'L1', fromRevision: head - 20, every: true });
    await near.until((f) => f.some((x) => x.type === 'resumed'), 'resumed');
    expect(near.events().map((e) => e.revision)).toEqual(Array.from({ length: 20 }, (_, i) => head - 19 + i));

    const far = await ws(token('dealer'));
    far.send({ type: 'subscribe', tableId: 'L1', fromRevision: head - 21, every: true });
    await far.until((f) => f.some((x) => x.type === 'view'), 'view');
    expect(far.frames.find((x) => x.type === 'view')).toMatchObject({ revision: head });
    expect(far.events()).toEqual([]);
    for (const c of [near, far]) c.close();
  });

  it('messages beyond COUP_WS_MESSAGES_PER_SECOND are refused with one 429 error frame; the socket stays', async () => {
    const c = await ws(token('supervisor'));
    await c.until((f) => f.some((x) => x.type === 'hello'), 'hello');
    const started = Date.now();
    for (let i = 0; i < 200; i++) c.send({ type: 'ping' });
    await c.until((f) => f.some((x) => x.code === 'RATE_LIMITED'), 'RATE_LIMITED');
    const limited = c.errors();
    expect(limited).toEqual([
      {
        type: 'error',
        statusCode: 429,
        code: 'RATE_LIMITED',
        message: expect.any(String),
        retryAfterMs: expect.any(Number),
      },
    ]);
    // A burst of twice the rate, then the rate: far fewer than the 200 sent were answered.
    const elapsed = (Date.now() - started) / 1000;
    const pongs = () => c.frames.filter((x) => x.type === 'pong').length;
    expect(pongs()).toBeLessThanOrEqual(20 + Math.ceil(10 * elapsed) + 1);
    // Once the bucket has refilled, the socket is answered again (should the last of the 200 pings still be
    // arriving and take the refill, the next try after another wait is answered).
    let answered = false;
    for (let i = 0; i < 5 && !answered; i++) {
      await new Promise((r) => setTimeout(r, limited[0]!['retryAfterMs'] as number));
      c.send({ type: 'ping', id: `after-${i}` });
      await c
        .until(
          (f) => f.some((x) => x.type === 'pong' && x['id'] === `after-${i}`),
          'pong after the wait',
          1000,
        )
        .then(() => (answered = true))
        .catch(() => undefined);
    }
    expect(answered).toBe(true);
    expect(c.closed).toBeNull();
    c.close();
  });

  it('subscribes to tables that do not exist answer 404 and load nothing', async () => {
    const loaded = async () => {
      const metrics = String((await rest(service.url, token('admin'), 'GET', '/metrics')).body);
      return Number(/^coup_tables_loaded (\d+)/m.exec(metrics)?.[1]);
    };
    const before = await loaded();
    expect(Number.isInteger(before)).toBe(true);
    const c = await ws(token('analyst', 'a-unknown'));
    // One at a time (a later subscribe supersedes one still in progress, which then answers nothing).
    const subscribes = [
      { tableId: 'NOPE-0' },
      { tableId: 'NOPE-1' },
      { tableId: 'NOPE-2' },
      { tableId: 'NOPE-0', fromRevision: 3 },
    ];
    for (const [i, s] of subscribes.entries()) {
      c.send({ type: 'subscribe', ...s });
      await c.until((f) => f.filter((x) => x.type === 'error').length === i + 1, `error ${i + 1}`);
    }
    expect(new Set(c.errors().map((e) => `${e.statusCode} ${e.code}`))).toEqual(
      new Set(['404 UNKNOWN_TABLE']),
    );
    expect(await loaded()).toBe(before);
    c.close();
  });
});
