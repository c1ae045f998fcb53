/**
 * The statistics by gaming day, from the analysts' facts, on SQLite and PostgreSQL: the reports' history (side
 * bets, box commission, no commission, voids, corrections and voids of settled coups; 06:00 Europe/London over the
 * night the clocks go forward) folded by the statistics and the analysts' model, copied into a real PostgreSQL
 * whose fact tables sort text by a language's rules. Over every gaming day the facts answer what the per-UTC-day
 * counters answer (the same totals and summaries, only the days differ); a gaming day, a shift, an hour or instants
 * count exactly the fact rows they match (checked against the rows, each bet's result from the engine); both
 * databases answer the same, to the byte; bad filters are refused naming the field.
 */
import { type CoupResult, type Spot, coupFeatures, payoutOf } from '@coup/engine';
import { type TableRules, offeredSpots, payoutRulesOf } from '@coup/table';
import { Pool } from 'pg';
import { QueryError, ReadModels } from '../../read/read-models';
import { foldHistory, reportsHistory } from '../../reports/testing/corpus';
import type { Db } from '../../runner/db';
import { pgTypes } from '../../sql/reader';
import { copyReadModelsToPostgres } from '../../testing/pg-copy';
import { type TestPostgres, startTestPostgres } from '../../testing/postgres';
import { analystProjection, gamingDayConfig } from '../analyst';
import { resultKey, statsProjection } from './fold';
import type { StatsFilter } from './wire';

jest.setTimeout(60_000);

const LONDON = gamingDayConfig({
  gamingDay: '06:00 Europe/London',
  shifts: 'day=06:00,swing=14:00,grave=22:00',
});
const PROJECTIONS = [statsProjection, analystProjection(LONDON)];
const SHIFTS = { shifts: LONDON.shifts.map((s) => s.name) };

type Row = Record<string, unknown>;

let pg: TestPostgres;
let db: Db;
let both: { sqlite: ReadModels; postgres: ReadModels };
let coups: Row[];
let bets: Row[];
let voids: Row[];

beforeAll(async () => {
  const starting = startTestPostgres();
  db = await foldHistory(reportsHistory(), PROJECTIONS);
  pg = await starting;
  const url = await pg.createDatabase();
  const pool = new Pool({ connectionString: url, types: pgTypes });
  try {
    await copyReadModelsToPostgres(db, pool, PROJECTIONS);
    // ids sorted by a language's rules ('n1' before 'R1'): the answers must still come in byte order
    for (const table of ['an_fact_coups', 'an_fact_bets', 'an_fact_amendments', 'an_dim_tables'])
      await pool.query(`ALTER TABLE ${table} ALTER COLUMN table_id TYPE TEXT COLLATE "en-x-icu"`);
  } finally {
    await pool.end();
  }
  both = { sqlite: ReadModels.sqlite(db), postgres: await ReadModels.open(url) };
  coups = db.prepare('SELECT * FROM an_fact_coups').all() as Row[];
  bets = db.prepare('SELECT * FROM an_fact_bets').all() as Row[];
  voids = db.prepare(`SELECT * FROM an_fact_amendments WHERE kind = 'round-void'`).all() as Row[];
});

afterAll(async () => {
  await both?.postgres.close();
  await pg?.stop();
  db?.close();
});

/** Equal: text and integers exactly, fractions (sums of probabilities and edges in another order) to 1e-12. */
function expectClose(actual: unknown, expected: unknown, path = ''): void {
  if (typeof expected === 'number' && typeof actual === 'number' && !Number.isInteger(expected)) {
    expect({ path, close: Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)) }).toEqual({
      path,
      close: true,
    });
  } else if (expected !== null && typeof expected === 'object') {
    expect({ path, keys: Object.keys(actual as object) }).toEqual({ path, keys: Object.keys(expected) });
    for (const [k, v] of Object.entries(expected)) expectClose((actual as Row)[k], v, `${path}.${k}`);
  } else {
    expect({ path, value: actual }).toEqual({ path, value: expected });
  }
}

const sum = (rows: readonly Row[], column: string) => rows.reduce((s, r) => s + Number(r[column]), 0);

/** What a filter's facts hold, counted from the rows themselves. */
function counted(match: (r: Row) => boolean) {
  const live = coups.filter((c) => match(c) && c['status'] !== 'voided');
  const staked = bets.filter((b) => match(b) && b['status'] !== 'voided');
  const on = (spot: string) => staked.filter((b) => b['spot'] === spot);
  const outcome = (o: string) => live.filter((c) => c['outcome'] === o).length;
  return {
    coups: live.length,
    voids: coups.filter((c) => match(c) && c['status'] === 'voided').length + voids.filter(match).length,
    outcomes: { player: outcome('player'), banker: outcome('banker'), tie: outcome('tie') },
    naturals: live.filter((c) => c['natural'] === 1).length,
    handle: {
      player: sum(on('player'), 'stake'),
      banker: sum(on('banker'), 'stake'),
      tie: sum(on('tie'), 'stake'),
    },
    paid: sum(on('player'), 'paid') + sum(on('banker'), 'paid') + sum(on('tie'), 'paid'),
    commission: sum(staked, 'commission'),
    live,
  };
}

/** How each offered bet of a table ended on these coups, by the engine from their cards. */
function resultsByEngine(tableId: string, live: readonly Row[]): Map<Spot, Map<string, number>> {
  const dim = db.prepare('SELECT rules_json FROM an_dim_tables WHERE table_id = ?').get(tableId) as Row;
  const rules = JSON.parse(String(dim['rules_json'])) as TableRules;
  const out = new Map<Spot, Map<string, number>>();
  for (const c of live.filter((x) => x['table_id'] === tableId)) {
    const coup = {
      playerCards: String(c['player_cards']).split(' '),
      bankerCards: String(c['banker_cards']).split(' '),
      outcome: c['outcome'],
      playerTotal: c['player_total'],
      bankerTotal: c['banker_total'],
    } as unknown as CoupResult;
    for (const spot of offeredSpots(rules)) {
      const key = resultKey(payoutOf(spot, coupFeatures(coup), payoutRulesOf(rules)));
      const counts = out.get(spot) ?? new Map<string, number>();
      out.set(spot, counts.set(key, (counts.get(key) ?? 0) + 1));
    }
  }
  return out;
}

test('the history spans two gaming days whose coups are not those of the UTC days', async () => {
  const byUtc = await both.sqlite.stats();
  const byGaming = await both.sqlite.stats({ calendar: 'gaming' });
  expect(byGaming.days.map((d) => d.day)).toEqual(['2026-03-28', '2026-03-29']);
  expect(byUtc.days.map((d) => d.day)).toEqual(['2026-03-28', '2026-03-29']);
  expect(byGaming.days.map((d) => d.coups)).not.toEqual(byUtc.days.map((d) => d.coups));
  expect(byGaming.filter).toEqual({ calendar: 'gaming' });
  expect(byUtc.filter).toEqual({});
});

describe.each(['sqlite', 'postgres'] as const)('%s', (name) => {
  test('over every gaming day the facts answer what the counters answer over every UTC day', async () => {
    const rm = both[name];
    for (const tableId of [undefined, 'L1', 'R1', 'n1']) {
      const counters = await rm.stats({ tableId });
      const facts = await rm.stats({ tableId, calendar: 'gaming' });
      expectClose(facts.overall, counters.overall, `stats ${tableId}`);
      expectClose(facts.tables, counters.tables, `tables ${tableId}`);
      const shoe = ({ firstDay: _, ...s }: (typeof facts.shoes)[number]) => s;
      expectClose(facts.shoes.map(shoe), counters.shoes.map(shoe), `shoes ${tableId}`);
      expect(facts.days.reduce((n, d) => n + d.coups, 0)).toBe(counters.overall.coups);
      const betCounters = await rm.betStats({ tableId });
      const betFacts = await rm.betStats({ tableId, calendar: 'gaming' });
      expectClose(betFacts.overall, betCounters.overall, `bets ${tableId}`);
      expectClose(betFacts.tables, betCounters.tables, `bet tables ${tableId}`);
    }
    expect((await rm.stats()).overall.coups).toBe(coups.filter((c) => c['status'] !== 'voided').length);
  });

  test('a gaming day, a shift, an hour, instants: exactly the fact rows they match', async () => {
    const rm = both[name];
    const cases: [StatsFilter, (r: Row) => boolean][] = [
      [{ gamingDay: '2026-03-29' }, (r) => r['gaming_day'] === '2026-03-29'],
      [{ gamingDayFrom: '2026-03-28', gamingDayTo: '2026-03-28' }, (r) => r['gaming_day'] === '2026-03-28'],
      [{ shift: 'grave', tableId: 'R1' }, (r) => r['shift'] === 'grave' && r['table_id'] === 'R1'],
      [{ hour: 23 }, (r) => r['hour'] === 23],
      [
        { since: '2026-03-28T23:30:00Z', until: '2026-03-29T01:00:00+01:00' },
        (r) =>
          Number(r['at_ms']) >= Date.parse('2026-03-28T23:30:00Z') &&
          Number(r['at_ms']) < Date.parse('2026-03-29T00:00:00Z'),
      ],
      [{ dealer: 'Zoe' }, (r) => r['dealer_id'] === 'Zoe'],
    ];
    for (const [filter, match] of cases) {
      const want = counted(match);
      expect(want.coups).toBeGreaterThan(0);
      const s = await rm.stats(filter, SHIFTS);
      const { overall } = s;
      expect({ filter, coups: overall.coups, voids: overall.voids, outcomes: overall.outcomes }).toEqual({
        filter,
        coups: want.coups,
        voids: want.voids,
        outcomes: want.outcomes,
      });
      expect([overall.naturals.count, overall.handle, overall.paid, overall.commission]).toEqual([
        want.naturals,
        { ...want.handle, total: want.handle.player + want.handle.banker + want.handle.tie },
        want.paid,
        want.commission,
      ]);
      expect(s.days.map((d) => d.day)).toEqual(
        [...new Set(want.live.map((c) => String(c['gaming_day'])))].sort(),
      );
      const b = await rm.betStats(filter, SHIFTS);
      for (const t of b.tables) {
        const engine = resultsByEngine(t.tableId, want.live);
        for (const bet of t.bets) {
          const results = Object.fromEntries(
            bet.results.filter((r) => r.count > 0).map((r) => [r.key, r.count]),
          );
          expect({ filter, spot: bet.spot, results }).toEqual({
            filter,
            spot: bet.spot,
            results: Object.fromEntries(engine.get(bet.spot) ?? []),
          });
        }
      }
    }
  });
});

test('SQLite and PostgreSQL answer the same, to the byte', async () => {
  const filters: StatsFilter[] = [
    { calendar: 'gaming' },
    { gamingDay: '2026-03-29' },
    { tableId: 'L1', gamingDayFrom: '2026-03-28' },
    { shift: 'day', hour: 9 },
    { since: '2026-03-28T20:00:00Z' },
    { tableId: 'nobody', calendar: 'gaming' },
  ];
  for (const filter of filters) {
    for (const ask of [
      (rm: ReadModels) => rm.stats(filter, SHIFTS),
      (rm: ReadModels) => rm.betStats(filter, SHIFTS),
    ]) {
      const [a, b] = [await ask(both.sqlite), await ask(both.postgres)];
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    }
  }
});

test('bad filters are refused naming the field, the same way on both', async () => {
  const bad: [StatsFilter, string, RegExp][] = [
    [{ from: '2026-12-01T00:00:00Z' }, 'from', /for an instant give since/],
    [{ to: '2026-12-01T00:00:00Z' }, 'to', /for an instant give until/],
    [{ from: '2026-12-01', gamingDay: '2026-12-01' }, 'from', /gamingDayFrom and gamingDayTo/],
    [{ gamingDayFrom: '2026-13-45x' }, 'gamingDayFrom', /gaming day/],
    [{ gamingDay: '2026-12-01', gamingDayTo: '2026-12-02' }, 'gamingDay', /not both/],
    [{ gamingDayFrom: '2026-12-02', gamingDayTo: '2026-12-01' }, 'gamingDayFrom', /after/],
    [{ since: 'yesterday' }, 'since', /instant/],
    [{ shift: 'night' }, 'shift', /day, swing, grave/],
    [{ hour: 24 }, 'hour', /0 to 23/],
    [{ calendar: 'utc', shift: 'day' }, 'calendar', /not with calendar=utc/],
    [{ calendar: 'local' as never }, 'calendar', /utc or gaming/],
  ];
  for (const [filter, field, message] of bad) {
    for (const rm of [both.sqlite, both.postgres]) {
      for (const ask of [() => rm.stats(filter, SHIFTS), () => rm.betStats(filter, SHIFTS)]) {
        const error = await ask().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(QueryError);
        expect({ filter, field: (error as QueryError).field }).toEqual({ filter, field });
        expect((error as QueryError).message).toMatch(message);
      }
    }
  }
});
