/** The statistics queries: overall, per table, per day and per shoe over a range of UTC days; per bet type. */
import { ALL_SPOTS, type GameMode, type Spot } from '@coup/engine';
import { QueryError, type Raw, byteOrder, checkDay, conditions } from '../../read/query-kit';
import type { SqlParam, SqlReader } from '../../sql/reader';
import { type BetRow, type ResultCounts, summarizeBets } from './bet-summary';
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

const statsRow = (r: Raw): StatsCounters =>
  ({
    ...Object.fromEntries(STATS_COUNTERS.map((k) => [k, Number(r[k] ?? 0)])),
    decks: Number(r.decks),
    tie_pays: Number(r.tie_pays),
    game: (r.game as GameMode | null) ?? 'commission',
  }) as StatsCounters;

/**
 * The filter checked, as a WHERE clause on (table_id, `dayColumn`) and its parameters (st_shoes has first_day
 * where the daily tables have day).
 */
function whereOf(filter: StatsFilter, dayColumn = 'day'): { where: string; params: readonly SqlParam[] } {
  checkDay('from', filter.from);
  checkDay('to', filter.to);
  if (filter.tableId !== undefined && (filter.tableId.length === 0 || filter.tableId.length > 64)) {
    throw new QueryError('INVALID_QUERY', 'tableId', 'tableId must be a table id');
  }
  const c = conditions()
    .add('"table_id" = ?', filter.tableId)
    .add(`"${dayColumn}" >= ?`, filter.from)
    .add(`"${dayColumn}" <= ?`, filter.to);
  return { where: c.where(), params: c.params };
}

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

/** Statistics for a table (or all) over a range of UTC days: overall, per table, per day, per shoe. */
export async function statsOf(sql: SqlReader, filter: StatsFilter = {}): Promise<StatsView> {
  const { where, params } = whereOf(filter);
  const order = `${byteOrder(sql, '"day"')}, ${byteOrder(sql, '"table_id"')}`;
  const rows = await sql.all<Raw>(`SELECT * FROM "${ST_DAILY}" ${where} ORDER BY ${order}`, params);
  const byTable = groupBy(rows, (r) => String(r.table_id));
  const byDay = groupBy(rows, (r) => String(r.day));
  let shoes: StatsView['shoes'] = [];
  if (filter.tableId !== undefined) {
    const w = whereOf(filter, 'first_day');
    shoes = (await sql.all<Raw>(`SELECT * FROM "${ST_SHOES}" ${w.where} ORDER BY "shoe_no"`, w.params)).map(
      (r) => ({
        shoeNo: Number(r.shoe_no),
        firstDay: String(r.first_day),
        ...summarize([statsRow(r)]),
      }),
    );
  }
  return {
    filter,
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

interface DayBet {
  readonly tableId: string;
  readonly day: string;
  readonly row: BetRow;
  readonly results: ResultCounts;
}

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

/**
 * Statistics per bet type (every spot offered, side bets included) for a table (or all) over a range of UTC
 * days: overall, per table, per day. Each result's frequency beside its exact probability with a Wilson 95%
 * interval; the hold beside the theoretical edge.
 */
export async function betStatsOf(sql: SqlReader, filter: StatsFilter = {}): Promise<BetStatsView> {
  const { where, params } = whereOf(filter);
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
  const rows: DayBet[] = (
    await sql.all<Raw>(`SELECT * FROM "${ST_BETS}" ${where} ORDER BY ${order}`, params)
  ).map((r) => ({
    tableId: String(r.table_id),
    day: String(r.day),
    row: betRow(r),
    results: results.get(`${String(r.table_id)}|${String(r.day)}|${String(r.spot)}`) ?? new Map(),
  }));
  const byTable = groupBy(rows, (r) => r.tableId);
  return {
    filter,
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
