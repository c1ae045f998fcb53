/**
 * The statistics' filter checked, and which rows answer it: the per-UTC-day counters (`from`/`to`, the default),
 * or the analysts' facts when a gaming-day filter is given (gaming days, instants, shift, hour, dealer) or
 * `calendar` is 'gaming'. The facts' conditions are the reports' own (`checkReportFilter`, `reportWhere`).
 */
import { dayNumber } from '../analyst/gaming-day';
import { QueryError, checkDay } from '../../read/query-kit';
import { checkReportFilter, reportWhere } from '../../reports/filters';
import type { FactWhere } from '../../reports/sql';
import type { StatsFilter } from './wire';

/** The filters only the facts can answer (the gaming-day filters), in the order a refusal names them. */
export const STATS_FACT_FILTERS = [
  'gamingDay',
  'gamingDayFrom',
  'gamingDayTo',
  'since',
  'until',
  'shift',
  'hour',
  'dealer',
] as const satisfies readonly (keyof StatsFilter)[];

export interface StatsOptions {
  /** The configured shifts' names: a `shift` must be one of them (any name when absent). */
  readonly shifts?: readonly string[];
}

/** Where the statistics are counted: the counters' days, or the facts' rows matching `where`. */
export type StatsSource =
  | {
      readonly kind: 'counters';
      readonly from?: string;
      readonly to?: string;
      readonly tables?: readonly string[];
    }
  | { readonly kind: 'facts'; readonly where: FactWhere };

const INSTANT = /^\d{4}-\d{2}-\d{2}T/;

/** `from`/`to`: a UTC day; an instant is pointed to `since`/`until`. */
function utcDay(field: 'from' | 'to', v: string | undefined): void {
  if (v !== undefined && INSTANT.test(v)) {
    const instead = field === 'from' ? 'since' : 'until';
    throw new QueryError(
      'INVALID_QUERY',
      field,
      `${field} must be a UTC day, YYYY-MM-DD; for an instant give ${instead} (ISO-8601, e.g. 2026-12-01T06:00:00Z)`,
    );
  }
  checkDay(field, v);
}

function gamingDay(field: string, v: string | undefined): void {
  if (v !== undefined && Number.isNaN(dayNumber(v)))
    throw new QueryError('INVALID_QUERY', field, `${field} must be a gaming day, YYYY-MM-DD`);
}

/** The gaming-day filter's own checks (the reports' name these fields from/to). */
function checkGamingDays(f: StatsFilter): void {
  gamingDay('gamingDay', f.gamingDay);
  gamingDay('gamingDayFrom', f.gamingDayFrom);
  gamingDay('gamingDayTo', f.gamingDayTo);
  if (f.gamingDay !== undefined && (f.gamingDayFrom !== undefined || f.gamingDayTo !== undefined))
    throw new QueryError(
      'INVALID_QUERY',
      'gamingDay',
      'give gamingDay, or gamingDayFrom and gamingDayTo, not both',
    );
  if (f.gamingDayFrom !== undefined && f.gamingDayTo !== undefined && f.gamingDayFrom > f.gamingDayTo)
    throw new QueryError('INVALID_QUERY', 'gamingDayFrom', 'gamingDayFrom must not be after gamingDayTo');
}

/** Checks the filter (a QueryError names the first bad field) and says which rows answer it. */
export function statsSource(filter: StatsFilter, options: StatsOptions = {}): StatsSource {
  const f = filter;
  if (f.tableId !== undefined && (f.tableId.length === 0 || f.tableId.length > 64))
    throw new QueryError('INVALID_QUERY', 'tableId', 'tableId must be a table id');
  if (f.calendar !== undefined && f.calendar !== 'utc' && f.calendar !== 'gaming')
    throw new QueryError('INVALID_QUERY', 'calendar', 'calendar must be utc or gaming');
  utcDay('from', f.from);
  utcDay('to', f.to);
  const factFilter = STATS_FACT_FILTERS.find((k) => f[k] !== undefined);
  if (factFilter === undefined && f.calendar !== 'gaming')
    return { kind: 'counters', from: f.from, to: f.to, tables: f.tables };
  if (f.calendar === 'utc')
    throw new QueryError(
      'INVALID_QUERY',
      'calendar',
      `${String(factFilter)} counts gaming days (the analysts' facts): not with calendar=utc`,
    );
  const utc = f.from !== undefined ? 'from' : f.to !== undefined ? 'to' : undefined;
  if (utc !== undefined)
    throw new QueryError(
      'INVALID_QUERY',
      utc,
      `${utc} is a UTC day of the per-day counters: with gaming days give gamingDayFrom and gamingDayTo, or since and until for instants`,
    );
  checkGamingDays(f);
  const report = {
    gamingDay: f.gamingDay,
    from: f.gamingDayFrom,
    to: f.gamingDayTo,
    since: f.since,
    until: f.until,
    shift: f.shift,
    hour: f.hour,
    tableId: f.tableId,
    tables: f.tables,
    dealer: f.dealer,
  };
  checkReportFilter(report, options.shifts);
  return { kind: 'facts', where: reportWhere(report, { player: false }) };
}
