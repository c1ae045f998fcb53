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
import { resultLabel } from './cells';
import type { DataTable, FREQUENCY_COLUMNS } from './data';

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

/** A cell as a number to draw, or null (a gap). */
export const num = (v: CsvCell): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const COLOURS = {
  interval: 'rgba(31, 95, 191, 0.25)',
  observed: '#1f5fbf',
  expected: '#c0262d',
};

/** An axis tick: at most two decimals (a step of 0.1 adds up to 1.2000000000000002). */
export const tick = (v: number): string => v.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Options of a bar chart: the y axis titled and its ticks written by `yTick`, starting at 0 unless asked not to. */
export function barOptions(
  yTitle: string,
  yTick: (v: number) => string,
  beginAtZero = true,
): ChartOptions<'bar'> {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    scales: {
      x: { grid: { display: false } },
      y: {
        beginAtZero,
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
  return { data, options: barOptions(t('chart.percentOfCoups'), (v) => `${tick(v)}%`) };
}
