/**
 * The statistics queries: overall, per table, per day and per shoe; per bet type. Counted from the per-UTC-day
 * counters, or from the analysts' facts by gaming day (see `statsSource`): only the rows differ, the summaries
 * are the same.
 */
import { ALL_SPOTS, type GameMode, type Spot } from '@coup/engine';
import { type Raw, byteOrder, conditions } from '../../read/query-kit';
import type { SqlParam, SqlReader } from '../../sql/reader';
import { type BetRow, type ResultCounts, summarizeBets } from './bet-summary';
import { type FactBet, factBetRows, factDailyRows, factShoeRows } from './facts';
import { type StatsOptions, type StatsSource, statsSource } from './filter';
import {
  BET_COUNTERS,
  STATS_COUNTERS,
  ST_BETS,
  ST_BET_RESULTS,
  ST_DAILY,
  ST_SHOES,
  type StatsCounters,
  summarize,
} from './fold';
import type { BetStatsScope, BetStatsView, StatsFilter, StatsView } from './wire';

/** The counters' days, and the tables a token is limited to. */
type CounterDays = { readonly from?: string; readonly to?: string; readonly tables?: readonly string[] };

const statsRow = (r: Raw): StatsCounters =>
  ({
    ...Object.fromEntries(STATS_COUNTERS.map((k) => [k, Number(r[k] ?? 0)])),
    decks: Number(r.decks),
    tie_pays: Number(r.tie_pays),
    game: (r.game as GameMode | null) ?? 'commission',
  }) as StatsCounters;

/**
 * The counters' days and tables as a WHERE clause on (table_id, `dayColumn`) (st_shoes has first_day, the others
 * day).
 */
function whereOf(
  tableId: string | undefined,
  days: CounterDays,
  dayColumn = 'day',
): { where: string; params: readonly SqlParam[] } {
  const c = conditions()
    .add('"table_id" = ?', tableId)
    .among('"table_id"', days.tables)
    .add(`"${dayColumn}" >= ?`, days.from)
    .add(`"${dayColumn}" <= ?`, days.to);
  return { where: c.where(), params: c.params };
}

/** The answer's filter: the one given, saying when the days are gaming days. */
const echoed = (filter: StatsFilter, source: StatsSource): StatsFilter =>
  source.kind === 'facts' ? { ...filter, calendar: 'gaming' } : filter;

/** `items` grouped by a key, groups in first-seen order. */
function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const group = out.get(k);
    if (group) group.push(t);
    else out.set(k, [t]);
  }
  return out;
}

/** The main bets' rows per table and day (UTC days: st_daily; gaming days: from the facts), by day and table. */
async function dailyRows(sql: SqlReader, tableId: string | undefined, source: StatsSource): Promise<Raw[]> {
  const order = (column: string) => byteOrder(sql, column);
  if (source.kind === 'facts') return factDailyRows(sql, source.where, tableId, order);
  const { where, params } = whereOf(tableId, source);
  return sql.all<Raw>(
    `SELECT * FROM "${ST_DAILY}" ${where} ORDER BY ${order('"day"')}, ${order('"table_id"')}`,
    params,
  );
}

/** One table's rows per shoe: the shoes first counted in the days (UTC), or the facts of the filter per shoe. */
async function shoeRows(sql: SqlReader, tableId: string, source: StatsSource): Promise<Raw[]> {
  if (source.kind === 'facts') return factShoeRows(sql, source.where, tableId);
  const w = whereOf(tableId, source, 'first_day');
  return sql.all<Raw>(`SELECT * FROM "${ST_SHOES}" ${w.where} ORDER BY "shoe_no"`, w.params);
}

/**
 * Statistics for a table (or all): overall, per table, per day, per shoe (with a tableId); over UTC days, or
 * gaming days, shifts, hours, instants (see StatsFilter).
 */
export async function statsOf(
  sql: SqlReader,
  filter: StatsFilter = {},
  options: StatsOptions = {},
): Promise<StatsView> {
  const source = statsSource(filter, options);
  const rows = await dailyRows(sql, filter.tableId, source);
  const byTable = groupBy(rows, (r) => String(r.table_id));
  const byDay = groupBy(rows, (r) => String(r.day));
  let shoes: StatsView['shoes'] = [];
  if (filter.tableId !== undefined) {
    shoes = [...groupBy(await shoeRows(sql, filter.tableId, source), (r) => String(r.shoe_no))].map(
      ([shoeNo, rs]) => ({
        shoeNo: Number(shoeNo),
        firstDay: rs.map((r) => String(r.first_day)).reduce((a, b) => (b < a ? b : a)),
        ...summarize(rs.map(statsRow)),
      }),
    );
  }
  return {
    filter: echoed(filter, source),
    overall: summarize(rows.map(statsRow)),
    tables: [...byTable].map(([tableId, rs]) => ({
      tableId,
      decks: Number(rs[0]?.decks),
      tiePays: Number(rs[0]?.tie_pays),
      ...summarize(rs.map(statsRow)),
    })),
    days: [...byDay].map(([day, rs]) => ({ day, ...summarize(rs.map(statsRow)) })),
    shoes,
  };
}

/** A table's day of one bet type with its result counts (from the counters or the facts). */
type DayBet = FactBet & { readonly results: ResultCounts };

const betRow = (r: Raw): BetRow =>
  ({
    ...Object.fromEntries(BET_COUNTERS.map((k) => [k, Number(r[k] ?? 0)])),
    spot: String(r.spot) as Spot,
    paytable: (r.paytable as string | null) ?? null,
    game: (r.game as GameMode | null) ?? 'commission',
    decks: Number(r.decks),
    tie_pays: Number(r.tie_pays),
  }) as BetRow;

const scopeOf = (rows: readonly DayBet[]): BetStatsScope => summarizeBets(rows, ALL_SPOTS);

/** st_bets' rows of the days with st_bet_results' counts, by day, table and spot. */
async function counterBetRows(
  sql: SqlReader,
  tableId: string | undefined,
  days: CounterDays,
): Promise<DayBet[]> {
  const { where, params } = whereOf(tableId, days);
  const results = new Map<string, Map<string, number>>();
  for (const r of await sql.all<Raw>(
    `SELECT "table_id", "day", "spot", "result", "coups" FROM "${ST_BET_RESULTS}" ${where}`,
    params,
  )) {
    const key = `${String(r.table_id)}|${String(r.day)}|${String(r.spot)}`;
    let counts = results.get(key);
    if (!counts) results.set(key, (counts = new Map()));
    counts.set(String(r.result), Number(r.coups));
  }
  const order = ['"day"', '"table_id"', '"spot"'].map((c) => byteOrder(sql, c)).join(', ');
  return (await sql.all<Raw>(`SELECT * FROM "${ST_BETS}" ${where} ORDER BY ${order}`, params)).map((r) => ({
    tableId: String(r.table_id),
    day: String(r.day),
    row: betRow(r),
    results: results.get(`${String(r.table_id)}|${String(r.day)}|${String(r.spot)}`) ?? new Map(),
  }));
}

/**
 * Statistics per bet type (every spot offered, side bets included) for a table (or all): overall, per table,
 * per day; over UTC days, or gaming days, shifts, hours, instants (see StatsFilter). Each result's frequency
 * beside its exact probability with a Wilson 95% interval; the hold beside the theoretical edge.
 */
export async function betStatsOf(
  sql: SqlReader,
  filter: StatsFilter = {},
  options: StatsOptions = {},
): Promise<BetStatsView> {
  const source = statsSource(filter, options);
  const rows: readonly DayBet[] =
    source.kind === 'facts'
      ? await factBetRows(sql, source.where, filter.tableId)
      : await counterBetRows(sql, filter.tableId, source);
  const byTable = groupBy(rows, (r) => r.tableId);
  return {
    filter: echoed(filter, source),
    confidence: 'wilson-95',
    overall: scopeOf(rows),
    tables: [...byTable].map(([tableId, rs]) => ({
      tableId,
      decks: rs[0]?.row.decks ?? 0,
      game: rs[0]?.row.game ?? 'commission',
      tiePays: rs[0]?.row.tie_pays ?? 8,
      ...scopeOf(rs),
    })),
    days: [...groupBy(rows, (r) => r.day)].map(([day, rs]) => ({ day, ...scopeOf(rs) })),
  };
}
