/**
 * The filters every report takes, checked (a QueryError names the bad one), and turned into conditions on the fact
 * rows: gaming days (one, or a range), UTC instants (since inclusive, until exclusive), shift, local hour, table
 * (and the tables a token is limited to), dealer and (player reports) player.
 */
import { dayNumber, dayText } from '../read-models/analyst/gaming-day';
import { QueryError, oneOf } from '../read/query-kit';
import type { FactWhere } from './sql';
import type { ReportFilter } from './wire';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const NAME = /^[A-Za-z0-9_.:@+-]{1,64}$/;

function day(field: string, v: string | undefined): void {
  if (v !== undefined && Number.isNaN(dayNumber(v)))
    throw new QueryError('INVALID_QUERY', field, `${field} must be a gaming day, YYYY-MM-DD`);
}

function instant(field: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const ms = ISO_INSTANT.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms))
    throw new QueryError(
      'INVALID_QUERY',
      field,
      `${field} must be an ISO-8601 instant, e.g. 2026-03-29T06:00:00Z`,
    );
  return ms;
}

function name(field: string, v: string | undefined): void {
  if (v !== undefined && !NAME.test(v))
    throw new QueryError('INVALID_QUERY', field, `${field} must be 1 to 64 letters, digits or _ . : @ + -`);
}

/** Checks a filter: throws QueryError naming the first bad field. */
export function checkReportFilter(f: ReportFilter, shifts?: readonly string[]): void {
  day('gamingDay', f.gamingDay);
  day('from', f.from);
  day('to', f.to);
  if (f.gamingDay !== undefined && (f.from !== undefined || f.to !== undefined))
    throw new QueryError('INVALID_QUERY', 'gamingDay', 'give gamingDay, or from and to, not both');
  if (f.from !== undefined && f.to !== undefined && f.from > f.to)
    throw new QueryError('INVALID_QUERY', 'from', 'from must not be after to');
  const since = instant('since', f.since);
  const until = instant('until', f.until);
  if (since !== undefined && until !== undefined && since >= until)
    throw new QueryError('INVALID_QUERY', 'since', 'since must be before until');
  if (f.hour !== undefined && (!Number.isInteger(f.hour) || f.hour < 0 || f.hour > 23))
    throw new QueryError('INVALID_QUERY', 'hour', 'hour must be a whole number from 0 to 23');
  name('shift', f.shift);
  if (f.shift !== undefined && shifts !== undefined && !shifts.includes(f.shift))
    throw new QueryError('INVALID_QUERY', 'shift', `shift must be one of ${shifts.join(', ')}`);
  name('tableId', f.tableId);
  name('dealer', f.dealer);
  name('playerId', f.playerId);
}

/**
 * How far a fact's gaming day can be from the UTC date of its instant: the local date is within a day of it (zones
 * are UTC-12 to UTC+14), and the gaming day is the local date or, before the cut-over, the day before.
 */
export const INSTANT_DAYS = 2;

/** The UTC date (YYYY-MM-DD) `days` days from the instant `ms`. */
const utcDayAround = (ms: number, days: number): string => dayText(Math.floor(ms / 86_400_000) + days);

/** The conditions of a checked filter on fact rows (`player`: the rows have player_id). */
export function reportWhere(f: ReportFilter, options: { readonly player: boolean }): FactWhere {
  const sql: string[] = [];
  const params: (string | number)[] = [];
  const add = (cond: string, value: string | number | undefined) => {
    if (value === undefined) return;
    sql.push(cond);
    params.push(value);
  };
  add('gaming_day = ?', f.gamingDay);
  add('gaming_day >= ?', f.from);
  add('gaming_day <= ?', f.to);
  const since = f.since === undefined ? undefined : Date.parse(f.since);
  const until = f.until === undefined ? undefined : Date.parse(f.until);
  add('at_ms >= ?', since);
  add('at_ms < ?', until);
  // the same facts, found by the gaming days' indexes: a fact's gaming day is at most INSTANT_DAYS from its UTC date
  add('gaming_day >= ?', since === undefined ? undefined : utcDayAround(since, -INSTANT_DAYS));
  add('gaming_day <= ?', until === undefined ? undefined : utcDayAround(until, INSTANT_DAYS));
  add('shift = ?', f.shift);
  add('hour = ?', f.hour);
  add('table_id = ?', f.tableId);
  if (f.tables !== undefined) {
    const c = oneOf('table_id', f.tables);
    sql.push(c.clause);
    params.push(...c.params);
  }
  add('dealer_id = ?', f.dealer);
  if (options.player) add('player_id = ?', f.playerId);
  return { sql, params };
}
