/**
 * A keyed command's retry gets the first answer and changes nothing, whatever happened in between, also when the
 * first changed nothing (ADR-43), on the built service: on the process that took it, on a second process on the
 * same SQLite data folder, and after a restart. A staff command that found the account as asked (a disable of a
 * disabled account) keeps its key, so its retry after an enable does not disable; a table command (a cash-out)
 * retried after a new buy-in does not cash out again. The same key with another body is refused 422
 * IDEMPOTENCY_KEY_REUSED.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';

jest.setTimeout(120_000);

const dir = mkdtempSync(join(tmpdir(), 'coup-keyed-retry-'));
const running = new Set<ServiceProcess>();
const admin = signToken(SECRET, { sub: 'boss', role: 'admin' });

const start = async (): Promise<ServiceProcess> => {
  const service = await spawnService(dir, { COUP_PROJECTIONS: 'off' });
  running.add(service);
  return service;
};
const stop = async (service: ServiceProcess): Promise<void> => {
  running.delete(service);
  expect(await service.stop()).toBe(0);
};

afterAll(async () => {
  await Promise.all([...running].map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

type Call = { status: number; body: Record<string, unknown> };

async function call(
  service: ServiceProcess,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<Call> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key !== undefined ? { 'idempotency-key': key } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function ok(service: ServiceProcess, method: string, path: string, body?: unknown): Promise<Call> {
  const answer = await call(service, method, path, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

const disabled = async (service: ServiceProcess) =>
  (await ok(service, 'GET', '/api/staff/ann')).body['disabled'];
const chips = async (service: ServiceProcess) => {
  const view = (await ok(service, 'GET', '/api/tables/K1')).body as { players: { chips: number }[] };
  return view.players.map((p) => p.chips);
};

it('a keyed retry answers the first answer and changes nothing: same process, a second process, a restart', async () => {
  let a = await start();
  const b = await start();

  // staff: a disable that finds ann disabled changes nothing; ann is enabled since; its retry must not disable
  await ok(a, 'POST', '/api/staff', {
    username: 'ann',
    password: 'correct horse battery',
    roles: ['dealer'],
  });
  await ok(a, 'POST', '/api/staff/ann/disable', { reason: 'on leave' });
  const noOp = await call(a, 'POST', '/api/staff/ann/disable', { reason: 'on leave again' }, 'disable-ann');
  expect([noOp.status, noOp.body['disabled']]).toEqual([200, true]);
  await ok(b, 'POST', '/api/staff/ann/enable');

  // table: a cash-out of 1,000; 500 bought in since; its retry must not cash out the 500
  await ok(a, 'POST', '/api/tables', { tableId: 'K1', rules: { dealing: 'rng' } });
  await ok(a, 'POST', '/api/tables/K1/players/p1/buy-in', { amount: 1000 });
  const out = await call(a, 'POST', '/api/tables/K1/players/p1/cash-out', undefined, 'out-p1');
  expect([out.status, out.body['paid']]).toEqual([200, 1000]);
  await ok(b, 'POST', '/api/tables/K1/players/p1/buy-in', { amount: 500 });

  const retries = async (service: ServiceProcess) => {
    expect(
      await call(service, 'POST', '/api/staff/ann/disable', { reason: 'on leave again' }, 'disable-ann'),
    ).toEqual(noOp);
    expect(await call(service, 'POST', '/api/tables/K1/players/p1/cash-out', undefined, 'out-p1')).toEqual(
      out,
    );
    expect(await disabled(service)).toBe(false);
    expect(await chips(service)).toEqual([500]);
    // the same key with another body (or for another command) is refused
    const others = [
      ['/api/staff/ann/disable', { reason: 'another reason' }, 'disable-ann'],
      ['/api/staff/ann/enable', undefined, 'disable-ann'],
      ['/api/tables/K1/players/p1/buy-in', { amount: 5 }, 'out-p1'],
    ] as const;
    // one after another: each is refused on its own, not while the others are in flight
    for (const [path, body, key] of others) {
      const other = await call(service, 'POST', path, body, key);
      expect([other.status, other.body['code']]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    }
  };
  await retries(a);
  await retries(b);
  await stop(a);
  await stop(b);
  a = await start();
  await retries(a);
});
