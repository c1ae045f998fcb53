import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { type AnalystApi, analystApi } from './api';
import { FilterForm } from './FilterForm';
import { ReportPanels, StatsPanels } from './panels';
import { type DashboardFilter, analystHash } from './route';

/** The roles the dashboard is for. */
export const ANALYST_ROLES: readonly string[] = ['analyst', 'admin'];

/** What `load` answers for the selection (null while loading), read again when the selection changes. */
function useLoaded<T>(load: () => Promise<T>): T | ApiError | null {
  const [value, setValue] = useState<T | ApiError | null>(null);
  useEffect(() => {
    let stop = false;
    setValue(null);
    load().then(
      (v) => !stop && setValue(v),
      (e: unknown) => !stop && setValue(e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e))),
    );
    return () => {
      stop = true;
    };
  }, [load]);
  return value;
}

function useDashboardData(api: AnalystApi, filter: DashboardFilter) {
  const tables = useLoaded(useCallback(() => api.tables(), [api]));
  const stats = useLoaded(
    useCallback(
      () => Promise.all([api.stats(filter), api.betStats(filter)]).then(([s, bets]) => ({ stats: s, bets })),
      [api, filter],
    ),
  );
  const reports = useLoaded(
    useCallback(async () => {
      const [hold, betTypes, pace, anomalies] = await Promise.all([
        api.hold(filter),
        api.betTypes(filter),
        api.pace(filter),
        api.anomalies(filter),
      ]);
      return { hold, betTypes, pace, anomalies };
    }, [api, filter]),
  );
  return { tables: Array.isArray(tables) ? tables : [], stats, reports };
}

/** A part of the dashboard: loading, refused (said), or drawn. */
function Part<T>(props: { readonly value: T | ApiError | null; readonly children: (v: T) => ReactNode }) {
  const { t } = useTranslation('analyst');
  const { value } = props;
  if (value === null) return <p className="muted">{t('loading')}</p>;
  if (value instanceof ApiError)
    return (
      <p className="refusal" role="alert">
        {t('errors.refused', { code: value.code, message: value.message })}
      </p>
    );
  return <>{props.children(value)}</>;
}

/**
 * The analyst dashboard (analyst and admin), by table, gaming days, shift and local hour
 * (`#/analyst?table=&from=&to=&shift=&hour=`): outcome frequencies and each bet's results beside the exact odds
 * with 95% intervals, hold beside the theoretical edge per bet type, drop and win per gaming day, dealer pace,
 * anomalies, results outside their interval; each chart's data as a table and CSV.
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
  const { tables, stats, reports } = useDashboardData(props.api, props.filter);
  const { filter } = props;
  const hour = filter.hour === '' ? '' : `h${filter.hour}`;
  const suffix = [filter.table || 'all', filter.from, filter.to, filter.shift, hour]
    .filter(Boolean)
    .join('_');
  // the shifts the selection's facts name (the service knows the configured ones and refuses others)
  const shifts = reports === null || reports instanceof ApiError ? [] : reports.pace.rows.map((r) => r.shift);
  return (
    <>
      <FilterForm key={`${props.address}|${tables.length}`} filter={filter} tables={tables} shifts={shifts} />
      <div className="chart-grid">
        <Part value={stats}>{(d) => <StatsPanels data={d} suffix={suffix} />}</Part>
        <Part value={reports}>{(d) => <ReportPanels data={d} suffix={suffix} />}</Part>
      </div>
    </>
  );
}
