/**
 * Staff accounts across processes (the built service): two processes on one data folder see each other's account
 * changes at once (a sign-out, a disabling, a role change on one ends the tokens on the other, and the live sockets
 * the other opened for them; a sign-in on one opens a live socket on the other at once), and a first local
 * start prints an admin's password once, only with the generated secret and never in production mode.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';
import { WsClient } from './ws-client';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery';
const dirs: string[] = [];
const running: ServiceProcess[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'coup-staff-proc-'));
  dirs.push(dir);
  return dir;
};
const start = async (dir: string, env: Record<string, string> = {}) => {
  const service = await spawnService(dir, env);
  running.push(service);
  return service;
};
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function call(
  service: ServiceProcess,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const signIn = async (service: ServiceProcess, username: string, password = PASSWORD) =>
  call(service, 'POST', '/api/auth/sign-in', null, { username, password });

it('a second process on the same store sees every account change at once', async () => {
  const dir = dataDir();
  const a = await start(dir);
  const b = await start(dir, { COUP_PROJECTIONS: 'off' });
  const admin = signToken(SECRET, { sub: 'boss', role: 'admin' });
  const made = await call(a, 'POST', '/api/staff', admin, {
    username: 'ann',
    password: PASSWORD,
    roles: ['dealer'],
  });
  expect(made.status).toBe(201);

  // made on A, signed in on B; B's token works on A
  const onB = await signIn(b, 'ann');
  expect(onB.status).toBe(200);
  expect((await call(a, 'GET', '/api/tables', onB.body.token)).status).toBe(200);

  // disabled on A: the token stops on B at once, and B refuses the sign-in
  expect((await call(a, 'POST', '/api/staff/ann/disable', admin, { reason: 'on leave' })).status).toBe(200);
  expect((await call(b, 'GET', '/api/tables', onB.body.token)).status).toBe(401);
  expect((await signIn(b, 'ann')).body.code).toBe('ACCOUNT_DISABLED');

  // enabled and made a supervisor on B: A signs ann in with the new role
  expect((await call(b, 'POST', '/api/staff/ann/enable', admin)).status).toBe(200);
  expect((await call(b, 'PUT', '/api/staff/ann/roles', admin, { roles: ['supervisor'] })).status).toBe(200);
  const onA = await signIn(a, 'ann');
  expect([onA.status, onA.body.role]).toEqual([200, 'supervisor']);

  const socket = await liveSocket(a, onA.body.token);

  // signed out on B: the token A issued stops on A, and A closes the live socket it opened
  expect((await call(b, 'POST', '/api/auth/sign-out', onA.body.token)).status).toBe(204);
  expect((await call(a, 'GET', '/api/tables', onA.body.token)).status).toBe(401);
  expect(await socket.untilClosed()).toEqual({ code: 4401, reason: 'TOKEN_REVOKED' });

  // signed in again on B: A opens a live socket for the new token at once (it folds the sign-in first)
  const again = await signIn(b, 'ann');
  (await liveSocket(a, again.body.token)).close();
});

/** A live socket greeted by the service. */
async function liveSocket(service: ServiceProcess, token: string): Promise<WsClient> {
  const ws = await WsClient.open(`${service.url.replace('http', 'ws')}/ws?token=${token}`);
  await ws.until((f) => f.some((x) => x.type === 'hello'), 'the hello');
  return ws;
}

it('a first local start prints an admin password once (the rule of when: staff-accounts.unit.spec.ts)', async () => {
  const dir = dataDir();
  // No COUP_JWT_SECRET: the local secret is generated into the data folder, as `npm start` does.
  const first = await start(dir, { COUP_JWT_SECRET: '' });
  const line = async (service: ServiceProcess) => {
    // the banner follows /health by a moment
    for (let i = 0; i < 50 && !/LOCAL USE ONLY/.test(service.output()); i++)
      await new Promise((r) => setTimeout(r, 100));
    return /made 'admin' with the password (\S+) /.exec(service.output());
  };
  const printed = await line(first);
  expect(printed).not.toBeNull();
  const signedIn = await signIn(first, 'admin', printed![1]!);
  expect([signedIn.status, signedIn.body.role]).toEqual([200, 'admin']);
  await first.stop();

  const again = await start(dir, { COUP_JWT_SECRET: '' });
  expect(await line(again)).toBeNull();
  expect(again.output()).toMatch(/LOCAL USE ONLY/);
});
