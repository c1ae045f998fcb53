/** The statistics query: overall, per table, per day and per shoe over a range of UTC days. */
import { QueryError, type Raw, checkDay } from '../../../read/query-kit';
import type { Db } from '../../../runner/db';
import { STATS_COUNTERS, ST_DAILY, ST_SHOES, type StatsCounters, summarize } from '../fold';
import type { StatsFilter, StatsView } from '../wire';

const statsRow = (r: Raw): StatsCounters =>
  ({
    ...Object.fromEntries(STATS_COUNTERS.map((k) => [k, Number(r[k] ?? 0)])),
    decks: Number(r.decks),
    tie_pays: Number(r.tie_pays),
  }) as StatsCounters;

/** Statistics for a table (or all) over a range of UTC days: overall, per table, per day, per shoe. */
export function statsOf(db: Db, filter: StatsFilter = {}): StatsView {
  checkDay('from', filter.from);
  checkDay('to', filter.to);
  if (filter.tableId !== undefined && (filter.tableId.length === 0 || filter.tableId.length > 64)) {
    throw new QueryError('INVALID_QUERY', 'tableId', 'tableId must be a table id');
  }
  const where: string[] = [];
  const params: Record<string, string> = {};
  if (filter.tableId !== undefined) {
    where.push('table_id = @tableId');
    params.tableId = filter.tableId;
  }
  if (filter.from !== undefined) {
    where.push('day >= @from');
    params.from = filter.from;
  }
  if (filter.to !== undefined) {
    where.push('day <= @to');
    params.to = filter.to;
  }
  const rows = db
    .prepare(
      `SELECT * FROM ${ST_DAILY} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY day, table_id`,
    )
    .all(params) as Raw[];
  const byTable = new Map<string, Raw[]>();
  const byDay = new Map<string, Raw[]>();
  for (const r of rows) {
    byTable.set(String(r.table_id), [...(byTable.get(String(r.table_id)) ?? []), r]);
    byDay.set(String(r.day), [...(byDay.get(String(r.day)) ?? []), r]);
  }
  let shoes: StatsView['shoes'] = [];
  if (filter.tableId !== undefined) {
    const w = ['table_id = @tableId'];
    if (filter.from !== undefined) w.push('first_day >= @from');
    if (filter.to !== undefined) w.push('first_day <= @to');
    shoes = (
      db.prepare(`SELECT * FROM ${ST_SHOES} WHERE ${w.join(' AND ')} ORDER BY shoe_no`).all(params) as Raw[]
    ).map((r) => ({
      shoeNo: Number(r.shoe_no),
      firstDay: String(r.first_day),
      ...summarize([statsRow(r)]),
    }));
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
