/**
 * The read-side commands with COUP_READ_MODELS naming PostgreSQL: `coup replay` and `coup verify` read the shared
 * read models as the projection process left them, with no runner (no DDL, no checkpoint or row written, whatever
 * COUP_GAMING_DAY and COUP_SHIFTS say), and say so plainly when a hand is not folded yet (exit 3), is in play, or
 * is not there (exit 1: a round the store has no event of, however busy the table); `coup export` reads them.
 * None of them makes a read-model file in the data folder. Each test has its own data folder and database.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { createEventStore } from '@coup/event-store';
import { ProjectionRunner, gamingDayConfig, projectionsFor } from '@coup/projections';
import * as testing from '@coup/projections/testing';
import type { Actor, TableEvent } from '@coup/table';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the PostgreSQL test server is a test tool outside every project
import { startTestPostgres, type TestPostgres } from '../../../../tools/postgres';
import type { Command } from '../command';
import { EXIT } from '../io';
import { fakeIo } from '../testing';
import { exportCommand } from './export';
import { replay } from './replay';
import { verify } from './verify';

jest.setTimeout(60_000);

let pg: TestPostgres;
const dirs: string[] = [];
const saved = { ...process.env };
/** The projection process's settings: its analysts' model (and so its version) differs from the default one. */
const PROCESS_GAMING_DAY = { gamingDay: '06:00 Europe/London', shifts: 'early=06:00,late=18:00' };

interface DataFolder {
  readonly dir: string;
  /** Appends `n` rounds played. */
  append(n: number): Promise<void>;
  /** Appends the events `make` has the table's driver decide. */
  appendEvents(make: (driver: testing.TableDriver) => TableEvent[]): Promise<void>;
}

/** A data folder whose store holds table T1 opened and `rounds` rounds played (round 2 voided); more by `append`. */
async function dataFolder(rounds: number): Promise<DataFolder> {
  const dir = mkdtempSync(join(tmpdir(), 'coup-cli-read-pg-'));
  dirs.push(dir);
  const driver = new testing.TableDriver({
    tableId: 'T1',
    players: 2,
    seed: 9,
    start: '2026-12-01T10:00:00.000Z',
    stepMs: 30_000,
  });
  let played = 0;
  const appendEvents = async (make: (d: testing.TableDriver) => TableEvent[]): Promise<void> => {
    const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
    try {
      await testing.appendTable(store, 'T1', make(driver));
    } finally {
      await store.close();
    }
  };
  const append = (n: number): Promise<void> =>
    appendEvents((d) => Array.from({ length: n }, () => d.playRound({ void: played++ === 1 })).flat());
  await appendEvents((d) => d.open());
  await append(rounds);
  process.env['COUP_DATA_DIR'] = dir;
  return { dir, append, appendEvents };
}

/** A database folded from the folder's store by a runner with the projection process's gaming day and shifts. */
async function foldInto(dir: string, url?: string): Promise<string> {
  const target = url ?? (await pg.createDatabase());
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  const runner = new ProjectionRunner({
    store,
    readModels: target,
    projections: projectionsFor(gamingDayConfig(PROCESS_GAMING_DAY)),
  });
  try {
    await runner.catchUp();
  } finally {
    await runner.close();
    await store.close();
  }
  return target;
}

/**
 * Everything of the database's schema: each relation's name, kind and oid (a table or view dropped and made again
 * gets a new one), each view's definition and index's, and a checksum of each table's rows with their xmin (which
 * any UPDATE, even to the same values, changes).
 */
async function fingerprint(url: string): Promise<Record<string, string>> {
  const pool = new Pool({ connectionString: url });
  try {
    const relations = await pool.query<{ name: string; kind: string; oid: string; def: string | null }>(
      `SELECT c.relname AS name, c.relkind AS kind, c.oid::text AS oid,
              CASE c.relkind WHEN 'v' THEN pg_get_viewdef(c.oid) WHEN 'i' THEN pg_get_indexdef(c.oid) END AS def
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'm', 'i') ORDER BY 1`,
    );
    const out: Record<string, string> = {};
    for (const r of relations.rows) {
      out[r.name] = `${r.kind} ${r.oid} ${r.def ?? ''}`;
      if (r.kind !== 'r') continue;
      const { rows } = await pool.query<{ h: string }>(
        `SELECT md5(coalesce(string_agg(t::text || ' ' || t.xmin::text, E'\\n' ORDER BY t::text), '')) AS h FROM "${r.name}" t`,
      );
      out[r.name] += ` ${rows[0]?.h}`;
    }
    return out;
  } finally {
    await pool.end();
  }
}

/** The data folder holds the store only: no read-model file was made beside it. */
function expectStoreOnly(dir: string): void {
  expect(readdirSync(dir).filter((f) => !f.startsWith('events.sqlite'))).toEqual([]);
}

beforeAll(async () => {
  pg = await startTestPostgres();
});

beforeEach(() => {
  // the CLI's shell: no gaming day or shifts set, unlike the projection process's
  delete process.env['COUP_GAMING_DAY'];
  delete process.env['COUP_SHIFTS'];
});

afterAll(async () => {
  process.env = saved;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await pg?.stop();
});

test('replay and verify read PostgreSQL as the projection process left it: no DDL, no write, no local file', async () => {
  const { dir } = await dataFolder(5);
  const url = await foldInto(dir);
  process.env['COUP_READ_MODELS'] = url;
  const before = await fingerprint(url);
  expect(Object.keys(before).length).toBeGreaterThan(10);

  let io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '3', '--json'], io)).toBe(0);
  expect(io.err()).toBe('');
  const hand = JSON.parse(io.out()) as { tableId: string; roundNo: number; status: string; steps: unknown[] };
  expect([hand.tableId, hand.roundNo, hand.status]).toEqual(['T1', 3, 'resolved']);
  expect(hand.steps.length).toBeGreaterThan(5);

  io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '2'], io)).toBe(0);
  expect(io.out()).toContain('table T1, round 2');
  expect(io.out()).toContain('round voided');

  io = fakeIo();
  expect(await verify.run(['--table', 'T1', '--json'], io)).toBe(0);
  expect(io.err()).toBe('');
  const verified = JSON.parse(io.out()) as { ok: boolean; hands: number; failed: number };
  expect(verified).toMatchObject({ ok: true, hands: 5, failed: 0, readModels: { unfolded: false } });

  expect(await fingerprint(url)).toEqual(before);
  expectStoreOnly(dir);
});

test('a hand the projection process has not folded yet: exit 3 naming the positions; folded, it is answered', async () => {
  const { dir, append } = await dataFolder(3);
  const url = await foldInto(dir);
  process.env['COUP_READ_MODELS'] = url;
  await append(2);
  const before = await fingerprint(url);

  let io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '5'], io)).toBe(EXIT.notFoldedYet);
  expect(io.out()).toBe('');
  expect(io.err()).toMatch(
    /^coup replay: round 5 of table T1 is not in the read models yet: they are folded to position \d+, the table's last event is at position \d+; retry once the projection process has folded it\n$/,
  );

  // verify says how far the read models go; the hands folded verify, and a --to not folded yet exits 3
  io = fakeIo();
  expect(await verify.run(['--table', 'T1'], io)).toBe(0);
  expect(io.out()).toMatch(/table T1: 3 hands verified \(rounds 1-3\): all OK/);
  expect(io.out()).toMatch(
    /read models folded to position (\d+); table T1's events after it \(to position \d+\) are not folded yet: hands finished after it are not verified\n/,
  );
  io = fakeIo();
  expect(await verify.run(['--table', 'T1', '--to', '5', '--json'], io)).toBe(EXIT.notFoldedYet);
  expect(JSON.parse(io.out())).toMatchObject({ ok: true, hands: 3, readModels: { unfolded: true } });
  expect(await fingerprint(url)).toEqual(before);

  // the projection process folds the rest: round 5 is answered, and a hand that is nowhere exits 1
  await foldInto(dir, url);
  io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '5'], io)).toBe(0);
  expect(io.out()).toContain('table T1, round 5');
  io = fakeIo();
  expect(await replay.run(['--table', 'T1', '--round', '99'], io)).toBe(1);
  expect(io.err()).toContain('No hand 99 at table T1');
  io = fakeIo();
  expect(await verify.run(['--table', 'T1', '--to', '5'], io)).toBe(0);
  expect(io.out()).toMatch(/5 hands verified \(rounds 1-5\): all OK/);
  expect(io.out()).not.toContain('not folded yet');
  expectStoreOnly(dir);
});

/** Runs a command; its exit code and what it wrote. */
async function run(command: Command, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = fakeIo();
  const code = await command.run(args, io);
  return { code, out: io.out(), err: io.err() };
}

test('on a table with events not folded: a round never recorded exits 1, one in play says so, one not folded exits 3', async () => {
  const { dir, append, appendEvents } = await dataFolder(3);
  const P1: Actor = { id: 'p1', role: 'player' };
  const bet = (d: testing.TableDriver): TableEvent[] =>
    d.execute('PlaceBet', { roundNo: 4, playerId: 'p1', spot: 'player', amount: 100 }, P1);
  // round 4 opened with a bet, folded; another bet on it after the position the read models are folded to
  await appendEvents((d) => [...d.execute('OpenBetting', {}), ...bet(d)]);
  process.env['COUP_READ_MODELS'] = await foldInto(dir);
  await appendEvents(bet);

  // a round the store has no event of, however far: no such hand (exit 3 forever before, the table being busy)
  for (const round of ['5', '999999']) {
    expect(await run(replay, ['--table', 'T1', '--round', round])).toEqual({
      code: 1,
      out: '',
      err: `coup replay: No hand ${round} at table T1: its last round is 4\n`,
    });
    const verified = await run(verify, ['--table', 'T1', '--to', round]);
    expect([verified.code, verified.err]).toEqual([
      1,
      `coup verify: No hand ${round} at table T1: its last round is 4\n`,
    ]);
    expect(verified.out).toMatch(/table T1: 3 hands verified \(rounds 1-3\): all OK/);
  }

  // round 4 is in play: replay shows it as far as it went; verify verifies the others and says so, exit 0
  let r = await run(replay, ['--table', 'T1', '--round', '4']);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/^table T1, round 4, shoe \d+: betting \(in play: the hand so far\)\n/);
  r = await run(verify, ['--table', 'T1', '--to', '4']);
  expect([r.code, r.err]).toEqual([0, '']);
  expect(r.out).toContain('round 4 of table T1 is in play (betting): verified once it ends\n');
  r = await run(verify, ['--table', 'T1', '--to', '4', '--json']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.out)).toMatchObject({
    ok: true,
    hands: 3,
    readModels: { unfolded: true },
    toRound: { roundNo: 4, state: 'in play', status: 'betting' },
  });

  // round 4 ends and round 5 is played, neither folded: not folded yet (3); round 6: no such hand (1)
  await appendEvents((d) => [
    ...d.execute('CloseBetting', { roundNo: 4 }),
    ...d.execute('Deal', { roundNo: 4 }),
  ]);
  await append(1);
  r = await run(verify, ['--table', 'T1', '--to', '4']);
  expect(r.code).toBe(EXIT.notFoldedYet);
  expect(r.err).toMatch(
    /^coup verify: round 4 of table T1 has ended in the store, not yet in the read models: /,
  );
  r = await run(verify, ['--table', 'T1', '--to', '5']);
  expect(r.code).toBe(EXIT.notFoldedYet);
  expect(r.err).toMatch(
    /^coup verify: round 5 of table T1 is not in the read models yet: they are folded to /,
  );
  expect((await run(replay, ['--table', 'T1', '--round', '5'])).code).toBe(EXIT.notFoldedYet);
  r = await run(replay, ['--table', 'T1', '--round', '6']);
  expect([r.code, r.err]).toEqual([1, 'coup replay: No hand 6 at table T1: its last round is 5\n']);
  expect((await run(verify, ['--table', 'T1', '--to', '6'])).code).toBe(1);
  expectStoreOnly(dir);
});

test('a database the projection process has not built: exit 1 saying so, and nothing made in it', async () => {
  await dataFolder(1);
  const url = await pg.createDatabase();
  process.env['COUP_READ_MODELS'] = url;
  const before = await fingerprint(url);
  for (const [command, args] of [
    [replay, ['--table', 'T1', '--round', '1']],
    [verify, ['--table', 'T1']],
  ] as const) {
    const io = fakeIo();
    expect(await command.run([...args], io)).toBe(1);
    expect(io.err()).toBe(
      `coup ${command.name}: the read models in PostgreSQL are not built yet: the projection process (coup projections run) makes them\n`,
    );
  }
  expect(await fingerprint(url)).toEqual(before);
});

test('export reads PostgreSQL and writes no read-model file', async () => {
  const { dir } = await dataFolder(7);
  process.env['COUP_READ_MODELS'] = await foldInto(dir);
  const out = mkdtempSync(join(tmpdir(), 'coup-cli-read-pg-out-'));
  dirs.push(out);
  const io = fakeIo();
  const args = ['--gaming-day', '2026-12-01', '--format', 'csv', '--tables', 'coups', '--out', out];
  expect(await exportCommand.run(args, io)).toBe(0);
  // 7 rounds, 1 of them voided: 6 coups
  expect(io.out()).toMatch(/coups-2026-12-01\.csv\t6 rows\t\d+ bytes\n$/);
  expectStoreOnly(dir);
});
