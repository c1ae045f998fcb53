import { type FormEvent, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type TableEntry } from '../api';
import { type AnalystApi, analystApi } from './api';
import { ReportPanels, StatsPanels } from './panels';
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
      <p className="muted filter-note">{t('filter.note')}</p>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

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
  const { tables, stats, reports } = useDashboardData(props.api, props.filter);
  const { filter } = props;
  const suffix = [filter.table || 'all', filter.from, filter.to].filter(Boolean).join('_');
  return (
    <>
      <FilterForm key={`${props.address}|${tables.length}`} filter={filter} tables={tables} />
      <div className="chart-grid">
        <Part value={stats}>{(d) => <StatsPanels data={d} suffix={suffix} />}</Part>
        <Part value={reports}>{(d) => <ReportPanels data={d} suffix={suffix} />}</Part>
      </div>
    </>
  );
}
