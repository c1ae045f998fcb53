/**
 * The service with COUP_READ_MODELS=postgres://...: its own runner folds into PostgreSQL (COUP_PROJECTIONS
 * in-process; in the built service's worker thread, which waits for a database not there yet), `GET /api/projections`
 * and the lag gauges describe that database's checkpoints, and a PostgreSQL that cannot answer makes a query 503
 * READ_MODELS_UNAVAILABLE (not 500) while commands, /health and /metrics go on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'pg';
import { signToken } from '@coup/auth';
import { CHECKPOINTS, pgTypes } from '@coup/projections';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the PostgreSQL test server is a test tool outside every project
import { startTestPostgres, type TestPostgres, withDatabase } from '../../../tools/postgres';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { type Harness, startService } from './harness';
import { ok, openRound } from './http-helpers';
import { request } from './chaos/http';
import { SECRET } from './harness';
import { freePort, spawnService } from './process';

jest.setTimeout(60_000);

let pg: TestPostgres;

beforeAll(async () => {
  pg = await startTestPostgres();
});

afterAll(async () => {
  await pg?.stop();
});

type Status = {
  running: boolean;
  readModels: string;
  foldedBy: string;
  projections: { name: string; checkpoint: number; lag: number }[];
};

async function caughtUp(h: Harness, head: number): Promise<Status> {
  let status = (await h.api('GET', '/api/projections')).body as Status;
  for (let i = 0; i < 300 && !status.projections.every((p) => p.lag === 0 && p.checkpoint === head); i++) {
    await sleep(20);
    status = (await h.api('GET', '/api/projections')).body as Status;
  }
  return status;
}

test('in-process: the runner folds into PostgreSQL; the status and the gauges are its checkpoints there', async () => {
  const url = await pg.createDatabase();
  const h = await startService({
    COUP_READ_MODELS: url,
    COUP_PROJECTIONS: 'in-process',
    COUP_PROJECTION_COMMIT_MS: '0',
  });
  const pool = new Pool({ connectionString: url, types: pgTypes });
  try {
    await openRound(h, 'PGF');
    await ok(h, 'POST', '/api/tables/PGF/rounds/1/bets', { playerId: 'p1', spot: 'banker', amount: 2_500 });
    await ok(h, 'POST', '/api/tables/PGF/rounds/1/close', undefined, h.token('dealer'));
    await ok(h, 'POST', '/api/tables/PGF/rounds/1/deal', undefined, h.token('dealer'));
    const head = Number(await h.app.get(EventStoreHandle).store.headPosition());
    const status = await caughtUp(h, head);
    expect(status).toMatchObject({ running: true, readModels: 'postgres', foldedBy: 'this thread' });
    expect(status.projections.map((p) => [p.name, p.checkpoint, p.lag])).toEqual(
      status.projections.map((p) => [p.name, head, 0]),
    );
    const stored = await pool.query<{ name: string; position: number }>(
      `SELECT name, position FROM ${CHECKPOINTS}`,
    );
    expect(stored.rows.map((r) => r.position)).toEqual(stored.rows.map(() => head));
    const ledger = await ok(h, 'GET', '/api/players/p1/ledger');
    expect(ledger).toMatchObject({ accounts: [{ tableId: 'PGF', bets: 1, staked: 2_500 }] });
    expect((await pool.query('SELECT count(*)::int AS n FROM pl_entries')).rows[0]).toEqual({ n: 3 });
    const metrics = (await h.api('GET', '/metrics', { token: null })).body as string;
    expect(metrics).toContain(`coup_projection_checkpoint{projection="ledger"} ${head}`);
    expect(metrics).toContain('coup_projection_lag_events{projection="ledger"} 0');
  } finally {
    await h.close();
    await pool.end();
  }
});

test('off, PostgreSQL not reachable: queries and the status answer 503 READ_MODELS_UNAVAILABLE; commands, /health and /metrics go on', async () => {
  const closed = await freePort();
  const h = await startService({
    COUP_READ_MODELS: `postgres://coup:secret@127.0.0.1:${closed}/coup`,
    COUP_PROJECTIONS: 'off',
  });
  try {
    await openRound(h, 'DOWN');
    for (const path of [
      '/api/tables/DOWN/hands',
      '/api/players/p1/ledger',
      '/api/stats',
      '/api/projections',
    ]) {
      const res = await h.api('GET', path);
      expect({ path, status: res.status, code: res.body.code }).toEqual({
        path,
        status: 503,
        code: 'READ_MODELS_UNAVAILABLE',
      });
      expect(res.body.message).not.toContain('secret');
    }
    expect((await h.api('GET', '/health', { token: null })).status).toBe(200);
    const metrics = await h.api('GET', '/metrics', { token: null });
    expect(metrics.status).toBe(200);
    expect(metrics.body).not.toMatch(/coup_projection_lag_events\{/);
  } finally {
    await h.close();
  }
});

test('off, a database the projection process has not built yet: queries 503, the status says nothing is folded', async () => {
  const h = await startService({ COUP_READ_MODELS: await pg.createDatabase(), COUP_PROJECTIONS: 'off' });
  try {
    const res = await h.api('GET', '/api/players/p1/ledger');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'READ_MODELS_UNAVAILABLE',
      message: expect.stringContaining('not built yet'),
    });
    const status = (await h.api('GET', '/api/projections')).body as Status;
    expect(status).toMatchObject({ running: false, readModels: 'postgres', foldedBy: 'another process' });
    expect(status.projections.every((p) => p.checkpoint === 0)).toBe(true);
  } finally {
    await h.close();
  }
});

test('worker (the built service): the worker thread folds into PostgreSQL, and waits for a database that is not there yet', async () => {
  const name = `coup_later_${process.pid}_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'coup-pg-worker-'));
  const proc = await spawnService(dir, {
    COUP_READ_MODELS: withDatabase(pg.adminUrl, name),
    COUP_PROJECTIONS: 'worker',
    COUP_PROJECTION_COMMIT_MS: '0',
    LOG_LEVEL: 'error',
  });
  const admin = signToken(SECRET, { sub: 'admin-1', role: 'admin' });
  const get = async (path: string) => (await request(proc.url, 'GET', path, admin))!;
  try {
    // Commands need only the store; the read models' database does not exist yet.
    expect((await request(proc.url, 'POST', '/api/tables', admin, { body: { tableId: 'W1' } }))!.status).toBe(
      201,
    );
    const buyIn = { body: { amount: 7_500 } };
    expect((await request(proc.url, 'POST', '/api/tables/W1/players/p7/buy-in', admin, buyIn))!.status).toBe(
      200,
    );
    expect(await get('/api/players/p7/ledger')).toMatchObject({
      status: 503,
      body: { code: 'READ_MODELS_UNAVAILABLE' },
    });
    // The thread could not open them: it ended, and is started again with backoff.
    for (let i = 0; i < 1_000 && !proc.output().includes('projection worker ended: starting it again'); i++)
      await sleep(20);
    expect(proc.output()).toContain(`database \\"${name}\\" does not exist`);
    const client = new Client({ connectionString: pg.adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE "${name}"`);
    await client.end();
    let ledger = await get('/api/players/p7/ledger');
    for (let i = 0; i < 1_000 && ledger.body?.entries?.length !== 1; i++) {
      await sleep(20);
      ledger = await get('/api/players/p7/ledger');
    }
    expect(ledger.body.entries).toEqual([expect.objectContaining({ kind: 'buy-in', amount: 7_500 })]);
    const status = (await get('/api/projections')).body as Status;
    expect(status).toMatchObject({ running: false, readModels: 'postgres', foldedBy: 'a worker thread' });
  } finally {
    await proc.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
