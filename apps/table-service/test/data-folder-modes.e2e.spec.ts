/**
 * The built service's data folder is owner-only whatever the umask (the folder 0700, every file 0600, the WAL and
 * shared-memory files SQLite makes included), and a service given the wrong seed key refuses to start instead of
 * dealing from what it cannot open.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { type ServiceProcess, spawnService } from './process';

jest.setTimeout(120_000);

const root = mkdtempSync(join(tmpdir(), 'coup-modes-'));
const dataDir = join(root, 'data');
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function api(s: ServiceProcess, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(s.url + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as any;
}

/** Every entry under `dir` with its permission bits. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': (statSync(dir).mode & 0o777).toString(8) };
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    out[path.slice(dir.length + 1)] = (statSync(path).mode & 0o777).toString(8);
  }
  return out;
}

it('with umask 000, the data folder is 0700 and every file the service writes in it 0600', async () => {
  const umask = process.umask(0o000);
  let service: ServiceProcess;
  try {
    // the child inherits the umask; no COUP_JWT_SECRET, so the local secret is written into the folder too
    service = await spawnService(dataDir, { COUP_JWT_SECRET: '' });
  } finally {
    process.umask(umask);
  }
  try {
    const secret = readFileSync(join(dataDir, 'jwt-secret.local'), 'utf8').trim();
    const admin = signToken(secret, { sub: 'a1', role: 'admin' });
    const dealer = signToken(secret, { sub: 'd1', role: 'dealer' });
    await api(service, admin, 'POST', '/api/tables', { tableId: 'T1', rules: { dealing: 'rng', decks: 1 } });
    await api(service, admin, 'POST', '/api/tables/T1/players/p1/buy-in', { amount: 10_000 });
    await api(service, dealer, 'POST', '/api/tables/T1/shoes');
    const { roundNo } = await api(service, dealer, 'POST', '/api/tables/T1/rounds');
    await api(service, admin, 'POST', `/api/tables/T1/rounds/${roundNo}/bets`, {
      playerId: 'p1',
      spot: 'player',
      amount: 500,
    });
    await api(service, dealer, 'POST', `/api/tables/T1/rounds/${roundNo}/close`);
    await api(service, dealer, 'POST', `/api/tables/T1/rounds/${roundNo}/deal`);
    // the read side has written its file once the hand is listed
    const compliance = signToken(secret, { sub: 'c1', role: 'compliance' });
    for (let i = 0; i < 200; i++) {
      const page = await api(service, compliance, 'GET', '/api/tables/T1/hands');
      if (page.items.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }

    const running = modes(dataDir);
    expect(Object.keys(running)).toEqual(
      expect.arrayContaining([
        'events.sqlite',
        'events.sqlite-wal',
        'events.sqlite-shm',
        'read-models.sqlite',
        'read-models.sqlite-wal',
        'catalog.sqlite',
        'jwt-secret.local',
      ]),
    );
    expect(running).toEqual(
      Object.fromEntries(Object.keys(running).map((name) => [name, name === '.' ? '700' : '600'])),
    );
  } finally {
    expect(await service.stop()).toBe(0);
  }
  const stopped = modes(dataDir);
  expect(stopped).toEqual(
    Object.fromEntries(Object.keys(stopped).map((name) => [name, name === '.' ? '700' : '600'])),
  );
});

it('with another seed key, the service refuses to start and says which key it needs', async () => {
  const attempt = spawnService(dataDir, { COUP_JWT_SECRET: '', COUP_SEED_KEY: '77'.repeat(32) });
  const error = (await attempt.then(
    async (s) => {
      await s.stop();
      return null;
    },
    (e: unknown) => e,
  )) as Error | null;
  expect(error).not.toBeNull();
  expect(error!.message).toMatch(/sealed with key [0-9a-f]{8}, but COUP_SEED_KEY holds only key [0-9a-f]{8}/);
  expect(error!.message).not.toContain('77'.repeat(32));
});
