/** The analysts' reports' query parameters, checked by hand (400 INVALID_QUERY / INVALID_PARAMETER naming the field). */
import type { GamingDayConfig, ReportFilter } from '@coup/projections';
import { ApiError } from '../common/api-error';
import { playerIdParam, positiveInt, queryOf, tableIdParam } from './params';

/** The analysts' settings the reports use: the gaming day's shifts, the anomaly threshold. */
export interface AnalyticsOptions {
  readonly gamingDay: GamingDayConfig;
  readonly anomalyZ: number;
}

/** Injection token of the AnalyticsOptions. */
export const ANALYTICS = Symbol('ANALYTICS');

/** The filter parameters every report takes, and how the answer is asked for. */
export const FILTER_PARAMS = [
  'gamingDay',
  'from',
  'to',
  'since',
  'until',
  'shift',
  'hour',
  'tableId',
  'dealer',
  'limit',
  'format',
] as const;

export interface ReportQuery {
  readonly filter: ReportFilter;
  readonly limit: number | undefined;
  /** The raw parameters, for the report's own ones. */
  readonly q: Record<string, string | undefined>;
}

function hourOf(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d{1,2}$/.test(v) || Number(v) > 23)
    throw new ApiError(400, 'INVALID_QUERY', 'hour must be a whole number from 0 to 23', { field: 'hour' });
  return Number(v);
}

/** The query string of a report taking the filter parameters and `extra` ones. */
export function reportQuery(query: unknown, extra: readonly string[] = []): ReportQuery {
  const q = queryOf(query, [...FILTER_PARAMS, ...extra]);
  if (q['tableId'] !== undefined) tableIdParam(q['tableId']);
  if (q['playerId'] !== undefined) playerIdParam(q['playerId']);
  if (q['format'] !== undefined && q['format'] !== 'csv' && q['format'] !== 'json')
    throw new ApiError(400, 'INVALID_QUERY', 'format must be csv or json', { field: 'format' });
  const filter: ReportFilter = {
    gamingDay: q['gamingDay'],
    from: q['from'],
    to: q['to'],
    since: q['since'],
    until: q['until'],
    shift: q['shift'],
    hour: hourOf(q['hour']),
    tableId: q['tableId'],
    dealer: q['dealer'],
    playerId: q['playerId'],
  };
  const given = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as ReportFilter;
  return { filter: given, limit: q['limit'] === undefined ? undefined : positiveInt(q['limit'], 'limit'), q };
}

/** `groupBy`: dimensions separated by commas (empty: one row over everything); absent: the report's default. */
export function groupByOf(q: Record<string, string | undefined>): string[] | undefined {
  const v = q['groupBy'];
  if (v === undefined) return undefined;
  return v === '' ? [] : v.split(',').map((d) => d.trim());
}

/** Whether the answer is CSV: `?format=csv`, or `Accept: text/csv` without `?format=json`. */
export function csvAsked(q: Record<string, string | undefined>, acceptsCsv: boolean): boolean {
  return q['format'] === 'csv' || (q['format'] === undefined && acceptsCsv);
}

/** `?flagged=true|false`. */
export function flagOf(q: Record<string, string | undefined>, name: string): boolean {
  const v = q[name];
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  throw new ApiError(400, 'INVALID_QUERY', `${name} must be true or false`, { field: name });
}

/** `?scope=table|player`. */
export function scopeOf(q: Record<string, string | undefined>): 'table' | 'player' | undefined {
  const v = q['scope'];
  if (v === undefined || v === 'table' || v === 'player') return v;
  throw new ApiError(400, 'INVALID_QUERY', 'scope must be table or player', { field: 'scope' });
}
