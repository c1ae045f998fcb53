/**
 * The statistics' query parameters (`GET /api/stats`, `/api/stats/bets`): `from`/`to` are UTC days (the per-day
 * counters); the gaming-day filters are the reports' (`gamingDay`, `since`, `until`, `shift`, `hour`, `dealer`,
 * parsed by `reportQuery`), with the range of gaming days named `gamingDayFrom`/`gamingDayTo`, and
 * `calendar=gaming` for every gaming day. The read models check the values (400 naming the field).
 */
import { ApiQuery } from '@nestjs/swagger';
import { STATS_FACT_FILTERS, type StatsFilter } from '@coup/projections';
import { type AnalyticsOptions, reportQuery } from './analytics.params';
import { queryOf } from './params';

export const STATS_PARAMS = ['tableId', 'from', 'to', ...STATS_FACT_FILTERS, 'calendar', 'format'] as const;

/** The filter of a statistics query, and its raw parameters (for `format`). */
export function statsQuery(query: unknown): {
  readonly filter: StatsFilter;
  readonly q: Record<string, string | undefined>;
} {
  const q = queryOf(query, STATS_PARAMS);
  const { gamingDayFrom, gamingDayTo, calendar, ...reportParams } = q;
  // the reports' parsing of what they share: tableId, hour, format (from/to pass through: UTC days here)
  const { filter } = reportQuery(reportParams);
  const own = { gamingDayFrom, gamingDayTo, calendar: calendar as StatsFilter['calendar'] };
  const given = Object.fromEntries(Object.entries(own).filter(([, v]) => v !== undefined));
  return { filter: { ...filter, ...given }, q };
}

/** What the statistics need of the analysts' settings: the configured shifts' names. */
export const statsOptions = (analytics: AnalyticsOptions) => ({
  shifts: analytics.gamingDay.shifts.map((s) => s.name),
});

/** Where the description of both statistics endpoints says which days they count. */
export const STATS_DAYS =
  "By UTC day from the per-day counters (`from`..`to`, the default), or by gaming day (COUP_GAMING_DAY) from the analysts' facts when any of `gamingDay`, `gamingDayFrom`..`gamingDayTo`, `since`..`until`, `shift`, `hour`, `dealer` is given or `calendar=gaming`: then `days` are gaming days and the answer's `filter.calendar` is `gaming`. The two kinds do not mix (400 INVALID_QUERY naming the field).";

/** The filter parameters, for the OpenAPI document. */
export function ApiStatsFilters(): MethodDecorator {
  const params: [string, string][] = [
    ['tableId', 'One table'],
    ['from', 'First UTC day, YYYY-MM-DD (the per-day counters; for an instant use since)'],
    ['to', 'Last UTC day, YYYY-MM-DD, inclusive (for an instant use until)'],
    ['gamingDay', 'One gaming day, YYYY-MM-DD (COUP_GAMING_DAY: cut-over time and time zone)'],
    ['gamingDayFrom', 'First gaming day, YYYY-MM-DD'],
    ['gamingDayTo', 'Last gaming day, YYYY-MM-DD (inclusive)'],
    ['since', 'UTC instant (ISO-8601): coups at or after it'],
    ['until', 'UTC instant (ISO-8601): coups before it'],
    ['shift', 'A shift of COUP_SHIFTS'],
    ['hour', 'Local hour in the gaming day’s time zone, 0 to 23'],
    ['dealer', "A dealer's actor id: the rounds they dealt"],
    ['calendar', 'utc (default) or gaming: by gaming day with no other gaming-day filter (every gaming day)'],
    ['format', 'csv or json (default: json, or CSV with Accept: text/csv)'],
  ];
  return (target, key, descriptor) => {
    for (const [name, description] of params)
      ApiQuery({ name, required: false, description })(target, key, descriptor);
  };
}
