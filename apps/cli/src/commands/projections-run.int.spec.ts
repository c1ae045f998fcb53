/**
 * `coup projections run`: the projection process on a SQLite store and SQLite read models. `--once` catches up and
 * exits; live, it follows what is appended after it started, and a stop signal commits the batch in progress and
 * ends the run with 0; a run started again resumes from the checkpoints. The read models equal, table by table,
 * the log folded from scratch into another file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type EventStore, createEventStore } from '@coup/event-store';
import { CHECKPOINTS, ProjectionRunner } from '@coup/projections';
import * as testing from '@coup/projections/testing';
import { UsageError } from '../io';
import { fakeIo } from '../testing';
import { projections } from './projections';

let dir: string;
let store: EventStore;
const driver = new testing.TableDriver({ tableId: 'R1', players: 3, seed: 4 });
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-cli-run-'));
  process.env['COUP_DATA_DIR'] = dir;
  process.env['COUP_READ_MODELS'] = join(dir, 'shared-read-models.sqlite');
  store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  await testing.appendTable(store, 'R1', driver.open());
  for (let i = 0; i < 4; i++) await testing.appendTable(store, 'R1', driver.playRound({ void: i === 2 }));
});

afterAll(async () => {
  await store.close();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** Every table of a read-model file but the checkpoints (which say when and how each was built), rows sorted. */
function dump(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name <> ? ORDER BY name`)
      .pluck()
      .all(CHECKPOINTS) as string[];
    return Object.fromEntries(
      tables.map((t) => [
        t,
        (db.prepare(`SELECT * FROM "${t}"`).all() as unknown[]).map((r) => JSON.stringify(r)).sort(),
      ]),
    );
  } finally {
    db.close();
  }
}

/** The shared read models, and the log folded from scratch into a file of its own in one catch-up. */
async function tablesAndRebuild(): Promise<[unknown, unknown]> {
  const file = join(dir, `rebuilt-${Date.now()}.sqlite`);
  const runner = new ProjectionRunner({ store, readModels: file });
  await runner.catchUp();
  await runner.close();
  return [dump(join(dir, 'shared-read-models.sqlite')), dump(file)];
}

function checkpoints(): number[] {
  const db = new Database(join(dir, 'shared-read-models.sqlite'), { readonly: true });
  try {
    return (db.prepare(`SELECT position FROM ${CHECKPOINTS}`).all() as { position: number }[]).map(
      (r) => r.position,
    );
  } finally {
    db.close();
  }
}

const head = async () => Number((await store.headPosition()) ?? 0);
const logLines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { level: string; msg: string; [k: string]: unknown });

test('--once folds the log into the read models COUP_READ_MODELS names, logs where it stopped, and exits 0', async () => {
  const io = fakeIo();
  expect(await projections.run(['run', '--once', '--max-batch', '100'], io)).toBe(0);
  const last = logLines(io.out()).at(-1)!;
  expect(last).toMatchObject({ level: 'info', msg: 'caught up', position: await head() });
  expect(last['events']).toBe(await head());
  const [tables, rebuilt] = await tablesAndRebuild();
  expect(tables).toEqual(rebuilt);
  // Nothing new: a second run folds nothing.
  const again = fakeIo();
  expect(await projections.run(['run', '--once'], again)).toBe(0);
  expect(logLines(again.out()).at(-1)).toMatchObject({ msg: 'caught up', events: 0 });
});

test('live: follows what is appended, a stop signal commits and ends it with 0, a new run resumes', async () => {
  const io = fakeIo();
  const running = projections.run(['run', '--commit-ms', '0', '--progress-every', '0'], io);
  await testing.appendTable(store, 'R1', driver.playRound());
  await testing.appendTable(store, 'R1', driver.playRound());
  const target = await head();
  for (let i = 0; i < 500 && !checkpoints().every((p) => p === target); i++)
    await new Promise((r) => setTimeout(r, 20));
  expect(checkpoints().every((p) => p === target)).toBe(true);
  process.emit('SIGTERM', 'SIGTERM');
  expect(await running).toBe(0);
  const lines = logLines(io.out());
  expect(lines[0]).toMatchObject({ msg: 'following the log', store: 'sqlite' });
  expect(lines.at(-1)).toMatchObject({ msg: 'stopped', position: target });
  expect(process.listenerCount('SIGTERM')).toBe(0);
  // Appended while it was stopped: the next run starts from its checkpoints.
  await testing.appendTable(store, 'R1', driver.playRound());
  const resumed = fakeIo();
  expect(await projections.run(['run', '--once'], resumed)).toBe(0);
  expect(logLines(resumed.out()).at(-1)).toMatchObject({ position: await head() });
  expect(Number(logLines(resumed.out()).at(-1)!['events'])).toBe((await head()) - target);
  const [tables, rebuilt] = await tablesAndRebuild();
  expect(tables).toEqual(rebuilt);
});

test('bad options and settings are usage errors', async () => {
  await expect(projections.run(['run', '--max-batch', '5'], fakeIo())).rejects.toThrow(UsageError);
  await expect(projections.run(['run', 'extra'], fakeIo())).rejects.toThrow(/unexpected argument/);
  process.env['COUP_GAMING_DAY'] = '25:00 UTC';
  try {
    await expect(projections.run(['run', '--once'], fakeIo())).rejects.toThrow(/COUP_GAMING_DAY/);
  } finally {
    delete process.env['COUP_GAMING_DAY'];
  }
});
