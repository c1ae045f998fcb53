/**
 * A PostgreSQL rebuild copies the first row of each key and writes every later write of it by statements: a
 * projection made for the test writes the same keys again across commits and within one (an upsert again, a
 * delete then an upsert, an update of a row copied in the same commit, counters added over commits, a coalesced
 * table, text that COPY must escape, NULLs and numbers that are not integers), and the rebuilt tables equal
 * SQLite's rebuild of the same events, and the rows the script says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '@coup/event-store';
import { type AnyProjection, type ProjectionModel, type Write, once } from '../../read-models/kernel/types';
import { goldenCorpus } from '../../testing/corpus';
import { startTestPostgres, type TestPostgres } from '../../testing/postgres';
import { dumpTables, eventsStore } from '../../testing/storage-contract';
import { SqliteReadModelStorage } from '../sqlite-storage';
import { copyField } from './copy';
import { PostgresReadModelStorage } from './storage';

jest.setTimeout(60_000);

const TRICKY = 'tab\there, back\\slash \\N, new\nline, cr\r, quote " and \u00e9';
const up = (key: string, v: number | null, s: string | null, r: number | null = null): Write => ({
  kind: 'upsert',
  table: 'cp_rows',
  row: { key, v, s, r },
});

/** The writes of the i-th event; two events a commit (page 2, commitEvery 2). */
const SCRIPT: readonly (readonly Write[])[] = [
  // commit 1: every key new (copied), `a` twice in one run (the last kept)
  [up('a', 1, TRICKY), { kind: 'add', table: 'cp_sums', row: { key: 'x' }, add: { n: 1 } }, up('b', 1, 'b')],
  [
    up('a', 10, 'ten', 0.1 + 0.2),
    up('n', null, null),
    { kind: 'upsert', table: 'cp_last', row: { key: 'e', v: 1 } },
  ],
  // commit 2: `a` again; `b` deleted; `c` copied then updated in the same commit; `x` added to
  [
    up('a', 2, 'two'),
    { kind: 'delete', table: 'cp_rows', key: { key: 'b' } },
    up('c', 1, 'c', 1e21),
    { kind: 'update', table: 'cp_rows', key: { key: 'c' }, set: { v: 5 } },
    { kind: 'add', table: 'cp_sums', row: { key: 'x' }, add: { n: 2 } },
    { kind: 'upsert', table: 'cp_last', row: { key: 'e', v: 2 } },
  ],
  // `d` deleted before it was ever written, then written in the same commit (the delete must not come after it)
  [
    { kind: 'delete', table: 'cp_rows', key: { key: 'd' } },
    up('d', 4, 'd', -2.5),
    { kind: 'add', table: 'cp_sums', row: { key: 'y' }, add: { n: 7 } },
  ],
  // commit 3: `b` written again after its delete; `a` updated; `e` deleted then written (coalesced)
  [
    up('b', 3, 'b again'),
    { kind: 'update', table: 'cp_rows', key: { key: 'a' }, set: { s: TRICKY } },
    { kind: 'delete', table: 'cp_last', key: { key: 'e' } },
  ],
  [{ kind: 'upsert', table: 'cp_last', row: { key: 'e', v: 6 } }],
  // commit 4
  [
    { kind: 'add', table: 'cp_sums', row: { key: 'x' }, add: { n: 4 } },
    up('f', Number.MAX_SAFE_INTEGER, TRICKY),
    up('g', 0, ''),
  ],
];

function scriptedProjection(events: readonly RecordedEvent[]): AnyProjection {
  const at = new Map(events.map((e, i) => [Number(e.globalPosition), SCRIPT[i] ?? []]));
  const model: ProjectionModel = {
    name: 'copy-script',
    prefix: 'cp',
    version: 1,
    description: 'writes a script (test)',
    tables: [
      {
        name: 'cp_rows',
        doc: 'rows',
        primaryKey: ['key'],
        columns: [
          { name: 'key', type: 'TEXT', doc: '' },
          { name: 'v', type: 'INTEGER', doc: '' },
          { name: 's', type: 'TEXT', doc: '' },
          { name: 'r', type: 'REAL', doc: '' },
        ],
      },
      {
        name: 'cp_sums',
        doc: 'counters',
        primaryKey: ['key'],
        counters: ['n'],
        columns: [
          { name: 'key', type: 'TEXT', doc: '' },
          { name: 'n', type: 'INTEGER', doc: '' },
        ],
      },
      {
        name: 'cp_last',
        doc: 'coalesced',
        primaryKey: ['key'],
        coalesce: true,
        columns: [
          { name: 'key', type: 'TEXT', doc: '' },
          { name: 'v', type: 'INTEGER', doc: '' },
        ],
      },
    ],
    keyOf: () => 'k',
    initial: () => ({ position: 0 }),
    evolve: (state, e) => once(state, e, (s) => ({ state: s, writes: at.get(e.position) ?? [] })),
  };
  return model;
}

let pg: TestPostgres;
let dir: string;
beforeAll(async () => {
  pg = await startTestPostgres();
  dir = mkdtempSync(join(tmpdir(), 'coup-copy-'));
});
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('COPY text: tabs, new lines, carriage returns and backslashes escaped; NULL and non-finite numbers as \\N', () => {
  expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
  expect(copyField('\\N')).toBe('\\\\N');
  expect([copyField(null), copyField(Number.NaN), copyField(Infinity), copyField(0.5)]).toEqual([
    '\\N',
    '\\N',
    '\\N',
    '0.5',
  ]);
});

test('keys written again across and within commits: the rebuilt rows equal SQLite and the script', async () => {
  const events = goldenCorpus().slice(0, SCRIPT.length);
  const projection = scriptedProjection(events);
  const options = { store: eventsStore(events), projections: [projection], page: 2, commitEvery: 2 };
  const sqlite = new SqliteReadModelStorage(join(dir, 'rm.sqlite'));
  const postgres = new PostgresReadModelStorage(await pg.createDatabase('coup_copy'));
  try {
    await sqlite.rebuild(options);
    await postgres.rebuild(options);
    const want = await dumpTables(sqlite.reader, [projection], { states: false });
    const got = await dumpTables(postgres.reader, [projection], { states: false });
    expect(got).toEqual(want);
    expect(got).toEqual({
      cp_rows: [
        { key: 'a', v: 2, s: TRICKY, r: null },
        { key: 'b', v: 3, s: 'b again', r: null },
        { key: 'c', v: 5, s: 'c', r: 1e21 },
        { key: 'd', v: 4, s: 'd', r: -2.5 },
        { key: 'f', v: Number.MAX_SAFE_INTEGER, s: TRICKY, r: null },
        { key: 'g', v: 0, s: '', r: null },
        { key: 'n', v: null, s: null, r: null },
      ],
      cp_sums: [
        { key: 'x', n: 7 },
        { key: 'y', n: 7 },
      ],
      cp_last: [{ key: 'e', v: 6 }],
    });
    // the rebuilt tables have their primary keys (an upsert's ON CONFLICT needs them)
    const keys = await postgres.reader.all<{ t: string }>(
      `SELECT cl.relname AS t FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid
       WHERE co.contype = 'p' AND cl.relname LIKE 'cp\\_%' ORDER BY 1`,
    );
    expect(keys.map((k) => k.t)).toEqual(['cp_last', 'cp_rows', 'cp_state', 'cp_sums']);
    // and autovacuum, off while the rows went in, is on again (no table keeps an option)
    const withOptions = await postgres.reader.all<{ t: string }>(
      `SELECT relname AS t FROM pg_class WHERE relname LIKE 'cp\\_%' AND reloptions IS NOT NULL`,
    );
    expect(withOptions).toEqual([]);
  } finally {
    await sqlite.close();
    await postgres.close();
  }
});
