/**
 * Several instances, one projection process (issue 17): three BUILT service processes on one SQLite store, each
 * with COUP_PROJECTIONS=off and COUP_READ_MODELS naming one real PostgreSQL database, and `coup projections run` (the
 * built CLI) folding the log into that database (started before the database exists: it waits for it). Buy-ins, bets (keyed, some retried through another instance), deals
 * and a cash-out go through all three; the projection process is killed with SIGKILL once in the middle and started
 * again. Then, once its checkpoints reach the store's head: the database equals the log folded from scratch into a
 * fresh one, table by table; every instance answers the same hand history, statistics and ledgers, equal to the
 * rebuild's; every instance's status, and `coup projections status`, read those checkpoints. SIGTERM ends the
 * process cleanly.
 * Build first: `npx nx run @coup/table-service:build && npx nx run @coup/cli:build`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { signToken } from '@coup/auth';
import { createEventStore, type EventStore } from '@coup/event-store';
import { CHECKPOINTS, ReadModels } from '@coup/projections';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the PostgreSQL test server is a test tool outside every project
import { startTestPostgres, type TestPostgres, withDatabase } from '../../../tools/postgres';
import { request } from './chaos/http';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';
import { CLI_MAIN, type ProjectionProcess, spawnProjections } from './projection-process';
import { dumpReadModels, rebuildInto } from './read-model-dump';

jest.setTimeout(90_000);

const admin = signToken(SECRET, { sub: 'admin-1', role: 'admin' });
const dealer = signToken(SECRET, { sub: 'dealer-1', role: 'dealer' });
const compliance = signToken(SECRET, { sub: 'compliance-1', role: 'compliance' });
const PLAYERS = ['p1', 'p2', 'p3'];

let pg: TestPostgres;
let dataDir: string;
let url: string;
let instances: ServiceProcess[] = [];
let projector: ProjectionProcess | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-multi-pg-'));
  pg = await startTestPostgres();
  // Made only once the projection process has found it missing (it waits for its database).
  url = withDatabase(pg.adminUrl, `coup_multi_${process.pid}_${Date.now().toString(36)}`);
});

afterAll(async () => {
  await projector?.stop('SIGKILL');
  for (const s of instances) await s.stop('SIGKILL');
  await pg?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function ok(
  on: ServiceProcess,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  key?: string,
) {
  const r = await request(on.url, method, path, token, {
    ...(body === undefined ? {} : { body }),
    ...(key ? { key } : {}),
  });
  if (!r || r.status >= 300)
    throw new Error(`${method} ${path} on ${on.url}: ${r?.status} ${JSON.stringify(r?.body)}`);
  return r;
}

const startProjector = () =>
  spawnProjections({ COUP_DATA_DIR: dataDir, COUP_READ_MODELS: url }, [
    '--commit-ms',
    '20',
    '--progress-every',
    '1',
  ]);

/** Rounds on table M1, each step through another instance; every bet keyed, every third retried elsewhere. */
async function playRounds(from: number, to: number): Promise<void> {
  const at = (i: number) => instances[i % instances.length]!;
  for (let round = from; round <= to; round++) {
    const opened = await ok(at(round), 'POST', '/api/tables/M1/rounds', dealer);
    const roundNo = (opened.body as { roundNo: number }).roundNo;
    for (const [i, playerId] of PLAYERS.entries()) {
      const key = `bet-${round}-${playerId}`;
      const body = { playerId, spot: ['player', 'banker', 'tie'][(round + i) % 3], amount: 500 * (i + 1) };
      const first = await ok(
        at(round + i),
        'POST',
        `/api/tables/M1/rounds/${roundNo}/bets`,
        admin,
        body,
        key,
      );
      if ((round + i) % 3 === 0) {
        const retried = await ok(
          at(round + i + 1),
          'POST',
          `/api/tables/M1/rounds/${roundNo}/bets`,
          admin,
          body,
          key,
        );
        expect(retried).toEqual(first);
      }
    }
    await ok(at(round + 1), 'POST', `/api/tables/M1/rounds/${roundNo}/close`, dealer);
    await ok(at(round + 2), 'POST', `/api/tables/M1/rounds/${roundNo}/deal`, dealer);
  }
}

async function storeHead(store: EventStore): Promise<number> {
  return Number((await store.headPosition()) ?? 0);
}

/** Resolves once every checkpoint in the database is at `head` or past it. */
async function checkpointsReach(head: number): Promise<void> {
  const read = await ReadModels.open(url);
  try {
    for (let i = 0; i < 1_000; i++) {
      const rows = await read.sql
        .all<{ position: number }>(`SELECT position FROM ${CHECKPOINTS}`)
        .catch(() => []);
      if (rows.length > 0 && rows.every((r) => r.position >= head)) return;
      await sleep(20);
    }
    throw new Error(`the checkpoints did not reach ${head}:\n${projector?.output()}`);
  } finally {
    await read.close();
  }
}

it('three instances with COUP_PROJECTIONS=off and one projection process, killed once: the read models are exact everywhere', async () => {
  const env = { COUP_PROJECTIONS: 'off', COUP_READ_MODELS: url };
  instances = [await spawnService(dataDir, env)]; // the first makes the store, the others open it
  instances.push(...(await Promise.all([spawnService(dataDir, env), spawnService(dataDir, env)])));
  const [a, b, c] = instances as [ServiceProcess, ServiceProcess, ServiceProcess];
  projector = startProjector();
  await projector.until(
    (l) => l['msg'] === 'read models not reachable: trying again',
    'it misses its database',
  );
  const client = new Client({ connectionString: pg.adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE "${new URL(url).pathname.slice(1)}"`);
  await client.end();
  await projector.until((l) => l['msg'] === 'following the log', 'it follows the log');

  await ok(a, 'POST', '/api/tables', admin, { tableId: 'M1', rules: { dealing: 'rng' } });
  for (const [i, p] of PLAYERS.entries())
    await ok(
      instances[i]!,
      'POST',
      `/api/tables/M1/players/${p}/buy-in`,
      admin,
      { amount: 100_000 },
      `buy-${p}`,
    );
  await ok(b, 'POST', '/api/tables/M1/shoes', dealer);
  await playRounds(1, 3);

  // Killed mid-run: whatever it had not committed is folded again from its checkpoints.
  expect(await projector.stop('SIGKILL')).toBeNull();
  await playRounds(4, 5);
  projector = startProjector();
  await playRounds(6, 7);
  await ok(c, 'POST', '/api/tables/M1/players/p2/cash-out', admin, undefined, 'out-p2');

  const store = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite'), readonly: true });
  try {
    const head = await storeHead(store);
    await checkpointsReach(head);
    const fresh = await pg.createDatabase();
    expect(await rebuildInto(store, fresh)).toBeGreaterThanOrEqual(head);
    const [live, rebuilt] = await Promise.all([dumpReadModels(url), dumpReadModels(fresh)]);
    expect(live['pl_entries']!.length).toBeGreaterThan(20);
    expect(live).toEqual(rebuilt);

    // Every instance answers the same as queries over the rebuild.
    const local = await ReadModels.open(fresh);
    try {
      const expected = JSON.parse(
        JSON.stringify({
          hands: await local.hands('M1', { order: 'asc' }, { limit: 100 }),
          hand: await local.hand('M1', 6),
          stats: await local.stats({ tableId: 'M1' }),
          bets: await local.betStats({ tableId: 'M1' }),
          ledgers: await Promise.all(PLAYERS.map((p) => local.ledger(p, { limit: 500 }))),
        }),
      );
      expect(expected.hands.items).toHaveLength(7);
      for (const on of instances) {
        const get = async (path: string) => (await ok(on, 'GET', path, compliance)).body;
        expect({
          hands: await get('/api/tables/M1/hands?order=asc&limit=100'),
          hand: await get('/api/tables/M1/hands/6'),
          stats: await get('/api/stats?tableId=M1'),
          bets: await get('/api/stats/bets?tableId=M1'),
          ledgers: await Promise.all(PLAYERS.map((p) => get(`/api/players/${p}/ledger?limit=500`))),
        }).toEqual(expected);
        const status = (await get('/api/projections')) as {
          readModels: string;
          foldedBy: string;
          projections: { checkpoint: number; lag: number }[];
        };
        expect(status).toMatchObject({ readModels: 'postgres', foldedBy: 'another process' });
        expect(status.projections.every((p) => p.lag === 0 && p.checkpoint >= head)).toBe(true);
      }
    } finally {
      await local.close();
    }
  } finally {
    await store.close();
  }
  // `coup projections status` reads the same checkpoints.
  const status = spawnSync(process.execPath, [CLI_MAIN, 'projections', 'status', '--json'], {
    env: { ...process.env, COUP_DATA_DIR: dataDir, COUP_READ_MODELS: url },
    encoding: 'utf8',
  });
  expect(status.status).toBe(0);
  const printed = JSON.parse(status.stdout) as { head: number; projections: { lag: number }[] };
  expect(printed.projections.map((p) => p.lag)).toEqual(printed.projections.map(() => 0));
  expect(await projector.stop('SIGTERM')).toBe(0);
  expect(projector.logs().at(-1)).toMatchObject({ msg: 'stopped' });
});
