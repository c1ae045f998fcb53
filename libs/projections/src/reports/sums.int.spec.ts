/**
 * The summary tables (an_sum_*) against the facts: the reports' history (side bets, box commission, voids and
 * corrections before and after settling, several dealers, days and shifts) folded by the runner into SQLite and
 * copied into a real PostgreSQL; the summary tables hold the sums of the facts, and the reports read from them
 * answer what the reports read from the facts answer, row for row, for every grouping and filter they take, on
 * both. The REST reports read them only when they answer the question.
 */
import { Pool } from 'pg';
import {
  AN_AMENDMENTS,
  AN_BETS,
  AN_CASH,
  AN_COUPS,
  AN_SUM_BET_TYPES,
  AN_SUM_HOLD,
  analystProjection,
  gamingDayConfig,
} from '../read-models/analyst';
import type { Actor } from '@coup/table';
import type { Row } from '../read-models/kernel/types';
import type { Db } from '../runner/db';
import { type SqlReader, pgTypes, postgresReader, sqliteReader } from '../sql/reader';
import { COUPS } from '../testing/coups';
import { TableDriver } from '../testing/driver';
import { copyReadModelsToPostgres } from '../testing/pg-copy';
import { type TestPostgres, startTestPostgres } from '../testing/postgres';
import { answerMismatch } from '../testing/same-answer';
import { betTypeSumsOfFacts, holdSumsOfFacts, sumsMismatches } from '../testing/sums-of-facts';
import { reportWhere } from './filters';
import { betTypeReport, holdReport } from './queries';
import {
  BET_TYPE_SUM_DIMENSIONS,
  type Dimension,
  HOLD_SUM_DIMENSIONS,
  betTypeSql,
  betTypeSumsSql,
  holdSql,
  holdSumsSql,
} from './sql';
import { type History, foldHistory, reportsHistory } from './testing/corpus';
import type { ReportFilter } from './wire';

jest.setTimeout(120_000);

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

const projection = analystProjection(
  gamingDayConfig({ gamingDay: '06:00 Europe/London', shifts: 'day=06:00,swing=14:00,grave=22:00' }),
);

/**
 * One more table: a coup settled at the end of the day shift and voided in the swing shift, its dealer's only
 * fact in the day shift: that shift's sums of it are back to zero, and no report has a row for them.
 */
function voidedAcrossShifts(): History[number] {
  const rules = { dealing: 'live' };
  const d = new TableDriver({ tableId: 'Z1', players: 0, rules, start: '2026-03-28T13:59:30.000Z' });
  const events = [
    ...d.execute('OpenTable', { tableId: 'Z1', rules }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
    ...d.liveRound(COUPS.bankerNatural, [{ playerId: 'p1', spot: 'banker', amount: 2_000 }]),
  ];
  d.setTime('2026-03-28T14:00:10.000Z');
  events.push(...d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
  return { tableId: 'Z1', events };
}

let pg: TestPostgres;
let pool: Pool;
let db: Db;
let readers: [string, SqlReader][];

beforeAll(async () => {
  pg = await startTestPostgres();
  pool = new Pool({ connectionString: await pg.createDatabase(), types: pgTypes });
  db = await foldHistory([...reportsHistory(), voidedAcrossShifts()], [projection]);
  await copyReadModelsToPostgres(db, pool, [projection]);
  readers = [
    ['sqlite', sqliteReader(db)],
    ['postgres', postgresReader(pool)],
  ];
});
afterAll(async () => {
  await pool?.end();
  await pg?.stop();
  db?.close();
});

const all = (table: string): Row[] => db.prepare(`SELECT * FROM "${table}"`).all() as Row[];

/** Every subset of the dimensions, in their order. */
const subsets = (dims: readonly Dimension[]): Dimension[][] =>
  dims.reduce<Dimension[][]>((out, d) => [...out, ...out.map((s) => [...s, d])], [[]]);

const FILTERS: ReportFilter[] = [
  {},
  { gamingDay: '2026-03-29' },
  { from: '2026-03-28', to: '2026-03-28', shift: 'grave' },
  { tableId: 'n1', shift: 'day' },
  { tableId: 'R1', from: '2026-03-29' },
];
const HOLD_FILTERS: ReportFilter[] = [
  ...FILTERS,
  { dealer: 'amy' },
  { tableId: 'L1', dealer: 'dealer-1', to: '2026-03-28' },
];

test('the summary tables hold the sums of the facts, with voided coups and their zeros', () => {
  const hold = holdSumsOfFacts({ coups: all(AN_COUPS), cash: all(AN_CASH), amendments: all(AN_AMENDMENTS) });
  expect(hold.length).toBeGreaterThan(10);
  expect(sumsMismatches(all(AN_SUM_HOLD), hold, 'hold')).toEqual([]);
  const betTypes = betTypeSumsOfFacts(all(AN_BETS));
  expect(betTypes.length).toBeGreaterThan(20);
  expect(sumsMismatches(all(AN_SUM_BET_TYPES), betTypes, 'betTypes')).toEqual([]);
  expect(all(AN_SUM_HOLD).some((r) => r['dealer_id'] === '')).toBe(true);
  expect(all(AN_SUM_HOLD).filter((r) => r['table_id'] === 'Z1' && r['facts'] === 0)).toEqual([
    expect.objectContaining({ shift: 'day', dealer_id: 'dealer-1', coups: 0, handle: 0 }),
  ]);
});

test.each(HOLD_FILTERS)(
  'hold from an_sum_hold answers what the facts answer, every grouping, on both: %j',
  async (filter) => {
    const where = reportWhere(filter, { player: false });
    for (const dims of subsets(HOLD_SUM_DIMENSIONS)) {
      for (const [name, sql] of readers) {
        const facts = await sql.all(holdSql(dims, where, sql.dialect), where.params);
        const sums = await sql.all(holdSumsSql(dims, where, sql.dialect), where.params);
        expect({ name, dims, differs: answerMismatch(facts, sums) }).toEqual({ name, dims, differs: null });
        if (dims.length === 4 && Object.keys(filter).length === 0) expect(facts.length).toBeGreaterThan(10);
      }
    }
  },
);

test.each(FILTERS)(
  'hold per bet type from an_sum_bet_types answers what the facts answer, on both: %j',
  async (filter) => {
    const where = reportWhere(filter, { player: false });
    const groupings = subsets(BET_TYPE_SUM_DIMENSIONS).filter((dims) => dims.includes('betType'));
    for (const dims of groupings) {
      for (const [name, sql] of readers) {
        const facts = await sql.all(betTypeSql(dims, where, sql.dialect), where.params);
        const sums = await sql.all(betTypeSumsSql(dims, where, sql.dialect), where.params);
        expect({ name, dims, differs: answerMismatch(facts, sums) }).toEqual({ name, dims, differs: null });
      }
    }
  },
);

test('the reports read the summary tables when they answer the question, the facts otherwise', async () => {
  const seen: string[] = [];
  const [, lite] = readers[0] as [string, SqlReader];
  const spy: SqlReader = { ...lite, all: (text, params) => (seen.push(text), lite.all(text, params)) };
  const table = async (run: () => Promise<unknown>) => {
    seen.length = 0;
    await run();
    return /an_sum_\w+/.exec(seen.join(' '))?.[0] ?? 'facts';
  };
  const year = { from: '2026-01-01', to: '2026-12-31' };
  expect(await table(() => holdReport(spy, { filter: year, groupBy: ['table'] }))).toBe(AN_SUM_HOLD);
  expect(await table(() => holdReport(spy, { filter: { dealer: 'amy' } }))).toBe(AN_SUM_HOLD);
  expect(await table(() => holdReport(spy, { groupBy: ['hour'] }))).toBe('facts');
  expect(await table(() => holdReport(spy, { filter: { hour: 3 } }))).toBe('facts');
  expect(await table(() => holdReport(spy, { filter: { since: '2026-03-28T23:00:00Z' } }))).toBe('facts');
  expect(await table(() => betTypeReport(spy, { filter: year, groupBy: ['betType'] }))).toBe(
    AN_SUM_BET_TYPES,
  );
  expect(await table(() => betTypeReport(spy, { groupBy: ['table', 'shift', 'betType'] }))).toBe(
    AN_SUM_BET_TYPES,
  );
  expect(await table(() => betTypeReport(spy, { groupBy: ['table'] }))).toBe('facts');
  expect(await table(() => betTypeReport(spy))).toBe('facts');
  expect(await table(() => betTypeReport(spy, { filter: { dealer: 'amy' }, groupBy: ['betType'] }))).toBe(
    'facts',
  );
});
