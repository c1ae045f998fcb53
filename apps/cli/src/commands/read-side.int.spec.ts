import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createEventStore } from '@coup/event-store';
import * as testing from '@coup/projections/testing';
import type { Actor } from '@coup/table';
import { runCli } from '../cli';
import { UsageError } from '../io';
import { fakeIo } from '../testing';
import { projections } from './projections';
import { replay } from './replay';
import { verify } from './verify';

const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
const root = resolve(__dirname, '../../../..');
let dir: string;
const saved = process.env['COUP_DATA_DIR'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-cli-read-'));
  process.env['COUP_DATA_DIR'] = dir;
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  const d = new testing.TableDriver({ tableId: 'T1', players: 2, seed: 9 });
  await testing.appendTable(store, 'T1', d.open());
  for (let i = 0; i < 6; i++) await testing.appendTable(store, 'T1', d.playRound({ void: i === 1 }));
  await testing.appendTable(store, 'T1', d.execute('EndShoe', {}, SUPER));
  await store.close();
});

afterAll(() => {
  if (saved === undefined) delete process.env['COUP_DATA_DIR'];
  else process.env['COUP_DATA_DIR'] = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('coup projections', () => {
  test('status before anything is built, rebuild, then status with no lag', async () => {
    let io = fakeIo();
    expect(await projections.run(['status'], io)).toBe(0);
    expect(io.out()).toContain('hand-history');
    expect(io.out()).toContain('(not built)');
    io = fakeIo(true);
    expect(await projections.run(['rebuild'], io)).toBe(0);
    expect(io.out()).toMatch(
      /^rebuilt table-view, hand-history, roads, stats, ledger, edge-monitor, analyst: [\d,]+ events to position \d+/,
    );
    expect(io.err()).toContain('100%');
    io = fakeIo();
    expect(await projections.run(['status', '--json'], io)).toBe(0);
    const status = JSON.parse(io.out());
    expect(
      status.projections.every(
        (p: { lag: number; checkpoint: number }) => p.lag === 0 && p.checkpoint === status.head,
      ),
    ).toBe(true);
  });

  test('rebuild with the writer thread (default) and in process give the same tables; a bad --writer is refused', async () => {
    // Every read-model table's rows (the checkpoints say when each was rebuilt, so they differ by design).
    const dump = () => {
      const db = new Database(join(dir, 'read-models.sqlite'), { readonly: true });
      try {
        const tables = db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%checkpoint%' ORDER BY name",
          )
          .pluck()
          .all() as string[];
        return Object.fromEntries(
          tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).all()]),
        );
      } finally {
        db.close();
      }
    };
    expect(await projections.run(['rebuild', '--writer', 'in-process'], fakeIo())).toBe(0);
    const inProcess = dump();
    expect(await projections.run(['rebuild'], fakeIo())).toBe(0);
    expect(dump()).toEqual(inProcess);
    expect(await projections.run(['rebuild', '--writer', 'thread'], fakeIo())).toBe(0);
    expect(dump()).toEqual(inProcess);
    await expect(projections.run(['rebuild', '--writer', 'fast'], fakeIo())).rejects.toThrow(/--writer/);
  });

  test('rebuild of one projection by name; an unknown name is a usage error', async () => {
    const io = fakeIo();
    expect(await projections.run(['rebuild', 'roads', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ projections: ['roads'] });
    await expect(projections.run(['rebuild', 'nope'], fakeIo())).rejects.toThrow(UsageError);
    await expect(projections.run(['shuffle'], fakeIo())).rejects.toThrow(UsageError);
  });
});

describe('coup replay', () => {
  test('prints the hand step by step', async () => {
    const io = fakeIo();
    expect(await replay.run(['--table', 'T1', '--round', '3'], io)).toBe(0);
    const out = io.out();
    expect(out).toMatch(/^table T1, round 3, shoe 1: resolved\n/);
    expect(out).toContain('BettingOpened\n    betting opened for round 3');
    expect(out).toMatch(/card 1: \w\w to player \(player1, shoe position \d+\) by dealer-1/);
    expect(out).toMatch(/CoupResolved\n {4}player \d \(.+\) banker \d \(.+\): (player wins|banker wins|tie)/);
    expect(out).toContain('table: phase ready');
  });

  test('an unknown hand exits 1; missing options are usage errors', async () => {
    const io = fakeIo();
    expect(await replay.run(['--table', 'T1', '--round', '99'], io)).toBe(1);
    expect(io.err()).toContain('No hand 99 at table T1');
    await expect(replay.run(['--table', 'T1'], fakeIo())).rejects.toThrow('--round is required');
  });
});

describe('coup verify', () => {
  test('every hand verifies: exit 0, the head hash printed', async () => {
    const io = fakeIo();
    expect(await verify.run(['--table', 'T1'], io)).toBe(0);
    expect(io.out()).toMatch(/table T1: 6 hands verified \(rounds 1-6\): all OK; checks \d+ pass, 0 fail/);
    expect(io.out()).toMatch(/stream head: revision \d+, hash [0-9a-f]{64}/);
    const range = fakeIo();
    expect(await verify.run(['--table', 'T1', '--from', '2', '--to', '3', '--json'], range)).toBe(0);
    expect(JSON.parse(range.out())).toMatchObject({ ok: true, hands: 2 });
  });

  test('a byte changed in the store: exit 1 and the failing event named', async () => {
    const db = new Database(join(dir, 'events.sqlite'));
    const row = db
      .prepare(
        "SELECT global_position AS p, revision AS r FROM events WHERE type = 'BetPlaced' ORDER BY global_position LIMIT 1 OFFSET 3",
      )
      .get() as { p: number; r: number };
    db.prepare(
      'UPDATE events SET data = replace(data, \'"spot":"\', \'"spot": "\') WHERE global_position = ?',
    ).run(row.p);
    db.close();
    const io = fakeIo();
    expect(await verify.run(['--table', 'T1'], io)).toBe(1);
    expect(io.out()).toContain(`FAIL chain: event BetPlaced at revision ${row.r} (position ${row.p})`);
    expect(io.out()).toMatch(/1 FAILED/);
  });

  test('bad ranges are usage errors', async () => {
    await expect(verify.run(['--table', 'T1', '--from', '5', '--to', '2'], fakeIo())).rejects.toThrow(
      '--from must not be after --to',
    );
    await expect(verify.run([], fakeIo())).rejects.toThrow('--table is required');
  });

  test('runs through the coup entry point (npm run -s coup -- verify ...) with its exit code', () => {
    const r = spawnSync(
      process.execPath,
      ['tools/coup.mjs', 'verify', '--table', 'T1', '--from', '1', '--to', '1'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, COUP_DATA_DIR: dir },
      },
    );
    expect(r.stdout).toContain('table T1: 1 hands verified');
    expect(r.status).toBe(0);
  }, 60_000);
});

describe('COUP_READ_MODELS that names nothing the read side can open', () => {
  // what a typo would make under the current directory if it were taken for a file path
  const strays = ['postgress:', 'mysql:', 'postgres:'].map((d) => resolve(d));
  afterEach(() => {
    delete process.env['COUP_READ_MODELS'];
    for (const d of strays) rmSync(d, { recursive: true, force: true });
  });

  test.each([
    ['postgress://u:secret@db/coup', 'COUP_READ_MODELS must be a SQLite file path or a postgres:// URL'],
    ['mysql://u:secret@db/coup', 'COUP_READ_MODELS must be a SQLite file path or a postgres:// URL'],
    ['postgres://', 'COUP_READ_MODELS is not a valid URL: postgres://user:password@host:5432/database'],
  ])(
    '%p: replay, verify and projections run, rebuild, status refuse it (exit 2); nothing made',
    async (value, message) => {
      process.env['COUP_READ_MODELS'] = value;
      const calls = [
        ['replay', '--table', 'T1', '--round', '1'],
        ['verify', '--table', 'T1'],
        ['projections', 'run', '--once'],
        ['projections', 'rebuild'],
        ['projections', 'status'],
      ];
      for (const argv of calls) {
        const io = fakeIo();
        expect(await runCli(argv, io)).toBe(2);
        expect(io.err()).toBe(`coup ${argv[0]}: ${message}\nRun 'coup help ${argv[0]}' for usage.\n`);
      }
      expect(strays.filter((d) => existsSync(d))).toEqual([]);
    },
  );
});

describe('read models the runner cannot open', () => {
  /** This process's open files that are `file` (Linux: /proc/self/fd). */
  const openFds = (file: string): string[] =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === file;
      } catch {
        return false; // closed since it was listed
      }
    });

  test("the runner's constructor fails: replay, verify, projections run (--once or live) throw its error and close the file", async () => {
    const file = join(dir, 'broken-read-models.sqlite');
    // a checkpoints table without its columns: the runner's constructor fails making its tables
    const db = new Database(file);
    db.exec('CREATE TABLE projection_checkpoints (name TEXT PRIMARY KEY)');
    db.close();
    process.env['COUP_READ_MODELS'] = file;
    try {
      for (const [command, args] of [
        [replay, ['--table', 'T1', '--round', '1']],
        [verify, ['--table', 'T1']],
        [projections, ['run', '--once']],
        [projections, ['run', '--progress-every', '0']],
      ] as const) {
        const io = fakeIo();
        // by its message: better-sqlite3 makes its errors with the class of the first test file that loaded it in
        // this process, an Error of another realm, which `rejects.toThrow` does not take for one
        const outcome = await Promise.resolve(command.run([...args], io)).then(
          (code) => ({ code, err: io.err() }),
          (error: Error) => error.message,
        );
        expect(outcome).toEqual(expect.stringMatching(/projection_checkpoints has no column named version/));
        expect(openFds(file)).toEqual([]);
      }
    } finally {
      delete process.env['COUP_READ_MODELS'];
    }
  });
});

describe("the data folder's read models, shared with a running service", () => {
  test("replay and verify fold only what they read: the analysts' model folded by another configuration is left as it is", async () => {
    // a data folder of its own (an earlier test changes a byte of the shared one's store)
    const own = mkdtempSync(join(tmpdir(), 'coup-cli-shared-'));
    const store = createEventStore({ kind: 'sqlite', file: join(own, 'events.sqlite') });
    const d = new testing.TableDriver({ tableId: 'T1', players: 2, seed: 4 });
    await testing.appendTable(store, 'T1', d.open());
    for (let i = 0; i < 3; i++) await testing.appendTable(store, 'T1', d.playRound());
    await store.close();
    const file = join(own, 'read-models.sqlite');
    process.env['COUP_DATA_DIR'] = own;
    process.env['COUP_READ_MODELS'] = file;
    const analyst = () => {
      const db = new Database(file, { readonly: true });
      try {
        return {
          checkpoint: db
            .prepare(
              "SELECT version, position, generation FROM projection_checkpoints WHERE name = 'analyst'",
            )
            .get(),
          facts: db.prepare('SELECT count(*) AS n FROM sqlite_master WHERE name LIKE ?').get('an_%'),
        };
      } finally {
        db.close();
      }
    };
    try {
      // the service's (or `coup projections run`'s) configuration: shifts of its own
      process.env['COUP_SHIFTS'] = 'day=06:00,night=18:00';
      expect(await projections.run(['rebuild'], fakeIo())).toBe(0);
      delete process.env['COUP_SHIFTS'];
      const before = analyst();
      expect(before.checkpoint).toBeDefined();
      expect(await verify.run(['--table', 'T1'], fakeIo())).toBe(0);
      expect(await replay.run(['--table', 'T1', '--round', '1'], fakeIo())).toBe(0);
      expect(analyst()).toEqual(before);
    } finally {
      delete process.env['COUP_SHIFTS'];
      delete process.env['COUP_READ_MODELS'];
      process.env['COUP_DATA_DIR'] = dir;
      rmSync(own, { recursive: true, force: true });
    }
  });
});
