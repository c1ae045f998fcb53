/** The analyst dashboard's calls: the statistics of the main bets and per bet type, over a table and days. */
import type { Fetch, TableEntry } from '../api';
import { getJson, queryString } from '../replay/http';
import type { BetStatsView, StatsView } from '@coup/projections/wire';
import type { DashboardFilter } from './route';

const scope = (f: DashboardFilter) =>
  queryString({ tableId: f.table || undefined, from: f.from || undefined, to: f.to || undefined });

export function analystApi(token: string, fetchFn?: Fetch) {
  return {
    tables: () => getJson<TableEntry[]>(token, '/tables', fetchFn),
    stats: (f: DashboardFilter) => getJson<StatsView>(token, `/stats${scope(f)}`, fetchFn),
    betStats: (f: DashboardFilter) => getJson<BetStatsView>(token, `/stats/bets${scope(f)}`, fetchFn),
  };
}

export type AnalystApi = ReturnType<typeof analystApi>;
