/**
 * The dashboard's charts as Chart.js data and options, built from the same rows as each chart's data table and
 * CSV (see data.ts). Only the parts of Chart.js these charts use are registered (bars, points, two scales).
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartData,
  type ChartOptions,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { TFunction } from 'i18next';
import type { CsvCell } from '../export';
import { betName, resultLabel } from './cells';
import type { DAY_COLUMNS, DataTable, FREQUENCY_COLUMNS, HOLD_COLUMNS } from './data';

Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
);

type Point = number | [number, number] | null;
export type BarLineData = ChartData<'bar' | 'line', Point[], string>;

/** A chart to draw: its data and options (never animated, so what is shown is what was computed, at once). */
export interface ChartSpec {
  readonly data: BarLineData;
  readonly options: ChartOptions<'bar'>;
}

const num = (v: CsvCell): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const COLOURS = {
  interval: 'rgba(31, 95, 191, 0.25)',
  observed: '#1f5fbf',
  expected: '#c0262d',
  second: '#1d8a3a',
};

function options(yTitle: string, yTick: (v: number) => string): ChartOptions<'bar'> {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    scales: {
      x: { grid: { display: false } },
      y: {
        beginAtZero: true,
        title: { display: true, text: yTitle },
        ticks: { callback: (v) => yTick(Number(v)) },
      },
    },
    plugins: { legend: { position: 'bottom' } },
  };
}

/**
 * Frequencies beside exact probabilities: the Wilson 95% interval as a floating bar, the observed frequency and
 * the exact probability as points on it (in %).
 */
export function frequencyChart(
  table: DataTable<(typeof FREQUENCY_COLUMNS)[number]>,
  t: TFunction<'analyst'>,
): ChartSpec {
  const pct = (v: CsvCell) => {
    const n = num(v);
    return n === null ? null : n * 100;
  };
  const data: BarLineData = {
    labels: table.rows.map((r) => resultLabel(String(r.result), t)),
    datasets: [
      {
        type: 'bar',
        label: t('chart.interval'),
        data: table.rows.map((r): Point => {
          const low = pct(r.ciLow);
          const high = pct(r.ciHigh);
          return low === null || high === null ? null : [low, high];
        }),
        backgroundColor: COLOURS.interval,
        borderColor: COLOURS.observed,
        borderWidth: 1,
      },
      {
        type: 'line',
        label: t('chart.observed'),
        data: table.rows.map((r) => pct(r.frequency)),
        showLine: false,
        pointRadius: 6,
        pointStyle: 'circle',
        backgroundColor: COLOURS.observed,
        borderColor: COLOURS.observed,
      },
      {
        type: 'line',
        label: t('chart.expected'),
        data: table.rows.map((r) => pct(r.expected)),
        showLine: false,
        pointRadius: 9,
        pointStyle: 'line',
        borderWidth: 3,
        backgroundColor: COLOURS.expected,
        borderColor: COLOURS.expected,
      },
    ],
  };
  return { data, options: options(t('chart.percentOfCoups'), (v) => `${v}%`) };
}

/** Hold beside the theoretical edge, per bet type (%). */
export function holdChart(
  table: DataTable<(typeof HOLD_COLUMNS)[number]>,
  t: TFunction<'analyst'>,
): ChartSpec {
  const data: BarLineData = {
    labels: table.rows.map((r) => betName(String(r.bet), String(r.variant), t)),
    datasets: [
      {
        type: 'bar',
        label: t('columns.holdPercent'),
        data: table.rows.map((r) => num(r.holdPercent)),
        backgroundColor: COLOURS.observed,
      },
      {
        type: 'bar',
        label: t('columns.theoreticalEdgePercent'),
        data: table.rows.map((r) => num(r.theoreticalEdgePercent)),
        backgroundColor: COLOURS.expected,
      },
    ],
  };
  const o = options(t('chart.percentOfHandle'), (v) => `${v}%`);
  return { data, options: { ...o, scales: { ...o.scales, y: { ...o.scales?.y, beginAtZero: false } } } };
}

/** Handle and the house's win per day, in dollars. */
export function dayChart(table: DataTable<(typeof DAY_COLUMNS)[number]>, t: TFunction<'analyst'>): ChartSpec {
  const dollars = (v: CsvCell) => {
    const n = num(v);
    return n === null ? null : n / 100;
  };
  const data: BarLineData = {
    labels: table.rows.map((r) => String(r.day)),
    datasets: [
      {
        type: 'bar',
        label: t('columns.handle'),
        data: table.rows.map((r) => dollars(r.handle)),
        backgroundColor: COLOURS.observed,
      },
      {
        type: 'bar',
        label: t('columns.houseResult'),
        data: table.rows.map((r) => dollars(r.houseResult)),
        backgroundColor: COLOURS.second,
      },
    ],
  };
  return { data, options: options(t('chart.dollars'), (v) => `$${v.toLocaleString('en-US')}`) };
}
