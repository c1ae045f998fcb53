/**
 * The analyst dashboard's calls: the statistics of the main bets and per bet type (UTC days), and the analysts'
 * reports (gaming days): hold, bet types, dealer pace, anomalies.
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

const scope = (f: DashboardFilter) =>
  queryString({ tableId: f.table || undefined, from: f.from || undefined, to: f.to || undefined });

/** The same selection for a report (from/to are gaming days there), with the report's own parameters. */
const reportScope = (f: DashboardFilter, extra: Record<string, string>) =>
  queryString({ tableId: f.table || undefined, from: f.from || undefined, to: f.to || undefined, ...extra });

export function analystApi(token: string, fetchFn?: Fetch) {
  const get = <T>(path: string) => getJson<T>(token, path, fetchFn);
  return {
    tables: () => get<TableEntry[]>('/tables'),
    stats: (f: DashboardFilter) => get<StatsView>(`/stats${scope(f)}`),
    betStats: (f: DashboardFilter) => get<BetStatsView>(`/stats/bets${scope(f)}`),
    hold: (f: DashboardFilter) =>
      get<Report<HoldRow>>(`/reports/hold${reportScope(f, { groupBy: 'gamingDay' })}`),
    betTypes: (f: DashboardFilter) =>
      get<Report<BetTypeRow>>(`/reports/bet-types${reportScope(f, { groupBy: 'betType' })}`),
    pace: (f: DashboardFilter) => get<Report<PaceRow>>(`/reports/dealer-pace${reportScope(f, {})}`),
    anomalies: (f: DashboardFilter) => get<AnomalyReport>(`/reports/anomalies${reportScope(f, {})}`),
  };
}

export type AnalystApi = ReturnType<typeof analystApi>;
