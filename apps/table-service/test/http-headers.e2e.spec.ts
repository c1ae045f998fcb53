/**
 * What every answer carries and who may read what: security headers on API, error, console, docs and metrics
 * answers, and no-store on the API's; /metrics behind COUP_METRICS_TOKEN or on COUP_METRICS_PORT; the bind address.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetricsEndpoint } from '../src/ops/metrics-endpoint';
import { startService, type Harness } from './harness';
import { spawnService } from './process';

jest.setTimeout(60_000);

function expectSecurityHeaders(headers: Headers, what: string, path = what): void {
  const csp = headers.get('content-security-policy') ?? '';
  expect({ what, csp }).toEqual({ what, csp: expect.stringContaining("frame-ancestors 'none'") });
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain('unsafe-eval');
  // Only the OpenAPI page (Swagger UI) may apply inline styles; nothing may run inline scripts.
  expect({ what, csp }).toEqual({
    what,
    csp: path.startsWith('/docs') ? csp : expect.not.stringContaining('unsafe-inline'),
  });
  expect(csp).toContain("script-src-attr 'none'");
  expect({ what, nosniff: headers.get('x-content-type-options') }).toEqual({ what, nosniff: 'nosniff' });
  expect({ what, frame: headers.get('x-frame-options') }).toEqual({ what, frame: 'DENY' });
  expect({ what, referrer: headers.get('referrer-policy') }).toEqual({ what, referrer: 'no-referrer' });
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(headers.get('x-powered-by')).toBeNull();
}

describe('security headers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startService({ COUP_JSON_MAX_DEPTH: '4', COUP_BODY_LIMIT: '2048' });
  });
  afterAll(() => h.close());

  it.each([
    ['an API answer', 'GET', '/api/tables', {}, 200],
    ['a 401', 'GET', '/api/tables', { token: null }, 401],
    ['a 403', 'POST', '/api/tables', { token: 'player', body: { tableId: 'H1' } }, 403],
    ['a 404 route', 'GET', '/api/nothing-here', {}, 404],
    ['a 400 INVALID_JSON', 'POST', '/api/tables', { raw: '{' }, 400],
    ['a 400 JSON_TOO_DEEP', 'POST', '/api/tables', { raw: '[[[[[[1]]]]]]' }, 400],
    ['a 413', 'POST', '/api/tables', { raw: JSON.stringify({ tableId: 'x'.repeat(4000) }) }, 413],
    ['a 415', 'POST', '/api/tables', { raw: 'a=1', headers: { 'content-type': 'text/plain' } }, 415],
    ['the OpenAPI document', 'GET', '/docs/openapi.json', { token: null }, 200],
    ['health', 'GET', '/health', { token: null }, 200],
    ['metrics', 'GET', '/metrics', { token: null }, 200],
  ] as const)('on %s', async (what, method, path, options, status) => {
    const opts = { ...options } as { token?: string | null; body?: unknown; raw?: string };
    if (opts.token === 'player') opts.token = h.token('player');
    const r = await h.api(method, path, opts);
    expect({ what, status: r.status }).toEqual({ what, status });
    expectSecurityHeaders(r.headers, what, path);
    // the API's answers (chips, ledgers, hands, reports, and its errors) are never cached on a shared pit PC
    if (path.startsWith('/api/'))
      expect({ what, cache: r.headers.get('cache-control') }).toEqual({ what, cache: 'no-store' });
  });

  it('a ledger and a CSV of hands are not kept by a browser', async () => {
    await h.api('POST', '/api/tables', { body: { tableId: 'NC1', rules: { dealing: 'rng' } } });
    const ledger = await h.api('GET', '/api/players/p1/ledger');
    const csv = await h.api('GET', '/api/tables/NC1/hands', { headers: { accept: 'text/csv' } });
    expect([ledger.headers.get('cache-control'), csv.headers.get('cache-control')]).toEqual([
      'no-store',
      'no-store',
    ]);
  });

  // The console's files and the docs page need @fastify/static, which only the built service loads.
  it('on the console, its assets and the docs page of the built service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coup-headers-'));
    const consoleDir = join(dir, 'console');
    mkdirSync(join(consoleDir, 'assets'), { recursive: true });
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(consoleDir, 'assets', 'app.js'), 'console.log(1)');
    const s = await spawnService(join(dir, 'data'), { COUP_CONSOLE_DIR: consoleDir });
    try {
      for (const path of ['/', '/assets/app.js', '/docs', '/docs/openapi.json', '/no-such-file.js']) {
        const r = await fetch(s.url + path);
        expect({ path, status: r.status }).toEqual({ path, status: path.startsWith('/no-') ? 404 : 200 });
        expectSecurityHeaders(r.headers, path);
      }
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metrics exposure', () => {
  it('with COUP_METRICS_TOKEN, /metrics needs that bearer token', async () => {
    const token = 'metrics-token-0123456789';
    const h = await startService({ COUP_METRICS_TOKEN: token });
    try {
      const none = await h.api('GET', '/metrics', { token: null });
      expect([none.status, none.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      // A service token is not the metrics token.
      expect((await h.api('GET', '/metrics', { token: h.token('admin') })).status).toBe(401);
      expect((await h.api('GET', '/metrics', { token: `${token}x` })).status).toBe(401);
      const ok = await h.api('GET', '/metrics', { token });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('coup_commands_total');
      expectSecurityHeaders(ok.headers, 'metrics');
    } finally {
      await h.close();
    }
  });

  it('with COUP_METRICS_PORT, /metrics is served there only (and still needs the token when one is set)', async () => {
    const token = 'metrics-token-0123456789';
    const h = await startService({ COUP_METRICS_PORT: '0', COUP_METRICS_TOKEN: token });
    try {
      const port = h.app.get(MetricsEndpoint).port;
      expect(port).toEqual(expect.any(Number));
      expect((await h.api('GET', '/metrics', { token })).status).toBe(404);
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('coup_commands_total');
      expectSecurityHeaders(ok.headers, 'metrics port');
      expect((await fetch(`${base}/api/tables`)).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});

describe('bind address (HOST)', () => {
  /** Whether something accepts TCP connections at this address (127.0.0.2 is loopback too, not 127.0.0.1). */
  const accepts = (host: string, port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, host);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });

  it('binds 127.0.0.1 by default: another address of this machine is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coup-host-'));
    const s = await spawnService(dir, { HOST: '' });
    try {
      const port = Number(new URL(s.url).port);
      expect(s.output()).toMatch(/bound to 127\.0\.0\.1/);
      expect(await accepts('127.0.0.1', port)).toBe(true);
      expect(await accepts('127.0.0.2', port)).toBe(false);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('HOST=0.0.0.0 binds every interface (containers)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coup-host-'));
    const s = await spawnService(dir, { HOST: '0.0.0.0' });
    try {
      const port = Number(new URL(s.url).port);
      expect(await accepts('127.0.0.2', port)).toBe(true);
      expect(s.output()).toMatch(/Metrics are readable by anyone/);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
