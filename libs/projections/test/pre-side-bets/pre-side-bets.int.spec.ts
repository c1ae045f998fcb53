/**
 * Old events fold as before: the history recorded by the code before side bets and game modes (commit 927d27d,
 * see record.ts), folded by the current read models, gives exactly the rows and query answers that code gave.
 * A column added since must hold, for these events, the value derived the same way as for new ones (checked
 * here column by column); every old column is compared as it was.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { LedgerView, Row, SqlValue } from '../../src/read-models';
import { FIXTURE, type ReadSide, eventsFromJson, readSideOf } from './history';

interface Fixture extends ReadSide {
  readonly commit: string;
  readonly events: Record<string, unknown>[];
}

const fixture = JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as Fixture;
const now = readSideOf(eventsFromJson(fixture.events));

/**
 * The columns added since 927d27d, and the value each holds for these old events: what the fold derives for any
 * event, here for events with no side bet and no game mode.
 */
const ADDED: Readonly<Record<string, Readonly<Record<string, (row: Row) => SqlValue>>>> = {
  // the stakes on every spot: the three main ones, no side bet staked
  tv_tables: {
    bets_totals_json: (r) =>
      JSON.stringify({ player: r['bets_player'], banker: r['bets_banker'], tie: r['bets_tie'] }),
  },
  // a side bet's paytable: none
  pl_entries: { paytable: () => null },
  // the table's game mode: commission
  st_daily: { game: () => 'commission' },
  st_shoes: { game: () => 'commission' },
};

/** The columns of `row` that the old table had. */
const oldColumns = (row: Row, columns: readonly string[]): Row =>
  Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));

describe('a history recorded before side bets (commit 927d27d)', () => {
  test('is the recorded one: six tables, about 2,000 events', () => {
    expect(fixture.commit).toBe('927d27d');
    expect(fixture.events).toHaveLength(2169);
    expect(Object.keys(fixture.rows)).toHaveLength(12);
  });

  test.each(Object.keys(fixture.rows))('%s: the same rows, old columns equal', (table) => {
    const before = fixture.rows[table]!;
    const after = now.rows[table]!;
    const columns = Object.keys(before[0] ?? {});
    expect(after.map((r) => oldColumns(r, columns))).toEqual(before);
  });

  test.each(Object.keys(fixture.rows))('%s: each column added since holds its derived value', (table) => {
    const before = new Set(Object.keys(fixture.rows[table]![0] ?? {}));
    const rows = now.rows[table]!;
    const added = Object.keys(rows[0] ?? {}).filter((c) => !before.has(c));
    const expected = ADDED[table] ?? {};
    if (rows.length > 0) expect(added).toEqual(Object.keys(expected));
    for (const r of rows) {
      for (const [column, derive] of Object.entries(expected))
        expect([column, r[column]]).toEqual([column, derive(r)]);
    }
  });

  test("the query answers are the same, but for the ledger entries' paytable (null: no side bet)", () => {
    const answers = { ...now.answers };
    for (const [key, value] of Object.entries(answers)) {
      if (!key.startsWith('ledger/')) continue;
      const ledger = value as LedgerView;
      expect(ledger.entries.map((e) => e.paytable)).toEqual(ledger.entries.map(() => null));
      answers[key] = { ...ledger, entries: ledger.entries.map(({ paytable: _, ...rest }) => rest) };
    }
    expect(answers).toEqual(fixture.answers);
  });
});
