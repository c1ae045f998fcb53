/**
 * Rate limits: commands per principal and per client address, and failed authentications per client address, each
 * answered 429 with Retry-After past its limit, recording nothing; failed authentications are counted and logged
 * without the token. Client addresses come from X-Forwarded-For, which only a trusted proxy may set.
 */
import { eventRows, openRound } from './http-helpers';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

const bet = (h: Harness, token: string, headers: Record<string, string> = {}) =>
  h.api('POST', '/api/tables/R1/rounds/1/bets', {
    token,
    body: { playerId: 'p1', spot: 'player', amount: 100 },
    headers,
  });

function expectTooMany(
  r: { status: number; body: { code?: string; message?: string; details?: unknown }; headers: Headers },
  code: string,
): void {
  expect([r.status, r.body.code]).toEqual([429, code]);
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  expect(r.body.details).toEqual({ retryAfterSeconds: retryAfter });
  expect(r.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('commands per principal (COUP_RATE_LIMIT_PER_MINUTE)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startService({ COUP_RATE_LIMIT_PER_MINUTE: '5' });
    await openRound(h, 'R1');
  });
  afterAll(() => h.close());

  it('the sixth command of a minute is 429 RATE_LIMITED with Retry-After and records nothing', async () => {
    const player = h.token('player', 'p1');
    for (let i = 0; i < 5; i++) expect((await bet(h, player)).status).toBe(201);
    const before = await eventRows(h);
    const refused = await bet(h, player);
    expectTooMany(refused, 'RATE_LIMITED');
    expect(refused.body.message).toMatch(/at most 5 a minute/);
    expect(await eventRows(h)).toBe(before);
    // Reads are not commands; another principal at the same address has its own allowance.
    expect((await h.api('GET', '/api/tables/R1', { token: player })).status).toBe(200);
    expect((await bet(h, h.token('dealer', 'dealer-7'))).status).toBe(201);
    const metrics = (await h.api('GET', '/metrics')).body as string;
    expect(metrics).toMatch(/coup_rate_limited_total\{limit="principal"\} 1\b/);
  });
});

describe('commands per client address (COUP_RATE_LIMIT_PER_IP_PER_MINUTE) and COUP_TRUST_PROXY', () => {
  it('with the proxy trusted, each forwarded client has its own allowance', async () => {
    const h = await startService({ COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '4', COUP_TRUST_PROXY: 'loopback' });
    try {
      await openRound(h, 'R1');
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      // openRound's own commands came from 127.0.0.1; these from two forwarded clients.
      for (let i = 0; i < 4; i++)
        expect((await bet(h, h.token('dealer', `d${i}`), from('203.0.113.7'))).status).toBe(201);
      expectTooMany(await bet(h, h.token('dealer', 'd9'), from('203.0.113.7')), 'RATE_LIMITED');
      expect((await bet(h, h.token('dealer', 'd9'), from('203.0.113.8'))).status).toBe(201);
      const metrics = (await h.api('GET', '/metrics')).body as string;
      expect(metrics).toMatch(/coup_rate_limited_total\{limit="ip"\} 1\b/);
    } finally {
      await h.close();
    }
  });

  it('without COUP_TRUST_PROXY, X-Forwarded-For is ignored: every "client" is the socket peer', async () => {
    const h = await startService({ COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '8' });
    try {
      await openRound(h, 'R1'); // 4 commands from 127.0.0.1
      for (let i = 0; i < 4; i++)
        expect(
          (await bet(h, h.token('dealer', `d${i}`), { 'x-forwarded-for': `198.51.100.${i}` })).status,
        ).toBe(201);
      expectTooMany(
        await bet(h, h.token('dealer', 'd9'), { 'x-forwarded-for': '198.51.100.99' }),
        'RATE_LIMITED',
      );
    } finally {
      await h.close();
    }
  });
});

describe('failed authentications (COUP_AUTH_FAILURES_PER_MINUTE)', () => {
  let h: Harness;
  const logged: string[] = [];
  let write: jest.SpyInstance;
  beforeAll(async () => {
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      logged.push(String(chunk));
      return true;
    });
    h = await startService({ COUP_AUTH_FAILURES_PER_MINUTE: '', LOG_LEVEL: 'warn' });
    await openRound(h, 'R1');
  });
  afterAll(async () => {
    await h.close();
    write.mockRestore();
  });

  it('by default 30 bad tokens a minute are 401, then 429 TOO_MANY_AUTH_FAILURES; a valid token still passes', async () => {
    const forged = `${h.token('admin').slice(0, -4)}AAAA`;
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) answers.push((await h.api('GET', '/api/tables', { token: forged })).status);
    expect(answers).toEqual(answers.map(() => 401));
    expect((await h.api('GET', '/api/tables', { token: null })).status).toBe(429);
    const before = await eventRows(h);
    const refused = await bet(h, forged);
    expectTooMany(refused, 'TOO_MANY_AUTH_FAILURES');
    expect(await eventRows(h)).toBe(before);
    // Someone else behind the same address, with a good token, is served.
    expect((await h.api('GET', '/api/tables', { token: h.token('analyst') })).status).toBe(200);
    expect((await bet(h, h.token('player', 'p1'))).status).toBe(201);
    // Public routes never ask for a token.
    expect((await h.api('GET', '/health', { token: forged })).status).toBe(200);

    const metrics = (await h.api('GET', '/metrics')).body as string;
    expect(metrics).toMatch(/coup_auth_failures_total\{transport="http",outcome="refused"\} 30\b/);
    expect(metrics).toMatch(/coup_auth_failures_total\{transport="http",outcome="limited"\} 2\b/);
    const lines = logged
      .join('')
      .split('\n')
      .filter((l) => l.includes('authentication'));
    // Each failure under the limit is logged, the limit once (not each refusal), and never the token.
    expect(lines.filter((l) => l.includes('"authentication failed"'))).toHaveLength(30);
    expect(lines.filter((l) => l.includes('over the limit'))).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', code: 'TOKEN_SIGNATURE', ip: '127.0.0.1' });
    expect(logged.join('')).not.toContain(forged.split('.')[2]);
  });

  it('3,000 bad-token requests: the process keeps answering, and logs a bounded number of lines', async () => {
    const before = logged.length;
    let next = 0;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < 3_000) {
          next++;
          const { status } = await h.api('GET', '/api/tables', { token: 'x.y.z' });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    expect([...statuses.keys()]).toEqual([429]);
    expect(logged.length - before).toBeLessThanOrEqual(1);
    expect((await h.api('GET', '/health', { token: null })).status).toBe(200);
  });
});
