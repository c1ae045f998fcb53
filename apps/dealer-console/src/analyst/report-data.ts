/**
 * The dashboard's charts from the analysts' reports (`/api/reports/...`, by gaming day): drop and win, hold beside
 * the theoretical by bet type, dealer pace, hold anomalies. Rows first (the data table and the CSV), then the
 * Chart.js data drawn from exactly those rows.
 */
import type { TFunction } from 'i18next';
import type { AnomalyReport, BetTypeRow, HoldRow, PaceRow, Report } from '@coup/projections/wire';
import type { CsvCell } from '../export';
import { betTypeName } from './cells';
import { type BarLineData, type ChartSpec, barOptions, num, tick } from './charts';
import type { DataTable } from './data';

export const DROP_COLUMNS = [
  'gamingDay',
  'coups',
  'dropAmount',
  'handle',
  'win',
  'holdPct',
  'theoWin',
] as const;

/** Drop (cash bought in), handle, the house's win and its hold % of the drop, per gaming day. */
export function dropAndWin(report: Report<HoldRow> | null): DataTable<(typeof DROP_COLUMNS)[number]> {
  const rows = (report?.rows ?? []).map((r) => ({
    gamingDay: r.gamingDay ?? '',
    coups: r.coups,
    dropAmount: r.dropAmount,
    handle: r.handle,
    win: r.win,
    holdPct: r.holdPct,
    theoWin: r.theoWin,
  }));
  return { columns: DROP_COLUMNS, rows };
}

export const BET_TYPE_COLUMNS = [
  'betType',
  'bets',
  'handle',
  'win',
  'holdPct',
  'theoWin',
  'theoPct',
] as const;

/** Per bet type with stakes: the actual hold beside the theoretical (the exact edge), both % of handle. */
export function betTypeHold(report: Report<BetTypeRow> | null): DataTable<(typeof BET_TYPE_COLUMNS)[number]> {
  const rows = (report?.rows ?? [])
    .filter((r) => r.handle > 0)
    .map((r) => ({
      betType: r.betType ?? '',
      bets: r.bets,
      handle: r.handle,
      win: r.win,
      holdPct: r.holdPct,
      theoWin: r.theoWin,
      theoPct: r.theoPct,
    }));
  return { columns: BET_TYPE_COLUMNS, rows };
}

export const PACE_COLUMNS = [
  'dealerId',
  'tableId',
  'gamingDay',
  'shift',
  'coups',
  'hours',
  'coupsPerHour',
] as const;

/** Each dealer's pace per table, gaming day and shift. */
export function dealerPace(report: Report<PaceRow> | null): DataTable<(typeof PACE_COLUMNS)[number]> {
  const rows = (report?.rows ?? []).map((r) => ({
    dealerId: r.dealerId,
    tableId: r.tableId,
    gamingDay: r.gamingDay,
    shift: r.shift,
    coups: r.coups,
    hours: r.hours,
    coupsPerHour: r.coupsPerHour,
  }));
  return { columns: PACE_COLUMNS, rows };
}

export const ANOMALY_COLUMNS = [
  'scope',
  'tableId',
  'playerId',
  'gamingDay',
  'coups',
  'handle',
  'win',
  'theoWin',
  'z',
  'flagged',
] as const;

/** Actual against theoretical win per table-day and player-day, in standard deviations, flagged past the threshold. */
export function anomalies(report: AnomalyReport | null): DataTable<(typeof ANOMALY_COLUMNS)[number]> {
  const rows = (report?.rows ?? []).map((r) => ({
    scope: r.scope,
    tableId: r.tableId,
    playerId: r.playerId,
    gamingDay: r.gamingDay,
    coups: r.coups,
    handle: r.handle,
    win: r.win,
    theoWin: r.theoWin,
    z: r.z,
    flagged: r.flagged,
  }));
  return { columns: ANOMALY_COLUMNS, rows };
}

const dollars = (v: CsvCell): number | null => {
  const n = num(v);
  return n === null ? null : n / 100;
};
const [BLUE, GREEN, RED] = ['#1f5fbf', '#1d8a3a', '#c0262d'] as const;
const COLOURS = [BLUE, GREEN, RED];

export function dropChart(
  table: DataTable<(typeof DROP_COLUMNS)[number]>,
  t: TFunction<'analyst'>,
): ChartSpec {
  const data: BarLineData = {
    labels: table.rows.map((r) => String(r.gamingDay)),
    datasets: (['dropAmount', 'win', 'theoWin'] as const).map((c, i) => ({
      type: 'bar' as const,
      label: t(`columns.${c}`),
      data: table.rows.map((r) => dollars(r[c])),
      backgroundColor: COLOURS[i],
    })),
  };
  return { data, options: barOptions(t('chart.dollars'), (v) => `$${tick(v)}`) };
}

export function betTypeChart(
  table: DataTable<(typeof BET_TYPE_COLUMNS)[number]>,
  t: TFunction<'analyst'>,
): ChartSpec {
  const data: BarLineData = {
    labels: table.rows.map((r) => betTypeName(String(r.betType), t)),
    datasets: (['holdPct', 'theoPct'] as const).map((c, i) => ({
      type: 'bar' as const,
      label: t(`columns.${c}`),
      data: table.rows.map((r) => num(r[c])),
      backgroundColor: i === 0 ? BLUE : RED,
    })),
  };
  return { data, options: barOptions(t('chart.percentOfHandle'), (v) => `${tick(v)}%`, false) };
}

export function paceChart(
  table: DataTable<(typeof PACE_COLUMNS)[number]>,
  t: TFunction<'analyst'>,
): ChartSpec {
  const data: BarLineData = {
    labels: table.rows.map((r) => `${r.dealerId ?? '–'} · ${r.tableId} · ${r.gamingDay} ${r.shift}`),
    datasets: [
      {
        type: 'bar',
        label: t('columns.coupsPerHour'),
        data: table.rows.map((r) => num(r.coupsPerHour)),
        backgroundColor: BLUE,
      },
    ],
  };
  return { data, options: barOptions(t('columns.coupsPerHour'), tick) };
}

export function anomalyChart(
  table: DataTable<(typeof ANOMALY_COLUMNS)[number]>,
  t: TFunction<'analyst'>,
): ChartSpec {
  const data: BarLineData = {
    labels: table.rows.map((r) => `${r.scope === 'table' ? r.tableId : r.playerId} · ${r.gamingDay}`),
    datasets: [
      {
        type: 'bar',
        label: t('columns.z'),
        data: table.rows.map((r) => num(r.z)),
        backgroundColor: table.rows.map((r) => (r.flagged ? RED : BLUE)),
      },
    ],
  };
  return { data, options: barOptions(t('columns.z'), tick, false) };
}
