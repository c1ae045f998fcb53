/**
 * The requests of the reports benchmark, as the REST endpoints run them (`holdReport` / `betTypeReport` over the
 * read models' SqlReader, the default row limit, the configured shifts), each run N times on both backends with
 * another day, table, month or dealer each time; the timings' percentiles; the answers of the two compared.
 */
import { type ReadModels, type ReportFilter, betTypeReport, dayText, holdReport } from '@coup/projections';
import { type HistoryShape, dealerId, staffOf, tableSetup } from './reports-history';

const SHIFTS = ['day', 'swing', 'grave'];

export interface BenchRequest {
  readonly name: string;
  readonly report: 'hold' | 'betTypes';
  /** The request of run i. */
  readonly options: (i: number) => { filter: ReportFilter; groupBy?: string[] };
}

/** Runs a request once: the report's rows. */
export async function runRequest(read: ReadModels, r: BenchRequest, i: number): Promise<readonly unknown[]> {
  const options = { ...r.options(i), shifts: SHIFTS };
  const report =
    r.report === 'hold' ? await holdReport(read.sql, options) : await betTypeReport(read.sql, options);
  return report.rows;
}

const DAY_MS = 86_400_000;

/** The requests over a history of this shape. */
export function benchRequests(shape: HistoryShape): BenchRequest[] {
  const first = Date.parse(`${shape.firstDay}T00:00:00.000Z`);
  const day = (i: number): string => dayText(first / DAY_MS + ((37 + i * 53) % shape.days));
  const last = dayText(first / DAY_MS + shape.days - 1);
  const month = (i: number): { from: string; to: string } => {
    const start = new Date(first);
    start.setUTCMonth(start.getUTCMonth() + (i % Math.max(1, Math.floor(shape.days / 31))) + 1, 1);
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1, 0);
    return { from: start.toISOString().slice(0, 10), to: end.toISOString().slice(0, 10) };
  };
  const table = (i: number): string => tableSetup((i * 7) % shape.tables).id;
  const dealer = (i: number): string => dealerId((i * 37) % staffOf(shape).dealers);
  const year = { from: shape.firstDay, to: last };
  return [
    {
      name: 'hold: a gaming day, every table',
      report: 'hold',
      options: (i) => ({ filter: { gamingDay: day(i) } }),
    },
    {
      name: "hold: a gaming day's shift",
      report: 'hold',
      options: (i) => ({ filter: { gamingDay: day(i), shift: SHIFTS[i % 3] as string } }),
    },
    {
      name: 'hold: a table, a month',
      report: 'hold',
      options: (i) => ({ filter: { tableId: table(i), ...month(i) } }),
    },
    {
      name: 'hold: a dealer, a month',
      report: 'hold',
      options: (i) => ({ filter: { dealer: dealer(i), ...month(i) } }),
    },
    {
      name: 'hold: a dealer, the year by day',
      report: 'hold',
      options: (i) => ({ filter: { dealer: dealer(i), ...year }, groupBy: ['gamingDay'] }),
    },
    {
      name: 'hold: the year by table',
      report: 'hold',
      options: () => ({ filter: year, groupBy: ['table'] }),
    },
    {
      name: 'hold: everything by day (dashboard)',
      report: 'hold',
      options: () => ({ filter: {}, groupBy: ['gamingDay'] }),
    },
    {
      name: 'hold: a gaming day by hour (facts)',
      report: 'hold',
      options: (i) => ({ filter: { gamingDay: day(i) }, groupBy: ['hour'] }),
    },
    {
      name: 'hold: eight hours by table (facts)',
      report: 'hold',
      options: (i) => ({
        filter: { since: `${day(i)}T14:00:00Z`, until: `${day(i)}T22:00:00Z` },
        groupBy: ['table'],
      }),
    },
    {
      name: 'bet types: a gaming day',
      report: 'betTypes',
      options: (i) => ({ filter: { gamingDay: day(i) }, groupBy: ['betType'] }),
    },
    {
      name: 'bet types: a month',
      report: 'betTypes',
      options: (i) => ({ filter: month(i), groupBy: ['betType'] }),
    },
    {
      name: 'bet types: everything (dashboard)',
      report: 'betTypes',
      options: () => ({ filter: {}, groupBy: ['betType'] }),
    },
  ];
}

/** The nearest-rank percentile of some timings. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}
