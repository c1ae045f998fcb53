/**
 * The read-side commands with COUP_READ_MODELS naming PostgreSQL: `coup replay` and `coup verify` catch up into
 * (and read from) the shared PostgreSQL read models, as the service and `coup projections run` do, and `coup export`
 * reads them; none of them makes a read-model file in the data folder. The PostgreSQL tables afterwards equal the
 * log folded from scratch into another database.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { createEventStore } from '@coup/event-store';
import { CHECKPOINTS, ProjectionRunner, pgTypes, testing } from '@coup/projections';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the PostgreSQL test server is a test tool outside every project
import { startTestPostgres, type TestPostgres } from '../../../../tools/postgres';
import { fakeIo } from '../testing';
import { exportCommand } from './export';
import { replay } from './replay';
import { verify } from './verify';

jest.setTimeout(60_000);

let dir: string;
let pg: TestPostgres;
const saved = { ...process.env };
const driver = new testing.TableDriver({
  tableId: 'T1',
  players: 2,
  seed: 9,
  start: '2026-12-01T10:00:00.000Z',
  stepMs: 30_000,
});

async function append(rounds: number): Promise<void> {
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  try {
    for (let i = 0; i < rounds; i++)
      await testing.appendTable(store, 'T1', driver.playRound({ void: i === 1 }));
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  pg = await startTestPostgres();
  dir = mkdtempSync(join(tmpdir(), 'coup-cli-read-pg-'));
  process.env['COUP_DATA_DIR'] = dir;
  delete process.env['COUP_GAMING_DAY'];
  delete process.env['COUP_SHIFTS'];
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  await testing.appendTable(store, 'T1', driver.open());
  await store.close();
  await append(5);
});

afterAll(async () => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
  await pg?.stop();
});

/** Every read-model table of a database but the checkpoints (which say when each was built), rows sorted. */
async function dump(url: string): Promise<Record<string, string[]>> {
  const pool = new Pool({ connectionString: url, types: pgTypes });
  try {
    const tables = (
      await pool.query<{ t: string }>(
        `SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() AND tablename <> $1 ORDER BY 1`,
        [CHECKPOINTS],
      )
    ).rows.map((r) => r.t);
    const out: Record<string, string[]> = {};
    for (const t of tables)
      out[t] = (await pool.query(`SELECT * FROM "${t}"`)).rows.map((r) => JSON.stringify(r)).sort();
    return out;
  } finally {
    await pool.end();
  }
}

/** The log folded from scratch into a database of its own. */
async function rebuilt(): Promise<Record<string, string[]>> {
  const url = await pg.createDatabase();
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  const runner = new ProjectionRunner({ store, readModels: url });
  try {
    await runner.catchUp();
  } finally {
    await runner.close();
    await store.close();
  }
  return dump(url);
}

/** The data folder holds the store only: no read-model file was made beside it. */
function expectStoreOnly(): void {
  expect(readdirSync(dir).filter((f) => !f.startsWith('events.sqlite'))).toEqual([]);
}

test('replay and verify catch up into PostgreSQL and read from it; no local read-model file', async () => {
  const url = await pg.createDatabase();
  process.env['COUP_READ_MODELS'] = url;

  let io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '3', '--json'], io)).toBe(0);
  expect(io.err()).toMatch(/^read models caught up with \d+ new events\n$/);
  const hand = JSON.parse(io.out()) as { tableId: string; roundNo: number; status: string; steps: unknown[] };
  expect([hand.tableId, hand.roundNo, hand.status]).toEqual(['T1', 3, 'resolved']);
  expect(hand.steps.length).toBeGreaterThan(5);
  expectStoreOnly();
  expect(await dump(url)).toEqual(await rebuilt());

  // the checkpoints kept in PostgreSQL: a second run has nothing to catch up
  io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '2'], io)).toBe(0);
  expect(io.err()).toBe('');
  expect(io.out()).toContain('table T1, round 2');
  expect(io.out()).toContain('round voided');

  // verify folds what was appended since into the same database, and verifies every hand it finds there
  await append(2);
  io = fakeIo();
  expect(await verify.run(['--table', 'T1', '--json'], io)).toBe(0);
  expect(io.err()).toMatch(/^read models caught up with \d+ new events\n$/);
  const verified = JSON.parse(io.out()) as { ok: boolean; hands: number; failed: number };
  expect(verified).toMatchObject({ ok: true, hands: 7, failed: 0 });
  expectStoreOnly();
  expect(await dump(url)).toEqual(await rebuilt());
});

test('export reads PostgreSQL and writes no read-model file', async () => {
  const url = await pg.createDatabase();
  process.env['COUP_READ_MODELS'] = url;
  expect(await verify.run(['--table', 'T1'], fakeIo())).toBe(0);
  const out = mkdtempSync(join(tmpdir(), 'coup-cli-read-pg-out-'));
  try {
    const io = fakeIo();
    const args = ['--gaming-day', '2026-12-01', '--format', 'csv', '--tables', 'coups', '--out', out];
    expect(await exportCommand.run(args, io)).toBe(0);
    // 7 rounds, 2 of them voided: 5 coups
    expect(io.out()).toMatch(/coups-2026-12-01\.csv\t5 rows\t\d+ bytes\n$/);
    expectStoreOnly();
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
