/**
 * A live socket holds only while its token does: a staff member's socket is closed (an error frame, then close
 * 4401 with the token's code as the reason) when the account signs out, is disabled, or has its roles, tables or
 * password changed; any socket is closed when its token expires (an operator's player token, a staff token). Other
 * sockets keep their feed. Over real WebSockets against the service in this process.
 */
import { signToken } from '@coup/auth';
import { SECRET, startService, type Harness } from './harness';
import { WsClient } from './ws-client';

jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery';
const TABLE = 'S1';
let h: Harness;
let buyIns = 0;

beforeAll(async () => {
  h = await startService({}, { scrypt: { log2N: 10, r: 8, p: 1 } });
  const open = await h.api('POST', '/api/tables', { body: { tableId: TABLE, rules: { dealing: 'rng' } } });
  expect(open.status).toBe(201);
});
afterAll(async () => {
  await h?.close();
});

const admin = () => h.token('admin', 'boss');

async function account(username: string, roles: string[]): Promise<void> {
  const r = await h.api('POST', '/api/staff', {
    token: admin(),
    body: { username, password: PASSWORD, roles },
  });
  expect(r.status).toBe(201);
}

async function signIn(username: string, role?: string): Promise<string> {
  const r = await h.api('POST', '/api/auth/sign-in', {
    token: null,
    body: { username, password: PASSWORD, ...(role ? { role } : {}) },
  });
  expect([r.status, r.body.code]).toEqual([200, undefined]);
  return r.body.token as string;
}

/** A socket subscribed to the table with `every: true`, its view received. */
async function watching(token: string): Promise<WsClient> {
  const ws = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${token}`);
  ws.send({ type: 'subscribe', tableId: TABLE, every: true });
  await ws.until((f) => f.some((x) => x.type === 'view'), 'the view');
  return ws;
}

/** The socket was ended for its token: a 401 error frame, then close 4401 with the token's code. */
async function expectEnded(ws: WsClient, reason: string): Promise<void> {
  const closed = await ws.untilClosed();
  expect(closed).toEqual({ code: 4401, reason });
  expect(ws.frames.at(-1)).toMatchObject({ type: 'error', statusCode: 401, code: 'UNAUTHENTICATED' });
}

/** The socket still follows the table: a table event reaches it. */
async function expectLive(ws: WsClient): Promise<void> {
  const before = ws.events().length;
  const r = await h.api('POST', `/api/tables/${TABLE}/players/p${++buyIns}/buy-in`, {
    token: admin(),
    body: { amount: 1_000 },
  });
  expect(r.status).toBe(200);
  await ws.until((f) => f.filter((x) => x.type === 'event').length > before, 'an event');
  expect(ws.closed).toBeNull();
}

it('signing out closes the sockets of the account; another account keeps its feed', async () => {
  await account('sue', ['supervisor']);
  await account('sam', ['supervisor']);
  const sue = await signIn('sue');
  const socket = await watching(sue);
  const second = await watching(sue);
  const other = await watching(await signIn('sam'));
  expect((await h.api('POST', '/api/auth/sign-out', { token: sue })).status).toBe(204);
  expect((await h.api('GET', '/api/tables', { token: sue })).status).toBe(401);
  await expectEnded(socket, 'TOKEN_REVOKED');
  await expectEnded(second, 'TOKEN_REVOKED');
  expect(socket.frames.at(-1)!.message).toMatch(/sign in again/);
  await expectLive(other);
  other.close();
});

it('disabling the account, changing its roles, tables or password closes its sockets', async () => {
  const changes: [string, string, string, unknown][] = [
    ['dee', 'POST', '/api/staff/dee/disable', { reason: 'left the casino' }],
    ['ron', 'PUT', '/api/staff/ron/roles', { roles: ['analyst'] }],
    ['tim', 'PUT', '/api/staff/tim/tables', { tables: ['OTHER'] }],
    ['pat', 'POST', '/api/staff/pat/password', { password: 'a brand new password' }],
  ];
  for (const [username, method, path, body] of changes) {
    await account(username, ['supervisor']);
    const ws = await watching(await signIn(username));
    const changed = await h.api(method, path, { token: admin(), body });
    expect([path, changed.status]).toEqual([path, 200]);
    await expectEnded(ws, 'TOKEN_REVOKED');
  }
});

it('a socket is closed when its token expires: an operator’s player token, a staff token', async () => {
  await account('eva', ['supervisor']);
  const staffToken = await signIn('eva');
  const claims = JSON.parse(Buffer.from(staffToken.split('.')[1]!, 'base64url').toString()) as {
    gen: number;
  };
  // Tokens that end 2 to 3 s from now (exp is in whole seconds).
  const now = Math.floor(Date.now() / 1000);
  const player = signToken(SECRET, { sub: 'p1', role: 'player', expiresInSeconds: 3, now });
  const shortStaff = signToken(SECRET, {
    sub: 'eva',
    role: 'supervisor',
    expiresInSeconds: 3,
    now,
    session: { roles: ['supervisor'], generation: claims.gen },
  });
  const sockets = [await watching(player), await watching(shortStaff)];
  const lasting = await watching(staffToken);
  for (const ws of sockets) await expectEnded(ws, 'TOKEN_EXPIRED');
  expect(Date.now()).toBeGreaterThanOrEqual((now + 3) * 1000);
  await expectLive(lasting);
  lasting.close();
});

it('no log line carries a token from a socket’s URL, refused or admitted, nor from a query string', async () => {
  const lines: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const logged = await startService({ LOG_LEVEL: 'debug' });
  try {
    const good = logged.token('supervisor', 'sue-2');
    const bad = `${good.slice(0, -4)}AAAA`;
    const expired = signToken(SECRET, { sub: 'p9', role: 'player', expiresInSeconds: -60 });
    for (const token of [good, bad, expired]) {
      const ws = await WsClient.open(`${logged.url.replace('http', 'ws')}/ws?token=${token}`);
      await ws.until((f) => f.length > 0, 'the first frame');
      ws.close();
      await ws.untilClosed();
    }
    expect((await logged.api('GET', `/api/tables?token=${good}`, { token: bad })).status).toBe(401);
    expect(lines.join('')).toContain('live socket refused'); // the refusals were logged, without their tokens
    for (const token of [good, bad, expired]) expect(lines.join('')).not.toContain(token.split('.')[2]);
  } finally {
    await logged.close();
    write.mockRestore();
  }
});
