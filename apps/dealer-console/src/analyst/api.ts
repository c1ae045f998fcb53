/**
 * The analyst dashboard's calls, every one by gaming day: the statistics of the main bets and per bet type
 * (`/stats?calendar=gaming`, the gaming days as gamingDayFrom..gamingDayTo) and the analysts' reports (gaming days
 * as from..to): hold, bet types, dealer pace, anomalies; each with the shift and the local hour chosen.
 */
import type { Fetch, TableEntry } from '../api';
import { getJson, queryString } from '../replay/http';
import type {
  AnomalyReport,
  BetStatsView,
  BetTypeRow,
  HoldRow,
  PaceRow,
  Report,
  StatsView,
} from '@coup/projections/wire';
import type { DashboardFilter } from './route';

/** The selection for the statistics: by gaming day whatever else is chosen. */
export const statsScope = (f: DashboardFilter) =>
  queryString({
    tableId: f.table,
    calendar: 'gaming',
    gamingDayFrom: f.from,
    gamingDayTo: f.to,
    shift: f.shift,
    hour: f.hour,
  });

/** The same selection for a report (from/to are gaming days there), with the report's own parameters. */
export const reportScope = (f: DashboardFilter, extra: Record<string, string>) =>
  queryString({ tableId: f.table, from: f.from, to: f.to, shift: f.shift, hour: f.hour, ...extra });

export function analystApi(token: string, fetchFn?: Fetch) {
  const get = <T>(path: string) => getJson<T>(token, path, fetchFn);
  return {
    tables: () => get<TableEntry[]>('/tables'),
    stats: (f: DashboardFilter) => get<StatsView>(`/stats${statsScope(f)}`),
    betStats: (f: DashboardFilter) => get<BetStatsView>(`/stats/bets${statsScope(f)}`),
    hold: (f: DashboardFilter) =>
      get<Report<HoldRow>>(`/reports/hold${reportScope(f, { groupBy: 'gamingDay' })}`),
    betTypes: (f: DashboardFilter) =>
      get<Report<BetTypeRow>>(`/reports/bet-types${reportScope(f, { groupBy: 'betType' })}`),
    pace: (f: DashboardFilter) => get<Report<PaceRow>>(`/reports/dealer-pace${reportScope(f, {})}`),
    anomalies: (f: DashboardFilter) => get<AnomalyReport>(`/reports/anomalies${reportScope(f, {})}`),
  };
}

export type AnalystApi = ReturnType<typeof analystApi>;
