import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, MemoryEventStore, createEventStore } from '@coup/event-store';
import { PROJECTIONS, ledgerProjection } from '../read-models';
import { dumpMemory, dumpSqlite } from '../testing/compare';
import { TableDriver } from '../testing/driver';
import { appendTable, allEvents } from '../testing/store';
import { CHECKPOINTS, createTableSql, openReadModelDb, stateTable } from './db';
import { ProjectionEngine } from './engine';
import { rebuildProjections } from './rebuild';
import { ProjectionRunner } from './runner';

const all = allEvents;

/**
 * Two tables (rng and live) playing `rounds` rounds each, appended command by command; now and then a settled
 * coup is corrected or voided (its hand row then updated in place).
 */
async function play(store: EventStore, rounds: number, drivers?: TableDriver[]): Promise<TableDriver[]> {
  const ds = drivers ?? [
    new TableDriver({ tableId: 'R1', voidRate: 0.05, settledVoidRate: 0.1, seed: 3 }),
    new TableDriver({
      tableId: 'L1',
      rules: { dealing: 'live', commission: 'box' },
      correctionRate: 0.1,
      voidRate: 0.05,
      settledCorrectionRate: 0.25,
      settledVoidRate: 0.1,
      seed: 4,
    }),
  ];
  if (!drivers) for (const d of ds) await appendTable(store, d.options.tableId, d.open());
  for (let i = 0; i < rounds; i++)
    for (const d of ds) await appendTable(store, d.options.tableId, d.playRound());
  return ds;
}

jest.setTimeout(30_000);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coup-projections-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('projection runner', () => {
  test('follows the store live and its read models equal the pure folds of the same events', async () => {
    const store = new MemoryEventStore();
    const runner = new ProjectionRunner({ store, readModels: join(dir, 'rm.sqlite'), maxBatch: 64 });
    runner.start();
    await play(store, 20);
    // events outside table streams (snapshots) are skipped but move the checkpoints
    const snap = await store.appendToStream('tablesnapshot-R1', [
      {
        id: '00000000-0000-4000-8000-000000000001',
        type: 'TableSnapshotTaken',
        data: { x: 1 },
        metadata: { schemaVersion: 1 },
      },
    ]);
    await runner.waitFor(snap.position);
    const events = await all(store);
    // a settled coup's hand row updated in place, in the file as in memory
    for (const type of ['SettledCoupCorrected', 'SettledCoupVoided'])
      expect(events.some((e) => e.type === type)).toBe(true);
    expect(dumpSqlite(runner.db, PROJECTIONS)).toEqual(dumpMemory(events, PROJECTIONS));
    const status = await runner.status();
    expect(status.running).toBe(true);
    for (const p of status.projections)
      expect(p).toMatchObject({ checkpoint: Number(snap.position), lag: 0 });
    await runner.close();
    await store.close();
  });

  test("statement journals stay in memory on the runner's own connection only (a rebuild's index sorts stay on disk)", async () => {
    const store = new MemoryEventStore();
    const file = join(dir, 'rm-temp.sqlite');
    const runner = new ProjectionRunner({ store, readModels: file });
    expect(runner.db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
    const other = openReadModelDb(file);
    expect(other.pragma('temp_store', { simple: true })).toBe(0); // DEFAULT: files
    const given = new ProjectionRunner({ store, readModels: other });
    expect(given.db.pragma('temp_store', { simple: true })).toBe(0); // a caller's connection is left as it is
    await given.close();
    await runner.close();
    other.close();
    await store.close();
  });

  test('live with minCommitIntervalMs: a quiet event commits at once, a steady stream once per interval', async () => {
    const commitsWhileBusy = async (minCommitIntervalMs: number) => {
      const store = new MemoryEventStore();
      const runner = new ProjectionRunner({
        store,
        readModels: join(dir, `rm-${minCommitIntervalMs}.sqlite`),
        minCommitIntervalMs,
      });
      const applied = jest.spyOn(runner.engine, 'applyBatch');
      runner.start();
      // Quiet: the table's first events are applied without waiting for the interval.
      const driver = new TableDriver({ tableId: 'R1', seed: 7 });
      const opened = (await appendTable(store, 'R1', driver.open())).position;
      const t0 = performance.now();
      await runner.waitFor(opened);
      const quietMs = performance.now() - t0;
      // Busy: a round every 20 ms for a second.
      const before = applied.mock.calls.length;
      let last = opened;
      const until = performance.now() + 1_000;
      while (performance.now() < until) {
        last = (await appendTable(store, 'R1', driver.playRound())).position;
        await new Promise((r) => setTimeout(r, 20));
      }
      await runner.waitFor(last);
      const commits = applied.mock.calls.length - before;
      expect(dumpSqlite(runner.db, PROJECTIONS)).toEqual(dumpMemory(await all(store), PROJECTIONS));
      await runner.close();
      await store.close();
      return { quietMs, commits };
    };
    const paced = await commitsWhileBusy(250);
    expect(paced.quietMs).toBeLessThan(200);
    expect(paced.commits).toBeGreaterThanOrEqual(2);
    expect(paced.commits).toBeLessThanOrEqual(7); // 1 s / 250 ms, and the last
    const eager = await commitsWhileBusy(0);
    // About one commit per round (fewer only when the runner falls behind and merges rounds).
    expect(eager.commits).toBeGreaterThanOrEqual(10);
    expect(eager.commits).toBeGreaterThan(2 * paced.commits);
  });

  test('an event already applied changes nothing: re-applying a committed batch is a no-op', async () => {
    const store = new MemoryEventStore();
    await play(store, 5);
    const db = openReadModelDb(join(dir, 'rm.sqlite'));
    const runner = new ProjectionRunner({ store, readModels: db });
    await runner.catchUp();
    const before = dumpSqlite(db, PROJECTIONS);
    const events = await all(store);
    const engine = new ProjectionEngine({ db, projections: PROJECTIONS });
    engine.applyBatch(events.slice(10, 200));
    engine.applyBatch(events);
    expect(dumpSqlite(db, PROJECTIONS)).toEqual(before);
    await runner.close();
    db.close();
  });

  test('a failure in the middle of a batch commits nothing; the retry applies every event exactly once', async () => {
    const store = new MemoryEventStore();
    await play(store, 12);
    const events = await all(store);
    const db = openReadModelDb(join(dir, 'rm.sqlite'));
    const runner = new ProjectionRunner({ store, readModels: db, catchUpPage: 100 });
    // the batch that would move a checkpoint past half-way fails at its very end, after all its read-model writes
    const expected = dumpMemory(events, PROJECTIONS);
    const target = events[Math.floor(events.length / 2)]!.globalPosition;
    for (const when of ['INSERT', 'UPDATE']) {
      db.exec(
        `CREATE TRIGGER boom_${when.toLowerCase()} BEFORE ${when} ON ${CHECKPOINTS} WHEN NEW.position >= ${target} BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`,
      );
    }
    const failure = await runner.catchUp().then(
      () => null,
      (error: unknown) => error,
    );
    // Not `rejects.toThrow`: better-sqlite3's native addon is loaded once per jest worker and keeps the SqliteError
    // class of the first test file that loaded it. When another file (e.g. replay.int.spec.ts, as jest orders files
    // in a first run with no timing cache) ran first in the worker, this file's SqliteError is an object of another
    // realm: not `instanceof Error` here, so `rejects.toThrow` says "did not throw" although the trigger fired.
    expect(failure).toMatchObject({ code: 'SQLITE_CONSTRAINT_TRIGGER', message: 'disk on fire' });
    const stuck = db.prepare(`SELECT name, position FROM ${CHECKPOINTS}`).all() as {
      name: string;
      position: number;
    }[];
    expect(stuck).toHaveLength(PROJECTIONS.length);
    for (const c of stuck) expect(c.position).toBeLessThan(Number(target));
    const at = stuck[0]!.position;
    expect(at).toBeGreaterThan(0);
    for (const c of stuck) expect(c.position).toBe(at);
    // nothing of the failed batch is visible: no ledger entry, hand or fold state beyond the checkpoint
    const maxOf = (sql: string): number => (db.prepare(sql).get() as { m: number | null }).m ?? 0;
    expect(maxOf('SELECT max(position) AS m FROM pl_entries')).toBeLessThanOrEqual(at);
    for (const p of PROJECTIONS)
      expect(maxOf(`SELECT max(position) AS m FROM ${stateTable(p.prefix)}`)).toBeLessThanOrEqual(at);
    expect(dumpSqlite(db, PROJECTIONS)).toEqual(
      dumpMemory(
        events.filter((e) => Number(e.globalPosition) <= at),
        PROJECTIONS,
      ),
    );
    db.exec('DROP TRIGGER boom_insert; DROP TRIGGER boom_update;');
    await runner.catchUp();
    expect(dumpSqlite(db, PROJECTIONS)).toEqual(expected);
    await runner.close();
    db.close();
  });

  test('the live runner retries a failed batch from its checkpoint and catches up once the fault is gone', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDb(join(dir, 'rm.sqlite'));
    const runner = new ProjectionRunner({ store, readModels: db });
    db.exec('DROP TABLE pl_entries; CREATE TABLE pl_entries (x)'); // the wrong shape: every ledger write fails
    runner.start();
    const [d] = await play(store, 3);
    const result = await appendTable(store, 'R1', d!.playRound());
    for (let i = 0; i < 100 && (await runner.status()).lastError === null; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await runner.status()).lastError).toMatch(/pl_entries|position/);
    expect(runner.engine.minCheckpoint()).toBe(0);
    db.exec('DROP TABLE pl_entries');
    for (const sql of createTableSql(ledgerProjection.tables[1]!, 'pl_entries', 'g1')) db.exec(sql);
    await runner.waitFor(result.position);
    expect((await runner.status()).lastError).toBeNull();
    expect(dumpSqlite(db, PROJECTIONS)).toEqual(dumpMemory(await all(store), PROJECTIONS));
    await runner.close();
    db.close();
  });

  test('SIGKILL in the middle of a catch-up: after a restart nothing is applied twice or skipped', async () => {
    const eventsFile = join(dir, 'events.sqlite');
    const rmFile = join(dir, 'rm.sqlite');
    const store = createEventStore({ kind: 'sqlite', file: eventsFile });
    await play(store, 150);
    const events = await all(store);
    await store.close();
    // a child process folds in small transactions; it is killed once it has committed some but not all
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '../testing/catch-up-child.ts'), eventsFile, rmFile, '50'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, TSX_TSCONFIG_PATH: join(__dirname, '../../../../tsconfig.json') },
      },
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const positions = out.split('\n').filter(Boolean).map(Number);
        if (positions.some((p) => p > events.length / 4)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    await new Promise((r) => child.once('exit', r).once('close', r));
    const db = openReadModelDb(rmFile);
    const reached = (db.prepare(`SELECT min(position) AS p FROM ${CHECKPOINTS}`).get() as { p: number }).p;
    expect(reached).toBeGreaterThan(0);
    expect(reached).toBeLessThan(events.length);
    const reopened = createEventStore({ kind: 'sqlite', file: eventsFile });
    const runner = new ProjectionRunner({ store: reopened, readModels: db });
    await runner.catchUp();
    expect(dumpSqlite(db, PROJECTIONS)).toEqual(dumpMemory(events, PROJECTIONS));
    await runner.close();
    db.close();
    await reopened.close();
  }, 60_000);

  test('rebuild refolds into fresh tables and swaps them in while a live runner keeps going', async () => {
    const store = new MemoryEventStore();
    const file = join(dir, 'rm.sqlite');
    const runner = new ProjectionRunner({ store, readModels: file, maxBatch: 50 });
    runner.start();
    const drivers = await play(store, 10);
    // damage the live tables: the rebuild must not depend on them
    runner.db.exec("UPDATE hh_hands SET outcome = 'tampered'");
    const other = openReadModelDb(file);
    const progress: number[] = [];
    const rebuilt = await rebuildProjections({
      store,
      db: other,
      names: ['hand-history', 'stats'],
      page: 100,
      onProgress: (p) => progress.push(p.position),
    });
    expect(rebuilt.projections).toEqual(['hand-history', 'stats']);
    expect(progress.length).toBeGreaterThan(1);
    await play(store, 5, drivers);
    const tail = await appendTable(store, 'R1', drivers[0]!.playRound());
    await runner.waitFor(tail.position);
    expect(dumpSqlite(other, PROJECTIONS)).toEqual(dumpMemory(await all(store), PROJECTIONS));
    const generations = other.prepare(`SELECT name, generation FROM ${CHECKPOINTS} ORDER BY name`).all();
    expect(generations).toEqual(
      expect.arrayContaining([
        { name: 'hand-history', generation: 2 },
        { name: 'stats', generation: 2 },
        { name: 'ledger', generation: 1 },
      ]),
    );
    other.close();
    await runner.close();
  });

  test('a rebuild of every projection (states and mirrored rows written at each commit, indexes built last, writes here or on the writer thread) equals the pure folds', async () => {
    const store = new MemoryEventStore();
    await play(store, 15);
    const db = openReadModelDb(join(dir, 'rm.sqlite'));
    const live = new ProjectionRunner({ store, readModels: db, catchUpPage: 37 });
    await live.catchUp();
    const indexes = () =>
      db
        .prepare(
          "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as {
        name: string;
        tbl_name: string;
      }[];
    const before = indexes();
    const states = () =>
      PROJECTIONS.map((p) =>
        db.prepare(`SELECT key, position, state FROM ${stateTable(p.prefix)} ORDER BY key`).all(),
      );
    const liveStates = states();
    const expected = dumpMemory(await all(store), PROJECTIONS);
    expect(dumpSqlite(db, PROJECTIONS)).toEqual(expected);
    for (const [commitEvery, writer] of [
      [1, 'in-process'],
      [50, 'in-process'],
      [100_000, 'in-process'],
      [1, 'thread'],
      [50, 'thread'],
      [100_000, 'thread'],
    ] as const) {
      const r = await rebuildProjections({ store, db, page: 7, commitEvery, writer });
      expect(r.events).toBe((await all(store)).length);
      expect(dumpSqlite(db, PROJECTIONS)).toEqual(expected);
      // the fold states a runner resumes from are those the live runner wrote
      expect(states()).toEqual(liveStates);
      // the same indexes, on the live tables, with the new generation's names
      expect(indexes().map((i) => i.tbl_name)).toEqual(before.map((i) => i.tbl_name));
      expect(indexes().every((i) => !i.tbl_name.startsWith('rb_'))).toBe(true);
    }
    await live.close();
    db.close();
  });

  test('the tables are created as the schema documents them (WITHOUT ROWID where declared), live and rebuilt', async () => {
    const store = new MemoryEventStore();
    await play(store, 1);
    const runner = new ProjectionRunner({ store, readModels: join(dir, 'rm.sqlite') });
    const physical = () =>
      Object.fromEntries(
        PROJECTIONS.flatMap((p) => p.tables).map((t) => [
          t.name,
          /WITHOUT ROWID\s*$/.test(
            (
              runner.db
                .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
                .get(t.name) as {
                sql: string;
              }
            ).sql,
          ),
        ]),
      );
    const declared = Object.fromEntries(
      PROJECTIONS.flatMap((p) => p.tables).map((t) => [t.name, t.withoutRowid === true]),
    );
    expect(Object.values(declared)).toContain(true);
    expect(physical()).toEqual(declared);
    await rebuildProjections({ store, db: runner.db });
    expect(physical()).toEqual(declared);
    await runner.close();
  });

  test('a projection whose version changed is refolded from position 0', async () => {
    const store = new MemoryEventStore();
    await play(store, 3);
    const file = join(dir, 'rm.sqlite');
    const first = new ProjectionRunner({ store, readModels: file });
    await first.catchUp();
    first.db.exec("UPDATE hh_hands SET outcome = 'stale'");
    await first.close();
    const bumped = PROJECTIONS.map((p) => (p.name === 'hand-history' ? { ...p, version: p.version + 1 } : p));
    const second = new ProjectionRunner({ store, readModels: file, projections: bumped });
    expect(second.engine.checkpoint('hand-history')).toBe(0);
    await second.catchUp();
    expect(dumpSqlite(second.db, PROJECTIONS)).toEqual(dumpMemory(await all(store), PROJECTIONS));
    await second.close();
  });
});
