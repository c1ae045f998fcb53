/** The analyst dashboard's hash route: `#/analyst?table=T1&from=2026-12-01&to=2026-12-07` (its filters in the address). */

export interface DashboardFilter {
  /** One table, or '' for every table. */
  readonly table: string;
  /** First and last day (YYYY-MM-DD, inclusive), or ''. */
  readonly from: string;
  readonly to: string;
}

export const DASHBOARD_FIELDS = ['table', 'from', 'to'] as const;

const ROUTE = /^#\/analyst(?:\?(.*))?$/;

/** The dashboard's filter an address shows, or null when it is another screen's. */
export function parseAnalystRoute(hash: string): DashboardFilter | null {
  const m = ROUTE.exec(hash);
  if (!m) return null;
  const q = new URLSearchParams(m[1] ?? '');
  return { table: q.get('table') ?? '', from: q.get('from') ?? '', to: q.get('to') ?? '' };
}

export function analystHash(filter: DashboardFilter): string {
  const q = new URLSearchParams();
  for (const k of DASHBOARD_FIELDS) if (filter[k] !== '') q.set(k, filter[k]);
  const s = q.toString();
  return s === '' ? '#/analyst' : `#/analyst?${s}`;
}
