/**
 * The analyst dashboard's hash route: `#/analyst?table=T1&from=2026-12-01&to=2026-12-07&shift=day&hour=14` (its
 * filters in the address). Every chart counts gaming days (the service's COUP_GAMING_DAY), shifts and local hours.
 */

export interface DashboardFilter {
  /** One table, or '' for every table. */
  readonly table: string;
  /** First and last gaming day (YYYY-MM-DD, inclusive), or ''. */
  readonly from: string;
  readonly to: string;
  /** One shift of the service's COUP_SHIFTS, or '' for every shift. */
  readonly shift: string;
  /** One local hour of the casino's clock, '0' to '23', or '' for every hour. */
  readonly hour: string;
}

export const DASHBOARD_FIELDS = ['table', 'from', 'to', 'shift', 'hour'] as const;

const ROUTE = /^#\/analyst(?:\?(.*))?$/;

/** The dashboard's filter an address shows, or null when it is another screen's. */
export function parseAnalystRoute(hash: string): DashboardFilter | null {
  const m = ROUTE.exec(hash);
  if (!m) return null;
  const q = new URLSearchParams(m[1] ?? '');
  const field = (k: (typeof DASHBOARD_FIELDS)[number]) => q.get(k) ?? '';
  return {
    table: field('table'),
    from: field('from'),
    to: field('to'),
    shift: field('shift'),
    hour: field('hour'),
  };
}

export function analystHash(filter: DashboardFilter): string {
  const q = new URLSearchParams();
  for (const k of DASHBOARD_FIELDS) if (filter[k] !== '') q.set(k, filter[k]);
  const s = q.toString();
  return s === '' ? '#/analyst' : `#/analyst?${s}`;
}
