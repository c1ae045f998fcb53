import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BetStatsView, StatsView } from '@coup/projections/wire';
import { ApiError, type TableEntry } from '../api';
import { money } from '../format';
import { type AnalystApi, analystApi } from './api';
import { BetResultsPanel } from './BetResultsPanel';
import { percent } from './cells';
import { ChartPanel } from './ChartPanel';
import { dayChart, frequencyChart, holdChart } from './charts';
import { handleAndWinByDay, holdByBet, outcomeFrequencies, outsideInterval } from './data';
import { type DashboardFilter, analystHash } from './route';

/** The roles the dashboard is for. */
export const ANALYST_ROLES: readonly string[] = ['analyst', 'admin'];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function FilterForm(props: { readonly filter: DashboardFilter; readonly tables: readonly TableEntry[] }) {
  const { t } = useTranslation('analyst');
  const [f, setF] = useState<DashboardFilter>(props.filter);
  const [problem, setProblem] = useState<string | null>(null);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const bad = (['from', 'to'] as const).find((k) => f[k] !== '' && !DAY.test(f[k]));
    if (bad) return setProblem(t('errors.day'));
    if (f.from !== '' && f.to !== '' && f.from > f.to) return setProblem(t('errors.range'));
    setProblem(null);
    window.location.hash = analystHash(f);
  };
  return (
    <form className="search-form panel" onSubmit={apply} aria-label={t('filter.label')} noValidate>
      <div className="field">
        <label htmlFor="an-table">{t('filter.table')}</label>
        <select id="an-table" value={f.table} onChange={(e) => setF({ ...f, table: e.target.value })}>
          <option value="">{t('filter.allTables')}</option>
          {props.tables.map((x) => (
            <option key={x.tableId} value={x.tableId}>
              {x.tableId}
            </option>
          ))}
        </select>
      </div>
      {(['from', 'to'] as const).map((k) => (
        <div className="field" key={k}>
          <label htmlFor={`an-${k}`}>{t(`filter.${k}`)}</label>
          <input
            id={`an-${k}`}
            type="date"
            value={f[k]}
            onChange={(e) => setF({ ...f, [k]: e.target.value })}
          />
        </div>
      ))}
      <div className="field-actions">
        <button type="submit">{t('filter.apply')}</button>
      </div>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

interface Loaded {
  readonly stats: StatsView;
  readonly bets: BetStatsView;
}

function useDashboardData(api: AnalystApi, filter: DashboardFilter) {
  const [data, setData] = useState<Loaded | ApiError | null>(null);
  const [tables, setTables] = useState<TableEntry[]>([]);
  useEffect(() => {
    let stop = false;
    api.tables().then(
      (l) => !stop && setTables(l),
      () => undefined,
    );
    return () => {
      stop = true;
    };
  }, [api]);
  useEffect(() => {
    let stop = false;
    setData(null);
    Promise.all([api.stats(filter), api.betStats(filter)]).then(
      ([stats, bets]) => !stop && setData({ stats, bets }),
      (e: unknown) => !stop && setData(e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e))),
    );
    return () => {
      stop = true;
    };
  }, [api, filter]);
  return { data, tables };
}

/** The selection's totals in one line: coups, voids, handle, the house's win, hold beside the edge. */
function Totals({ stats }: { readonly stats: StatsView }) {
  const { t } = useTranslation('analyst');
  const o = stats.overall;
  const hold = o.holdPercent === null ? '–' : percent(o.holdPercent);
  const edge = o.theoreticalEdgePercent === null ? '–' : percent(o.theoreticalEdgePercent);
  return (
    <p className="panel totals-line" data-testid="totals">
      {t('totals', {
        coups: o.coups,
        voids: o.voids,
        handle: money(o.handle.total),
        win: money(o.houseResult),
        hold,
        edge,
      })}
    </p>
  );
}

function Panels({ data, filter }: { readonly data: Loaded; readonly filter: DashboardFilter }) {
  const { t } = useTranslation('analyst');
  const scope = data.bets.overall;
  const suffix = [filter.table || 'all', filter.from, filter.to].filter(Boolean).join('_');
  const outcomes = outcomeFrequencies(scope);
  const hold = holdByBet(scope);
  const days = handleAndWinByDay(data.stats);
  const flags = outsideInterval(scope);
  return (
    <>
      <Totals stats={data.stats} />
      <div className="chart-grid">
        <ChartPanel
          id="outcomes"
          title={t('panels.outcomes.title')}
          description={t('panels.outcomes.description')}
          table={outcomes}
          chart={frequencyChart(outcomes, t)}
          file={`outcomes-${suffix}.csv`}
        />
        <BetResultsPanel scope={scope} file={`bet-results-${suffix}.csv`} />
        <ChartPanel
          id="hold"
          title={t('panels.hold.title')}
          description={t('panels.hold.description')}
          table={hold}
          chart={holdChart(hold, t)}
          file={`hold-${suffix}.csv`}
        />
        <ChartPanel
          id="days"
          title={t('panels.days.title')}
          description={t('panels.days.description')}
          table={days}
          chart={dayChart(days, t)}
          file={`days-${suffix}.csv`}
        />
        <ChartPanel
          id="flags"
          title={t('panels.flags.title')}
          description={t('panels.flags.description')}
          table={flags}
          chart={null}
          file={`flags-${suffix}.csv`}
        />
      </div>
    </>
  );
}

/**
 * The analyst dashboard (analyst and admin), by table and days (`#/analyst?table=&from=&to=`): outcome
 * frequencies and each bet's results beside the exact odds with 95% intervals, hold beside the theoretical edge
 * per bet type, handle and win per day, results outside their interval; each chart's data as a table and CSV.
 */
export function AnalystDashboard(props: {
  readonly token: string;
  readonly role: string;
  readonly filter: DashboardFilter;
  readonly api?: AnalystApi;
}) {
  const { t } = useTranslation('analyst');
  const api = useMemo(() => props.api ?? analystApi(props.token), [props.api, props.token]);
  const address = analystHash(props.filter);
  // One filter object per address: the data is read again only when the selection changes.
  const filter = useMemo(() => props.filter, [address]);
  const allowed = ANALYST_ROLES.includes(props.role);
  return (
    <div className="analyst">
      <header className="screen-header">
        <h2>{t('title')}</h2>
      </header>
      {allowed ? (
        <Dashboard api={api} filter={filter} address={address} />
      ) : (
        <p className="refusal" role="alert">
          {t('forbidden')}
        </p>
      )}
    </div>
  );
}

function Dashboard(props: {
  readonly api: AnalystApi;
  readonly filter: DashboardFilter;
  readonly address: string;
}) {
  const { t } = useTranslation('analyst');
  const { data, tables } = useDashboardData(props.api, props.filter);
  return (
    <>
      <FilterForm key={`${props.address}|${tables.length}`} filter={props.filter} tables={tables} />
      {data === null && <p className="muted">{t('loading')}</p>}
      {data instanceof ApiError && (
        <p className="refusal" role="alert">
          {t('errors.refused', { code: data.code, message: data.message })}
        </p>
      )}
      {data && !(data instanceof ApiError) && <Panels data={data} filter={props.filter} />}
    </>
  );
}
