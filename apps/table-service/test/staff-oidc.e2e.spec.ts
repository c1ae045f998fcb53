/**
 * Single sign-on against a real OpenID Provider (`oidc-provider` on loopback, its development login and consent
 * forms): the built service runs the authorization code flow with PKCE, the test plays the browser (follows the
 * redirects, submits the provider's forms, keeps each side's cookies), and the Coup token the callback answers
 * calls a staff route. The roles come from the provider's `roles` claim; the ID token is verified against the
 * provider's JWKS (which the provider saw fetched); the tables claim never widens a dealer to every table.
 * Refusals: a person with no Coup role, a tables claim that is not table ids, a disabled account, a callback with no
 * flow in the browser, a code used twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { SECRET } from './harness';
import { freePort, spawnService, type ServiceProcess } from './process';

jest.setTimeout(120_000);

const CLIENT = { clientId: 'coup-console', clientSecret: 'a-client-secret-for-the-tests' };
let provider: ChildProcess;
let issuer: string;
let service: ServiceProcess;
let dataDir: string;

/** Starts the provider script and reads the issuer it prints. */
async function startProvider(port: number, redirectUri: string): Promise<string> {
  provider = spawn(
    process.execPath,
    [join(__dirname, 'oidc', 'provider.mjs'), JSON.stringify({ port, redirectUri, ...CLIENT })],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  provider.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    provider.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const line = /\{"issuer":"[^"]+"\}/.exec(output);
      if (line) resolve((JSON.parse(line[0]) as { issuer: string }).issuer);
    });
    provider.once('exit', (code) => reject(new Error(`the provider exited with ${code}:\n${output}`)));
  });
}

beforeAll(async () => {
  const [servicePort, providerPort] = [await freePort(), await freePort()];
  const callback = `http://127.0.0.1:${servicePort}/api/auth/oidc/callback`;
  issuer = await startProvider(providerPort, callback);
  dataDir = mkdtempSync(join(tmpdir(), 'coup-oidc-'));
  service = await spawnService(dataDir, {
    PORT: String(servicePort),
    COUP_OIDC_ISSUER: issuer,
    COUP_OIDC_CLIENT_ID: CLIENT.clientId,
    COUP_OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    COUP_OIDC_REDIRECT_URL: callback,
    COUP_OIDC_SCOPES: 'openid profile coup',
  });
});
afterAll(async () => {
  await service?.stop();
  provider?.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** One origin's cookies, as a browser keeps them (name to value; paths do not matter here). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at).trim(), pair!.slice(at + 1).trim()];
      if (value === '' || /max-age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/**
 * The browser's part: from the service's start to the provider's redirect back to the service's callback, logging
 * in as `login` and consenting. Returns the callback URL (code and state) and the service's cookies.
 */
async function throughProvider(login: string): Promise<{ callback: string; serviceCookies: CookieJar }> {
  const serviceCookies = new CookieJar();
  const providerCookies = new CookieJar();
  const start = await fetch(`${service.url}/api/auth/oidc/start`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  serviceCookies.take(start);
  let next = new URL(start.headers.get('location')!);
  expect(next.origin).toBe(issuer);
  expect(next.searchParams.get('code_challenge_method')).toBe('S256');
  expect(next.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  let form: URLSearchParams | null = null;
  for (let step = 0; step < 20; step++) {
    const res: Response = await fetch(next, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: providerCookies.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
    });
    providerCookies.take(res);
    form = null;
    if (res.status >= 300 && res.status < 400) {
      next = new URL(res.headers.get('location')!, next);
      if (next.origin !== issuer) return { callback: next.href, serviceCookies };
      continue;
    }
    // A page with a form: the login form, then the consent form.
    const html: string = await res.text();
    expect([res.status, html.slice(0, 0)]).toEqual([200, '']);
    const action: string | undefined = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt: string | undefined = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no form at ${next.href}:\n${html.slice(0, 500)}`);
    next = new URL(action.replace(/&amp;/g, '&'), next);
    form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt });
  }
  throw new Error('the provider never sent the browser back');
}

async function callback(url: string, cookies: CookieJar, accept = 'application/json') {
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookies.header(), accept } });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

const api = (path: string, token: string, method = 'GET', body?: unknown) =>
  fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

it('signs a person in through the provider (code flow with PKCE) with the roles of its claim', async () => {
  expect(await (await fetch(`${service.url}/api/auth/options`)).json()).toEqual({
    password: true,
    sso: { start: '/api/auth/oidc/start' },
  });
  const { callback: url, serviceCookies } = await throughProvider('jane');
  expect(new URL(url).pathname).toBe('/api/auth/oidc/callback');
  const signedIn = await callback(url, serviceCookies);
  expect(signedIn.status).toBe(200);
  expect(signedIn.body).toMatchObject({
    username: 'sso:jane',
    role: 'supervisor',
    roles: ['supervisor', 'dealer'],
    tables: ['T1'],
  });
  // the Coup token calls a staff route
  const token = signedIn.body['token'] as string;
  expect((await api('/api/tables', token)).status).toBe(200);
  expect((await api('/api/stats', token)).status).toBe(200);
  expect((await api('/api/staff', token)).status).toBe(403);
  // the ID token's signature was checked against the provider's keys
  const served = (await (await fetch(`${issuer}/test/requests`)).json()) as string[];
  expect(served).toEqual(expect.arrayContaining(['/.well-known/openid-configuration', '/jwks', '/token']));
  // the account is recorded, and signing out ends the token
  const admin = signToken(SECRET, { sub: 'boss', role: 'admin' });
  expect(await (await api('/api/staff/sso:jane', admin)).json()).toMatchObject({
    source: 'sso',
    createdBy: 'sso',
  });
  expect((await api('/api/auth/sign-out', token, 'POST')).status).toBe(204);
  expect((await api('/api/tables', token)).status).toBe(401);
});

it('a browser is sent back to the console with the token in the fragment', async () => {
  const { callback: url, serviceCookies } = await throughProvider('jane');
  const answer = await callback(url, serviceCookies, 'text/html');
  expect(answer.status).toBe(302);
  const location = answer.headers.get('location')!;
  expect(location).toMatch(/^\/#token=[\w-]+\.[\w-]+\.[\w-]+&expiresAt=/);
  expect(answer.headers.get('set-cookie')).toMatch(
    /^coup_oidc=; Path=\/api\/auth\/oidc\/callback; Max-Age=0/,
  );
  const token = new URLSearchParams(location.slice(2)).get('token')!;
  expect((await api('/api/tables', token)).status).toBe(200);
});

it('a tables claim never widens a dealer: empty is no table, absent is no table (the default), invalid refuses', async () => {
  const admin = signToken(SECRET, { sub: 'boss', role: 'admin' });
  expect((await api('/api/tables', admin, 'POST', { tableId: 'T1', rules: { dealing: 'rng' } })).status).toBe(
    201,
  );
  for (const login of ['dee', 'abe']) {
    const { callback: url, serviceCookies } = await throughProvider(login);
    const signedIn = await callback(url, serviceCookies);
    expect([login, signedIn.status, signedIn.body['role'], signedIn.body['tables']]).toEqual([
      login,
      200,
      'dealer',
      [],
    ]);
    const shoe = await api('/api/tables/T1/shoes', signedIn.body['token'] as string, 'POST');
    expect([login, shoe.status]).toEqual([login, 403]);
    expect(await (await api(`/api/staff/sso:${login}`, admin)).json()).toMatchObject({ tables: [] });
  }
  const ivy = await throughProvider('ivy');
  const refused = await callback(ivy.callback, ivy.serviceCookies);
  expect([refused.status, refused.body['code']]).toEqual([403, 'SSO_INVALID_TABLES']);
  expect((await api('/api/staff/sso:ivy', admin)).status).toBe(404);
  // jane's claim names T1: she runs it
  const jane = await throughProvider('jane');
  const token = (await callback(jane.callback, jane.serviceCookies)).body['token'] as string;
  expect((await api('/api/tables/T1/shoes', token, 'POST')).status).toBe(201);
});

it('refuses a person with no Coup role, a disabled account, a callback with no flow, and a code used twice', async () => {
  const guest = await throughProvider('joe');
  const refused = await callback(guest.callback, guest.serviceCookies);
  expect([refused.status, refused.body['code']]).toEqual([403, 'NO_STAFF_ROLE']);

  const jane = await throughProvider('jane');
  const noFlow = await callback(jane.callback, new CookieJar());
  expect([noFlow.status, noFlow.body['code']]).toEqual([400, 'SSO_NO_FLOW']);
  expect((await callback(jane.callback, jane.serviceCookies)).status).toBe(200);
  const twice = await callback(jane.callback, jane.serviceCookies);
  expect([twice.status, twice.body['code']]).toEqual([401, 'SSO_FAILED']);

  const admin = signToken(SECRET, { sub: 'boss', role: 'admin' });
  expect(
    (await api('/api/staff/sso:jane/disable', admin, 'POST', { reason: 'left the casino' })).status,
  ).toBe(200);
  const again = await throughProvider('jane');
  const disabled = await callback(again.callback, again.serviceCookies);
  expect([disabled.status, disabled.body['code']]).toEqual([403, 'ACCOUNT_DISABLED']);
});
