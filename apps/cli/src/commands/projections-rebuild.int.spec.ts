/**
 * `coup projections rebuild` refolds the analysts' model with the configured gaming day and shifts
 * (COUP_GAMING_DAY, COUP_SHIFTS), as the service and `coup projections run` fold it: a rebuild into a SQLite file
 * and into PostgreSQL gives the an_ rows `projections run --once` gives, which differ from the default day's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { createEventStore } from '@coup/event-store';
import { PROJECTIONS, ProjectionRunner, pgTypes } from '@coup/projections';
import * as testing from '@coup/projections/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the PostgreSQL test server is a test tool outside every project
import { startTestPostgres, type TestPostgres } from '../../../../tools/postgres';
import { fakeIo } from '../testing';
import { projections } from './projections';

jest.setTimeout(60_000);

let dir: string;
let pg: TestPostgres;
const saved = { ...process.env };

beforeAll(async () => {
  pg = await startTestPostgres();
  dir = mkdtempSync(join(tmpdir(), 'coup-cli-rebuild-'));
  process.env['COUP_DATA_DIR'] = dir;
  // London summer time: the day turns at 05:00 UTC, not the default 06:00 UTC; shifts of their own
  process.env['COUP_GAMING_DAY'] = '06:00 Europe/London';
  process.env['COUP_SHIFTS'] = 'day=06:00,swing=14:00,grave=22:00';
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  const d = new testing.TableDriver({
    tableId: 'T1',
    players: 3,
    seed: 7,
    start: '2026-07-01T04:40:00.000Z',
    stepMs: 20_000,
  });
  await testing.appendTable(store, 'T1', d.open());
  for (let i = 0; i < 10; i++) await testing.appendTable(store, 'T1', d.playRound({ void: i === 3 }));
  await store.close();
});

afterAll(async () => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
  await pg?.stop();
});

/** The an_ tables' rows (sorted), from SQLite or PostgreSQL. */
async function analystRows(target: string): Promise<Record<string, string[]>> {
  const analyst = PROJECTIONS.find((p) => p.name === 'analyst');
  const names = (analyst?.tables ?? []).map((t) => t.name);
  const out: Record<string, string[]> = {};
  if (target.startsWith('postgres')) {
    const pool = new Pool({ connectionString: target, types: pgTypes });
    try {
      for (const t of names)
        out[t] = (await pool.query(`SELECT * FROM "${t}"`)).rows.map((r) => JSON.stringify(r)).sort();
    } finally {
      await pool.end();
    }
    return out;
  }
  const db = new Database(target, { readonly: true });
  try {
    for (const t of names)
      out[t] = db
        .prepare(`SELECT * FROM "${t}"`)
        .all()
        .map((r) => JSON.stringify(r))
        .sort();
  } finally {
    db.close();
  }
  return out;
}

async function cli(readModels: string, ...args: string[]): Promise<void> {
  process.env['COUP_READ_MODELS'] = readModels;
  const io = fakeIo();
  expect({ args, code: await projections.run(args, io), err: io.err() }).toEqual({ args, code: 0, err: '' });
}

test('a rebuild folds the an_ rows with COUP_GAMING_DAY and COUP_SHIFTS, as projections run does', async () => {
  const run = join(dir, 'run.sqlite');
  await cli(run, 'run', '--once', '--progress-every', '0');
  const expected = await analystRows(run);
  expect(expected['an_fact_coups']?.length).toBeGreaterThan(5);

  // the default gaming day places these facts otherwise: the comparison below can tell
  const byDefault = join(dir, 'default.sqlite');
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  const runner = new ProjectionRunner({ store, readModels: byDefault });
  await runner.catchUp();
  await runner.close();
  await store.close();
  expect(await analystRows(byDefault)).not.toEqual(expected);

  const rebuilt = join(dir, 'rebuilt.sqlite');
  await cli(rebuilt, 'rebuild', '--writer', 'in-process');
  expect(await analystRows(rebuilt)).toEqual(expected);
  await cli(rebuilt, 'rebuild', 'analyst');
  expect(await analystRows(rebuilt)).toEqual(expected);

  const url = await pg.createDatabase();
  await cli(url, 'rebuild');
  const fromPg = await analystRows(url);
  // PostgreSQL answers the same rows; its JSON of a row may differ only where SQLite's does not (none here)
  expect(fromPg).toEqual(expected);
});
