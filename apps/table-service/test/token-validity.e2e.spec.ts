/**
 * Tokens over the wire: a token not valid yet (`nbf`, or `iat` in the future beyond the clock skew) is refused on
 * every route and on the WebSocket, and the skew is the configured one (COUP_TOKEN_CLOCK_SKEW_S).
 */
import { signToken, type Role } from '@coup/auth';
import WebSocket from 'ws';
import { SECRET, startService, type Harness } from './harness';

jest.setTimeout(60_000);

const nowS = () => Math.floor(Date.now() / 1000);
const YEAR = 365 * 24 * 3600;
const tokenWith = (role: Role, sub: string, claims: { now?: number; notBefore?: number }) =>
  signToken(SECRET, { sub, role, expiresInSeconds: 2 * YEAR, ...claims });

/** The first frame the server sends on a socket opened with this token, and the close code. */
async function wsGreeting(h: Harness, token: string): Promise<{ frame: unknown; closeCode: number | null }> {
  const socket = new WebSocket(`${h.url.replace('http', 'ws')}/ws?token=${token}`);
  return new Promise((resolve, reject) => {
    let frame: unknown = null;
    socket.on('message', (raw) => {
      frame = JSON.parse(raw.toString());
      if ((frame as { type: string }).type === 'hello') {
        socket.close();
        resolve({ frame, closeCode: null });
      }
    });
    socket.on('close', (code) => resolve({ frame, closeCode: code }));
    socket.on('error', reject);
  });
}

describe('with the default skew', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startService();
  });
  afterAll(async () => {
    await h.close();
  });

  it('an admin token not valid for a year opens no table (401), nor does one issued an hour from now', async () => {
    for (const token of [
      tokenWith('admin', 'pit', { notBefore: nowS() + YEAR }),
      tokenWith('admin', 'pit', { now: nowS() + 3600 }),
    ]) {
      const opened = await h.api('POST', '/api/tables', { token, body: { tableId: 'NBF1' } });
      expect([opened.status, opened.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      expect(opened.body.message).toMatch(/not valid yet/);
      // asked twice: a refusal is never remembered, and the table was never opened
      expect((await h.api('POST', '/api/tables', { token, body: { tableId: 'NBF1' } })).status).toBe(401);
    }
    expect(JSON.stringify((await h.api('GET', '/api/tables')).body)).not.toContain('NBF1');
  });

  it('a token whose nbf or iat is a few seconds ahead (within the skew) is accepted', async () => {
    const token = tokenWith('admin', 'pit', { now: nowS() + 5, notBefore: nowS() + 5 });
    expect((await h.api('POST', '/api/tables', { token, body: { tableId: 'SKEW1' } })).status).toBe(201);
  });

  it('the WebSocket refuses a token not valid yet (4401) and greets a valid one', async () => {
    const early = await wsGreeting(h, tokenWith('player', 'p1', { notBefore: nowS() + YEAR }));
    expect(early.closeCode).toBe(4401);
    expect(early.frame).toMatchObject({ type: 'error', code: 'UNAUTHENTICATED' });
    const valid = await wsGreeting(h, tokenWith('player', 'p1', {}));
    expect(valid.frame).toMatchObject({ type: 'hello', id: 'p1' });
  });

  it('a refused WebSocket token is counted like an HTTP one (transport ws)', async () => {
    const wsFailures = async () =>
      Number(
        /coup_auth_failures_total\{transport="ws",outcome="refused"\} (\d+)/.exec(
          String((await h.api('GET', '/metrics')).body),
        )?.[1] ?? 0,
      );
    const before = await wsFailures();
    expect((await wsGreeting(h, 'not-a-token')).closeCode).toBe(4401);
    expect((await wsGreeting(h, tokenWith('player', 'p1', { notBefore: nowS() + YEAR }))).closeCode).toBe(
      4401,
    );
    expect(await wsFailures()).toBe(before + 2);
  });
});

describe('with COUP_TOKEN_CLOCK_SKEW_S=0', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startService({ COUP_TOKEN_CLOCK_SKEW_S: '0' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('a token issued 20 s ahead of this clock is not valid yet', async () => {
    const token = tokenWith('admin', 'pit', { now: nowS() + 20 });
    const refused = await h.api('GET', '/api/tables', { token });
    expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await h.api('GET', '/api/tables', { token: tokenWith('admin', 'pit', {}) })).status).toBe(200);
  });
});
