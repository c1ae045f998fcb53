/**
 * Old events fold as before: the history recorded by the code before side bets and game modes (commit 927d27d,
 * see record.ts), folded by the current read models, gives exactly the rows and query answers that code gave.
 * A column added since must hold, for these events, the value derived the same way as for new ones (checked
 * here column by column); every old column is compared as it was, but for the ledger counters whose meaning
 * changed on purpose (CHANGED: derived from the old values) and the decider's state stored before each hand (its
 * version and `round.stakes` left out: the decider's own fixture test checks them).
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
const events = eventsFromJson(fixture.events);
let now: ReadSide;
beforeAll(async () => {
  now = await readSideOf(events);
});

/** The reason of each RoundVoided, by its position (the void-return entries it made give it since). */
const voidReasons = new Map(
  events
    .filter((e) => e.type === 'RoundVoided')
    .map((e) => [Number(e.globalPosition), (e.data as { reason: string }).reason]),
);

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
  // a side bet's paytable: none; why: a void's returns give its reason
  pl_entries: {
    paytable: () => null,
    reason: (r) => (r['kind'] === 'void-return' ? (voidReasons.get(Number(r['position'])) ?? null) : null),
  },
  // no coup corrected or voided after it settled
  hh_hands: { amendments: () => 0, amendments_json: () => '[]', original_json: () => null },
  // the table's game mode: commission
  st_daily: { game: () => 'commission' },
  st_shoes: { game: () => 'commission' },
};

/**
 * The counters whose meaning changed on purpose since (issue 16), each derived from the old row: `staked` counts
 * every bet placed, as `bets` does (what clears and voids gave back is in `cleared` and `voided_returned`), and
 * `net_result` counts the box commission owed against the player.
 */
const CHANGED: Readonly<Record<string, Readonly<Record<string, (old: Row) => SqlValue>>>> = {
  pl_accounts: {
    staked: (r) => Number(r['staked']) + Number(r['cleared']) + Number(r['voided_returned']),
    net_result: (r) =>
      Number(r['net_result']) - Number(r['commission_owed']) - Number(r['commission_collected']),
  },
};

/** An old row as the current code derives it (see {@link CHANGED}). */
const changed = (table: string, row: Row): Row => {
  const derive = CHANGED[table] ?? {};
  return { ...row, ...Object.fromEntries(Object.entries(derive).map(([c, f]) => [c, f(row)])) };
};

/**
 * A table state as the code of 927d27d shaped it: version 1, no `round.stakes`, `round.ownShoe` or
 * `round.cashedOut` (added since for settled-coup corrections; libs/table checks those).
 */
function asOldState(json: string): string {
  const state = JSON.parse(json) as { round: Record<string, unknown> | null };
  if (state.round === null) return JSON.stringify({ ...state, version: 1 });
  const { stakes: _stakes, ownShoe: _ownShoe, cashedOut: _cashedOut, ...round } = state.round;
  return JSON.stringify({ ...state, version: 1, round });
}

/** The current row in the old shape where the decider's state has grown since (the state before each hand). */
const asOld = (table: string, row: Row): Row =>
  table === 'hh_hand_states' ? { ...row, state_json: asOldState(String(row['state_json'])) } : row;

/** The columns of `row` that the old table had. */
const oldColumns = (row: Row, columns: readonly string[]): Row =>
  Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));

/** snake_case to camelCase (the ledger's counters in the API since). */
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

describe('a history recorded before side bets (commit 927d27d)', () => {
  test('is the recorded one: six tables, about 2,000 events', () => {
    expect(fixture.commit).toBe('927d27d');
    expect(fixture.events).toHaveLength(2169);
    expect(Object.keys(fixture.rows)).toHaveLength(12);
  });

  test.each(Object.keys(fixture.rows))(
    '%s: the same rows, old columns equal (changed ones as derived)',
    (table) => {
      const before = fixture.rows[table]!;
      const after = now.rows[table]!;
      const columns = Object.keys(before[0] ?? {});
      expect(after.map((r) => oldColumns(asOld(table, r), columns))).toEqual(
        before.map((r) => changed(table, r)),
      );
    },
  );

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

  test("the query answers are the same, but for the ledger's camelCase counters (staked and net as derived), its entries' paytable and reason, and the hands' amended (false)", () => {
    const answers = { ...now.answers };
    const expected = { ...fixture.answers };
    type OldLedger = { accounts: Row[]; totals: Row; entries: Record<string, unknown>[] };
    const counters = (r: Row) => {
      const derived = changed('pl_accounts', r);
      return Object.fromEntries(Object.entries(derived).map(([k, v]) => [camel(k), v]));
    };
    for (const [key, value] of Object.entries(answers)) {
      if (key.startsWith('hands/')) {
        const page = value as { items: { amended: boolean }[] };
        expect(page.items.every((h) => h.amended === false)).toBe(true);
        answers[key] = { ...page, items: page.items.map(({ amended: _, ...rest }) => rest) };
      }
      if (!key.startsWith('ledger/')) continue;
      const ledger = value as LedgerView;
      expect(ledger.entries.map((e) => e.paytable)).toEqual(ledger.entries.map(() => null));
      answers[key] = { ...ledger, entries: ledger.entries.map(({ paytable: _, ...rest }) => rest) };
      const old = expected[key] as OldLedger;
      expected[key] = {
        ...old,
        accounts: old.accounts.map(counters),
        totals: counters(old.totals),
        entries: old.entries.map((e) => ({
          ...e,
          reason: e['kind'] === 'void-return' ? (voidReasons.get(Number(e['position'])) ?? null) : null,
        })),
      };
    }
    expect(answers).toEqual(expected);
  });
});
