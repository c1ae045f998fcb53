/**
 * The analysts' reports as SQL over the an_ fact tables, written once for SQLite and PostgreSQL: only what both
 * share (CASE, COALESCE, UNION ALL, COUNT(DISTINCT), ||, sqrt; ratios computed on DOUBLE PRECISION, which SQLite
 * reads as REAL). Each report is a template: the views are the templates with no filter at their full grain
 * (views.ts); the REST queries filter the fact rows first and group by the dimensions asked for (queries.ts),
 * reading the summary tables (an_sum_*) instead when their grain answers the question: the same answer from
 * thousands of rows instead of millions.
 */
import { AN_AMENDMENTS, AN_BETS, AN_CASH, AN_COUPS } from '../read-models/analyst/schema-facts';
import { AN_SUM_BET_TYPES, AN_SUM_HOLD } from '../read-models/analyst/schema-sums';
import type { Dialect } from '../sql/dialect';

/** Conditions on the fact rows (columns every fact table of the report has), ANDed; `?` placeholders. */
export interface FactWhere {
  readonly sql: readonly string[];
  readonly params: readonly (string | number | null)[];
}

export const NO_FILTER: FactWhere = { sql: [], params: [] };

const where = (w: FactWhere): string => (w.sql.length === 0 ? '' : ` WHERE ${w.sql.join(' AND ')}`);

/** num / den x 100 as a double, NULL when den is 0. */
const pct = (num: string, den: string): string =>
  `CASE WHEN ${den} <> 0 THEN CAST(${num} AS DOUBLE PRECISION) * 100 / CAST(${den} AS DOUBLE PRECISION) END`;

/** A dimension a report may group by: its name in the API and its column. */
export const DIMENSIONS = {
  table: 'table_id',
  gamingDay: 'gaming_day',
  shift: 'shift',
  hour: 'hour',
  dealer: 'dealer_id',
  betType: 'bet_type',
} as const;
export type Dimension = keyof typeof DIMENSIONS;

const columns = (dims: readonly Dimension[]): string[] => dims.map((d) => DIMENSIONS[d]);

/** Integer columns (every other dimension is text). */
const NUMERIC: ReadonlySet<string> = new Set(['hour']);

/**
 * ORDER BY these columns the same way in both dialects (null: no ORDER BY, as in a view): NULLs last, text in
 * byte order (PostgreSQL's database collation may be a language's, so its text sorts name the "C" collation).
 */
export function orderBy(cols: readonly string[], dialect: Dialect | null): string {
  return dialect === null || cols.length === 0 ? '' : ` ORDER BY ${orderKeys(cols, dialect)}`;
}

function orderKeys(cols: readonly string[], dialect: Dialect): string {
  const key = (c: string) =>
    `${c} IS NULL, ${c}${dialect === 'postgres' && !NUMERIC.has(c) ? ' COLLATE "C"' : ''}`;
  return cols.map(key).join(', ');
}

/**
 * GROUP BY the dimensions (none: one row over everything), ordered for `order`'s dialect; `having`: a condition
 * on the groups (only when there are dimensions).
 */
function grouped(dims: readonly Dimension[], order: Dialect | null, having = ''): string {
  const cols = columns(dims);
  if (cols.length === 0) return '';
  return ` GROUP BY ${cols.join(', ')}${having === '' ? '' : ` HAVING ${having}`}${orderBy(cols, order)}`;
}

const select = (dims: readonly Dimension[]): string =>
  columns(dims)
    .map((c) => `${c}, `)
    .join('');

/** The hold report's columns, from rows with its fact columns (the facts, or their sums). */
const holdSelect = (dims: readonly Dimension[]): string =>
  `SELECT ${select(dims)}SUM(coups) AS coups, SUM(drop_amount) AS drop_amount, SUM(cashed_out) AS cashed_out,
    SUM(handle) AS handle, SUM(win) AS win, ${pct('SUM(win)', 'SUM(drop_amount)')} AS hold_pct,
    ${pct('SUM(win)', 'SUM(handle)')} AS win_pct_of_handle, SUM(theo_win) AS theo_win,
    ${pct('SUM(theo_win)', 'SUM(handle)')} AS theo_pct_of_handle, SUM(commission) AS commission,
    SUM(voids) AS voids, SUM(corrections) AS corrections`;

/**
 * Hold per table, gaming day, shift and dealer (or the dimensions given): coups settled, drop (cash bought in),
 * cash paid out, handle, actual win, hold % of the drop and of the handle, theoretical win and its % of the
 * handle, commission, voids and corrections. Voided coups count only as voids.
 */
export function holdSql(dims: readonly Dimension[], w: FactWhere, order: Dialect | null): string {
  const facts = [
    `SELECT table_id, gaming_day, shift, hour, at_ms, dealer_id, 1 AS coups, 0 AS drop_amount, 0 AS cashed_out,
      handle, win, commission, theo_win, 0 AS voids, 0 AS corrections
     FROM ${AN_COUPS} WHERE status <> 'voided'`,
    `SELECT table_id, gaming_day, shift, hour, at_ms, dealer_id, 0, CASE WHEN kind = 'buy-in' THEN amount ELSE 0 END,
      CASE WHEN kind = 'cash-out' THEN amount ELSE 0 END, 0, 0, 0, 0.0, 0, 0
     FROM ${AN_CASH}`,
    `SELECT table_id, gaming_day, shift, hour, at_ms, dealer_id, 0, 0, 0, 0, 0, 0, 0.0,
      CASE WHEN kind IN ('round-void', 'settled-void') THEN 1 ELSE 0 END,
      CASE WHEN kind IN ('card-correction', 'settled-correction') THEN 1 ELSE 0 END
     FROM ${AN_AMENDMENTS}`,
  ];
  return `${holdSelect(dims)}
   FROM (${facts.join(' UNION ALL ')}) f${where(w)}${grouped(dims, order)}`;
}

/** The dimensions and filters an_sum_hold answers: all but the hour and instants (its rows are per shift). */
export const HOLD_SUM_DIMENSIONS: readonly Dimension[] = ['table', 'gamingDay', 'shift', 'dealer'];

/**
 * The hold report from an_sum_hold (the facts summed per gaming day, table, shift and dealer): the same answer
 * as holdSql for dimensions of HOLD_SUM_DIMENSIONS and conditions on them. Its dealer '' is the facts' NULL; a
 * group whose facts were all taken out again (a coup voided) is not one.
 */
export function holdSumsSql(dims: readonly Dimension[], w: FactWhere, order: Dialect | null): string {
  const rows = `SELECT table_id, gaming_day, shift, NULLIF(dealer_id, '') AS dealer_id, coups, drop_amount,
      cashed_out, handle, win, commission, theo_win, voids, corrections, facts
     FROM ${AN_SUM_HOLD}${where(w)}`;
  return `${holdSelect(dims)}
   FROM (${rows}) f${grouped(dims, order, 'SUM(facts) > 0')}`;
}

/**
 * Hold per bet type (and table, gaming day, shift, dealer, or the dimensions given): coups and stakes on it,
 * handle, paid, actual win and hold % of the handle, theoretical win and its %, commission; the stakes of
 * coups voided after they settled and of coups corrected.
 */
export function betTypeSql(dims: readonly Dimension[], w: FactWhere, order: Dialect | null): string {
  const live = (expr: string, otherwise = '0'): string =>
    `CASE WHEN status <> 'voided' THEN ${expr} ELSE ${otherwise} END`;
  return `SELECT ${select(dims)}COUNT(DISTINCT ${live(`table_id || ':' || round_no`, 'NULL')}) AS coups,
    SUM(${live('1')}) AS bets, SUM(${live('stake')}) AS handle, SUM(${live('paid')}) AS paid,
    SUM(${live('win')}) AS win, ${pct(`SUM(${live('win')})`, `SUM(${live('stake')})`)} AS hold_pct,
    SUM(${live('theo_win', '0.0')}) AS theo_win,
    ${pct(`SUM(${live('theo_win', '0.0')})`, `SUM(${live('stake')})`)} AS theo_pct,
    SUM(${live('commission')}) AS commission,
    SUM(CASE WHEN status = 'voided' THEN 1 ELSE 0 END) AS voided_bets,
    SUM(CASE WHEN status = 'corrected' THEN 1 ELSE 0 END) AS corrected_bets
   FROM ${AN_BETS}${where(w)}${grouped(dims, order)}`;
}

/** The dimensions and filters an_sum_bet_types answers (with betType among the dimensions). */
export const BET_TYPE_SUM_DIMENSIONS: readonly Dimension[] = ['table', 'gamingDay', 'shift', 'betType'];

/**
 * Hold per bet type from an_sum_bet_types (an_fact_bets summed per gaming day, table, shift and bet type): the
 * same answer as betTypeSql when the dimensions are of BET_TYPE_SUM_DIMENSIONS, betType one of them (a coup
 * counts once per bet type), and the conditions on them.
 */
export function betTypeSumsSql(dims: readonly Dimension[], w: FactWhere, order: Dialect | null): string {
  return `SELECT ${select(dims)}SUM(coups) AS coups, SUM(bets) AS bets, SUM(handle) AS handle, SUM(paid) AS paid,
    SUM(win) AS win, ${pct('SUM(win)', 'SUM(handle)')} AS hold_pct, SUM(theo_win) AS theo_win,
    ${pct('SUM(theo_win)', 'SUM(handle)')} AS theo_pct, SUM(commission) AS commission,
    SUM(voided_bets) AS voided_bets, SUM(corrected_bets) AS corrected_bets
   FROM ${AN_SUM_BET_TYPES}${where(w)}${grouped(dims, order, 'SUM(facts) > 0')}`;
}

/**
 * Dealer pace per table, gaming day, shift and dealer: coups dealt (voided ones included: they were dealt),
 * from the first round's opening to the last coup's settling, and coups per hour over that time.
 */
export function paceSql(w: FactWhere, order: Dialect | null): string {
  const span = 'MAX(at_ms) - MIN(COALESCE(opened_ms, at_ms))';
  return `SELECT table_id, gaming_day, shift, dealer_id, COUNT(*) AS coups,
    MIN(COALESCE(opened_at, at)) AS first_at, MAX(at) AS last_at,
    CAST(${span} AS DOUBLE PRECISION) / 3600000 AS hours,
    CASE WHEN ${span} > 0 THEN CAST(COUNT(*) AS DOUBLE PRECISION) * 3600000 / CAST(${span} AS DOUBLE PRECISION) END AS coups_per_hour
   FROM ${AN_COUPS}${where(w)}
   GROUP BY table_id, gaming_day, shift, dealer_id${orderBy(['table_id', 'gaming_day', 'shift', 'dealer_id'], order)}`;
}

/**
 * Player rating per player, table and gaming day: coups played, stakes, handle, average bet (handle per coup
 * played), actual and theoretical win, and the time played (the first round's opening to the last settling).
 */
export function ratingSql(w: FactWhere, order: Dialect | null): string {
  const span = 'MAX(at_ms) - MIN(COALESCE(opened_ms, at_ms))';
  return `SELECT player_id, table_id, gaming_day, COUNT(DISTINCT round_no) AS coups, COUNT(*) AS bets,
    SUM(stake) AS handle, CAST(SUM(stake) AS DOUBLE PRECISION) / COUNT(DISTINCT round_no) AS average_bet,
    SUM(win) AS win, SUM(theo_win) AS theo_win, MIN(at) AS first_at, MAX(at) AS last_at,
    CAST(${span} AS DOUBLE PRECISION) / 60000 AS minutes_played
   FROM ${AN_BETS} WHERE status <> 'voided'${w.sql.length === 0 ? '' : ` AND ${w.sql.join(' AND ')}`}
   GROUP BY player_id, table_id, gaming_day${orderBy(['player_id', 'table_id', 'gaming_day'], order)}`;
}

/** The z-score columns of sums of win, theoretical win and its variance. */
const zScore = `SUM(handle) AS handle, SUM(win) AS win, SUM(theo_win) AS theo_win, SUM(theo_var) AS theo_var,
    CASE WHEN SUM(theo_var) > 0 THEN sqrt(SUM(theo_var)) END AS sd,
    CASE WHEN SUM(theo_var) > 0 THEN (CAST(SUM(win) AS DOUBLE PRECISION) - SUM(theo_win)) / sqrt(SUM(theo_var)) END AS z`;

/**
 * Hold anomalies: per table and gaming day, and per player and gaming day, the actual win against the
 * theoretical in standard deviations, z = (win - theo_win) / sqrt(theo_var) (bets on one bet type in a coup
 * move together; different bet types are taken as independent). Flagging past a threshold is the caller's.
 */
export function anomalySql(scope: 'table' | 'player', w: FactWhere): string {
  const and = w.sql.length === 0 ? '' : ` AND ${w.sql.join(' AND ')}`;
  if (scope === 'table') {
    return `SELECT 'table' AS scope, table_id, NULL AS player_id, gaming_day, COUNT(*) AS coups, ${zScore}
     FROM ${AN_COUPS} WHERE status <> 'voided'${and}
     GROUP BY table_id, gaming_day`;
  }
  return `SELECT 'player' AS scope, NULL AS table_id, player_id, gaming_day,
    COUNT(DISTINCT table_id || ':' || round_no) AS coups, ${zScore.replace('SUM(handle)', 'SUM(stake)')}
   FROM ${AN_BETS} WHERE status <> 'voided'${and}
   GROUP BY player_id, gaming_day`;
}

/** Both scopes of anomalies (tables first, when ordered); `having`: a condition on the rows (on z). */
export function anomaliesSql(
  w: { table: FactWhere; player: FactWhere },
  order: Dialect | null,
  having = '',
): string {
  const ordered =
    order === null
      ? ''
      : ` ORDER BY scope DESC, ${orderKeys(['table_id', 'player_id', 'gaming_day'], order)}`;
  const rows = `${anomalySql('table', w.table)} UNION ALL ${anomalySql('player', w.player)}`;
  return `SELECT * FROM (${rows}) a${having === '' ? '' : ` WHERE ${having}`}${ordered}`;
}
