/**
 * The analysts' reports over any read-model database (a SqlReader: the SQLite file or PostgreSQL): the SQL of the
 * views (sql.ts), the fact rows filtered first, grouped by the dimensions asked for, in the same order on both.
 */
import { QueryError } from '../read/query-kit';
import type { SqlReader, SqlRow } from '../sql/reader';
import { checkReportFilter, reportWhere } from './filters';
import {
  BET_TYPE_SUM_DIMENSIONS,
  DIMENSIONS,
  type Dimension,
  HOLD_SUM_DIMENSIONS,
  anomaliesSql,
  betTypeSql,
  betTypeSumsSql,
  holdSql,
  holdSumsSql,
  paceSql,
  ratingSql,
} from './sql';
import type {
  AnomalyReport,
  AnomalyRow,
  BetTypeRow,
  GroupedReport,
  HoldRow,
  PaceRow,
  RatingRow,
  Report,
  ReportFilter,
} from './wire';

/** What every report takes: the filter, the most rows (default 10,000), the shift names to check against. */
export interface ReportOptions {
  readonly filter?: ReportFilter;
  readonly limit?: number;
  readonly shifts?: readonly string[];
}

export const MAX_REPORT_ROWS = 100_000;
export const DEFAULT_REPORT_ROWS = 10_000;

export const HOLD_DIMENSIONS: readonly Dimension[] = ['table', 'gamingDay', 'shift', 'dealer'];
export const BET_TYPE_DIMENSIONS: readonly Dimension[] = ['table', 'gamingDay', 'shift', 'dealer', 'betType'];

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const opt = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string => String(v);

function limitOf(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_REPORT_ROWS;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_REPORT_ROWS)
    throw new QueryError(
      'INVALID_QUERY',
      'limit',
      `limit must be a whole number from 1 to ${MAX_REPORT_ROWS}`,
    );
  return limit;
}

/** The dimensions, checked, in their canonical order. */
export function dimensionsOf(groupBy: readonly string[], allowed: readonly Dimension[]): Dimension[] {
  for (const d of groupBy) {
    if (!(allowed as readonly string[]).includes(d))
      throw new QueryError(
        'INVALID_QUERY',
        'groupBy',
        `groupBy takes ${allowed.join(', ')}; '${d}' is not one`,
      );
  }
  return allowed.filter((d) => groupBy.includes(d));
}

async function run<R>(
  sql: SqlReader,
  text: string,
  params: readonly (string | number | null)[],
  options: ReportOptions,
  map: (raw: SqlRow) => R,
): Promise<Report<R>> {
  const limit = limitOf(options.limit);
  const raw = await sql.all<SqlRow>(`${text} LIMIT ?`, [...params, limit + 1]);
  return {
    filter: options.filter ?? {},
    rows: raw.slice(0, limit).map(map),
    truncated: raw.length > limit,
  };
}

/** The grouping columns of a row, named as the API names them. */
function keysOf(raw: SqlRow, dims: readonly Dimension[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of dims) {
    const v = raw[DIMENSIONS[d]];
    out[d === 'dealer' ? 'dealerId' : d === 'table' ? 'tableId' : d] = d === 'hour' ? Number(v) : v;
  }
  return out;
}

/**
 * Whether a summary table (its dimensions: `sums`) answers the question: every dimension is one of its, and the
 * filter names nothing finer (no instants, no hour: the sums are per gaming day and shift).
 */
function fromSums(filter: ReportFilter, dims: readonly Dimension[], sums: readonly Dimension[]): boolean {
  const instants = filter.since !== undefined || filter.until !== undefined;
  const dealer = filter.dealer !== undefined && !sums.includes('dealer');
  return !instants && filter.hour === undefined && !dealer && dims.every((d) => sums.includes(d));
}

function filtered(options: ReportOptions): ReportFilter {
  const filter = options.filter ?? {};
  checkReportFilter(filter, options.shifts);
  return filter;
}

/** Hold per table, gaming day, shift and dealer (or `groupBy`: any of table, gamingDay, shift, hour, dealer). */
export async function holdReport(
  sql: SqlReader,
  options: ReportOptions & { readonly groupBy?: readonly string[] } = {},
): Promise<GroupedReport<HoldRow>> {
  const dims = dimensionsOf(options.groupBy ?? HOLD_DIMENSIONS, [
    'table',
    'gamingDay',
    'shift',
    'hour',
    'dealer',
  ]);
  const filter = filtered(options);
  const w = reportWhere(filter, { player: false });
  const text = fromSums(filter, dims, HOLD_SUM_DIMENSIONS)
    ? holdSumsSql(dims, w, sql.dialect)
    : holdSql(dims, w, sql.dialect);
  const report = await run(sql, text, w.params, options, (r) => ({
    ...keysOf(r, dims),
    coups: num(r['coups']),
    dropAmount: num(r['drop_amount']),
    cashedOut: num(r['cashed_out']),
    handle: num(r['handle']),
    win: num(r['win']),
    holdPct: opt(r['hold_pct']),
    winPctOfHandle: opt(r['win_pct_of_handle']),
    theoWin: num(r['theo_win']),
    theoPctOfHandle: opt(r['theo_pct_of_handle']),
    commission: num(r['commission']),
    voids: num(r['voids']),
    corrections: num(r['corrections']),
  }));
  return { ...report, groupBy: dims };
}

/** Hold per bet type, table, gaming day, shift and dealer (or `groupBy`, any of those and hour). */
export async function betTypeReport(
  sql: SqlReader,
  options: ReportOptions & { readonly groupBy?: readonly string[] } = {},
): Promise<GroupedReport<BetTypeRow>> {
  const dims = dimensionsOf(options.groupBy ?? BET_TYPE_DIMENSIONS, [
    'table',
    'gamingDay',
    'shift',
    'hour',
    'dealer',
    'betType',
  ]);
  const filter = filtered(options);
  const w = reportWhere(filter, { player: false });
  // a coup counts once per bet type: summed per bet type, it adds up only while the bet type is a dimension
  const text =
    dims.includes('betType') && fromSums(filter, dims, BET_TYPE_SUM_DIMENSIONS)
      ? betTypeSumsSql(dims, w, sql.dialect)
      : betTypeSql(dims, w, sql.dialect);
  const report = await run(sql, text, w.params, options, (r) => ({
    ...keysOf(r, dims),
    coups: num(r['coups']),
    bets: num(r['bets']),
    handle: num(r['handle']),
    paid: num(r['paid']),
    win: num(r['win']),
    holdPct: opt(r['hold_pct']),
    theoWin: num(r['theo_win']),
    theoPct: opt(r['theo_pct']),
    commission: num(r['commission']),
    voidedBets: num(r['voided_bets']),
    correctedBets: num(r['corrected_bets']),
  }));
  return { ...report, groupBy: dims };
}

/** Dealer pace per table, gaming day, shift and dealer. */
export async function paceReport(sql: SqlReader, options: ReportOptions = {}): Promise<Report<PaceRow>> {
  const w = reportWhere(filtered(options), { player: false });
  return run(sql, paceSql(w, sql.dialect), w.params, options, (r) => ({
    tableId: str(r['table_id']),
    gamingDay: str(r['gaming_day']),
    shift: str(r['shift']),
    dealerId: r['dealer_id'] === null ? null : str(r['dealer_id']),
    coups: num(r['coups']),
    firstAt: str(r['first_at']),
    lastAt: str(r['last_at']),
    hours: num(r['hours']),
    coupsPerHour: opt(r['coups_per_hour']),
  }));
}

/** Player rating per player, table and gaming day. */
export async function ratingReport(sql: SqlReader, options: ReportOptions = {}): Promise<Report<RatingRow>> {
  const w = reportWhere(filtered(options), { player: true });
  return run(sql, ratingSql(w, sql.dialect), w.params, options, (r) => ({
    playerId: str(r['player_id']),
    tableId: str(r['table_id']),
    gamingDay: str(r['gaming_day']),
    coups: num(r['coups']),
    bets: num(r['bets']),
    handle: num(r['handle']),
    averageBet: num(r['average_bet']),
    win: num(r['win']),
    theoWin: num(r['theo_win']),
    firstAt: str(r['first_at']),
    lastAt: str(r['last_at']),
    minutesPlayed: num(r['minutes_played']),
  }));
}

/**
 * Hold anomalies per table-day and per player-day (`scope`: one of them), each flagged when |z| passes
 * `threshold`; `flaggedOnly`: only those.
 */
export async function anomalyReport(
  sql: SqlReader,
  options: ReportOptions & {
    readonly threshold: number;
    readonly scope?: 'table' | 'player';
    readonly flaggedOnly?: boolean;
  },
): Promise<AnomalyReport> {
  const filter = filtered(options);
  // a player filter leaves the table scope out; a scope leaves the other out (an always-false condition)
  const none = { sql: ['1 = 0'], params: [] };
  const tableScope = options.scope !== 'player' && filter.playerId === undefined;
  const w = {
    table: tableScope ? reportWhere(filter, { player: false }) : none,
    player: options.scope !== 'table' ? reportWhere(filter, { player: true }) : none,
  };
  const flagged = options.flaggedOnly
    ? { sql: 'z IS NOT NULL AND (z > ? OR z < ?)', params: [options.threshold, -options.threshold] }
    : { sql: '', params: [] };
  const text = anomaliesSql(w, sql.dialect, flagged.sql);
  const report = await run(
    sql,
    text,
    [...w.table.params, ...w.player.params, ...flagged.params],
    options,
    (r): AnomalyRow => {
      const z = opt(r['z']);
      return {
        scope: r['scope'] === 'player' ? 'player' : 'table',
        tableId: r['table_id'] === null ? null : str(r['table_id']),
        playerId: r['player_id'] === null ? null : str(r['player_id']),
        gamingDay: str(r['gaming_day']),
        coups: num(r['coups']),
        handle: num(r['handle']),
        win: num(r['win']),
        theoWin: num(r['theo_win']),
        theoVar: num(r['theo_var']),
        sd: opt(r['sd']),
        z,
        flagged: z !== null && Math.abs(z) > options.threshold,
      };
    },
  );
  return { ...report, threshold: options.threshold };
}
