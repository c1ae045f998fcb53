/**
 * The read-model storage contract, run against the SQLite file and a real PostgreSQL: the same events (the golden
 * corpus: many tables, side bets, clears, voids, corrections and voids of settled coups, an open hand of more
 * than 1,024 bets kept in parts) give equal rows in every table, fold states included, compared table by table
 * in primary-key order; a batch that fails at its very end leaves the checkpoints and rows as they were; two
 * runners racing over the same events, and the same events fed again, apply each event once; a rebuild gives the
 * same tables again. The steps of a backend run in order on one storage (a fold of the corpus each).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '@coup/event-store';
import { PROJECTIONS } from '../read-models';
import type { Row } from '../read-models/kernel/types';
import { goldenCorpus } from '../testing/corpus';
import { startTestPostgres, type TestPostgres } from '../testing/postgres';
import { dumpTables, eventsStore } from '../testing/storage-contract';
import { CHECKPOINTS } from './db';
import { PostgresReadModelStorage } from './postgres/storage';
import { ProjectionRunner } from './runner';
import { SqliteReadModelStorage } from './sqlite-storage';
import type { ReadModelStorage } from './storage';

jest.setTimeout(120_000);

/** Where a fault is injected: the first `PREFIX` events commit, the batch after them fails at its end. */
const PREFIX = 4_000;
const PAGE = 1_000;

let pg: TestPostgres;
let dir: string;
let events: RecordedEvent[];
type Dump = { raw: Record<string, Row[]>; logical: Record<string, Row[]> };
/** What SQLite holds after folding every event, and after the first PREFIX. */
let expected: Dump;
let expectedPrefix: Dump;

/** A backend: where its storage is, SQL to run on it, and how to open a storage there. */
interface Backend {
  readonly name: string;
  /** A new empty place for read models (a file, a database). */
  create(): Promise<string>;
  open(at: string): ReadModelStorage;
  exec(storage: ReadModelStorage, sql: string): Promise<void>;
  /** SQL making every commit that moves a checkpoint to `position` or beyond fail at its very end. */
  readonly failFrom: (position: number) => string;
  readonly heal: string;
}

let files = 0;
const backends: Backend[] = [
  {
    name: 'sqlite',
    create: async () => join(dir, `rm-${files++}.sqlite`),
    open: (at) => new SqliteReadModelStorage(at),
    exec: async (storage, sql) => void (storage as SqliteReadModelStorage).db.exec(sql),
    failFrom: (position) =>
      `CREATE TRIGGER boom BEFORE UPDATE ON ${CHECKPOINTS} WHEN NEW.position >= ${position} BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`,
    heal: 'DROP TRIGGER boom',
  },
  {
    name: 'postgres',
    create: () => pg.createDatabase('coup_contract'),
    open: (at) => new PostgresReadModelStorage(at),
    exec: async (storage, sql) => void (await (storage as PostgresReadModelStorage).pool.query(sql)),
    failFrom: (position) => `CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.position >= ${position} THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER boom BEFORE UPDATE ON ${CHECKPOINTS} FOR EACH ROW EXECUTE FUNCTION boom()`,
    heal: `DROP TRIGGER boom ON ${CHECKPOINTS}`,
  },
];

const dump = async (storage: ReadModelStorage): Promise<Dump> => ({
  raw: await dumpTables(storage.reader, PROJECTIONS, { raw: true }),
  logical: await dumpTables(storage.reader, PROJECTIONS),
});

/** Equal table by table (a difference names its table). */
function expectEqual(got: Dump, want: Dump): void {
  expect(Object.keys(got.raw)).toEqual(Object.keys(want.raw));
  for (const table of Object.keys(want.raw))
    expect([table, got.raw[table]]).toEqual([table, want.raw[table]]);
  expect(got.logical).toEqual(want.logical);
}

/** Folds `upTo` through a runner on `storage` (catch-up pages of PAGE events, one transaction each). */
async function fold(storage: ReadModelStorage, upTo: readonly RecordedEvent[]): Promise<number> {
  const runner = new ProjectionRunner({ store: eventsStore(upTo), storage, catchUpPage: PAGE });
  try {
    return (await runner.catchUp()).events;
  } finally {
    await runner.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-contract-'));
  pg = await startTestPostgres();
  events = goldenCorpus();
  for (const [upTo, set] of [
    [events, (d: Dump) => (expected = d)],
    [events.slice(0, PREFIX), (d: Dump) => (expectedPrefix = d)],
  ] as const) {
    const reference = new SqliteReadModelStorage(join(dir, `reference-${upTo.length}.sqlite`));
    await fold(reference, upTo);
    set(await dump(reference));
    await reference.close();
  }
});

afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(backends)('read-model storage contract: $name', (backend) => {
  let at: string;
  let storage: ReadModelStorage;

  beforeAll(async () => {
    at = await backend.create();
    storage = backend.open(at);
    await storage.ensure(PROJECTIONS);
  });
  afterAll(() => storage?.close());

  test('a batch that fails at its very end leaves the checkpoints and every row as they were', async () => {
    await backend.exec(storage, backend.failFrom(PREFIX + 1));
    const failure = await fold(storage, events).then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(failure)).toMatch(/disk on fire/);
    const checkpoints = await storage.checkpoints();
    expect(checkpoints.map((c) => c.position)).toEqual(PROJECTIONS.map(() => PREFIX));
    expectEqual(await dump(storage), expectedPrefix);
  });

  test('then two runners racing over the same events apply each event once: every table equals SQLite, states included', async () => {
    await backend.exec(storage, backend.heal);
    const other = backend.open(at);
    const folded = await Promise.all([fold(storage, events), fold(other, events)]);
    await other.close();
    expect(Math.max(...folded)).toBeGreaterThan(0);
    expectEqual(await dump(storage), expected);
    expect(Object.values(expected.raw).reduce((n, rows) => n + rows.length, 0)).toBeGreaterThan(10_000);
  });

  test('the same events fed again (checkpoints moved back) change nothing', async () => {
    await backend.exec(storage, `UPDATE ${CHECKPOINTS} SET position = ${PREFIX / 2}`);
    expect(await fold(storage, events)).toBe(events.length - PREFIX / 2);
    expectEqual(await dump(storage), expected);
  });

  test('a rebuild refolds beside the live tables and swaps: the same tables, every checkpoint at a new generation', async () => {
    await backend.exec(storage, `UPDATE hh_hands SET outcome = 'tampered'`);
    const result = await storage.rebuild({ store: eventsStore(events), commitEvery: 3_000 });
    expect(result.events).toBe(events.length);
    expectEqual(await dump(storage), expected);
    const checkpoints = await storage.checkpoints();
    expect(checkpoints.map((c) => [c.name, c.position, c.generation]).sort()).toEqual(
      PROJECTIONS.map((p) => [p.name, events.length, 2]).sort(),
    );
  });
});
