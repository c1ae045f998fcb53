/** How the dashboard shows a data table's cells and names: percentages, dollars, results and bets in words. */
import type { TFunction } from 'i18next';
import type { CsvCell } from '../export';
import { money } from '../format';

/** Columns holding a fraction (shown as a percentage), a percentage already, or cents. */
const FRACTIONS = new Set(['frequency', 'ciLow', 'ciHigh', 'expected']);
const PERCENTS = new Set(['holdPercent', 'theoreticalEdgePercent', 'holdPct', 'theoPct']);
const CENTS = new Set(['handle', 'houseResult', 'dropAmount', 'win', 'theoWin']);
/** Columns shown with two decimals (z-scores, hours) or one (a pace). */
const DECIMALS: Readonly<Record<string, number>> = { z: 2, hours: 2, coupsPerHour: 1 };

export const percent = (v: number, digits = 2): string => `${v.toFixed(digits)}%`;

/**
 * A result key of the statistics ('win:30/1', 'win:1/1:commission', 'push', 'lose') or an outcome, in words: the
 * outcome names for player/banker/tie, a win with its odds.
 */
export function resultLabel(key: string, t: TFunction<'analyst'>): string {
  if (key === 'player' || key === 'banker' || key === 'tie') return t(`outcomes.${key}`);
  const m = /^win:(\d+)\/(\d+)(:commission)?$/.exec(key);
  if (!m) return t(`results.${key === 'push' ? 'push' : 'lose'}`);
  const [, num, den, commission] = m;
  const odds = den === '100' ? `${Number(num) / 100}:1` : `${num}:${den}`;
  return t(commission ? 'results.winLess' : 'results.win', { odds });
}

/** A bet type's name: its spot in words, with the variant when it sets the payouts (a paytable, the mode). */
export function betName(spot: string, variant: string, t: TFunction<'analyst'>): string {
  const name = t(`spots.${spot}`, { defaultValue: spot });
  return spot === 'player' || variant === '' ? name : `${name} (${variant})`;
}

/** A report's bet type ('banker:commission', 'super6:15-to-1') in words. */
export function betTypeName(betType: string, t: TFunction<'analyst'>): string {
  const [spot = '', variant = ''] = betType.split(/:(.*)/);
  return betName(spot, variant, t);
}

/** A cell as shown in the data table. */
export function showCell(column: string, v: CsvCell, t: TFunction<'analyst'>): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'boolean') return t(v ? 'cells.yes' : 'cells.no');
  if (typeof v === 'number') {
    if (FRACTIONS.has(column)) return percent(v * 100, 3);
    if (PERCENTS.has(column)) return percent(v);
    // a theoretical win is a fraction of a cent: shown to the cent
    if (CENTS.has(column)) return money(Math.round(v));
    if (DECIMALS[column] !== undefined) return v.toFixed(DECIMALS[column]);
    return v.toLocaleString('en-US');
  }
  if (column === 'result') return resultLabel(v, t);
  if (column === 'bet') return t(`spots.${v}`, { defaultValue: v });
  if (column === 'betType') return betTypeName(v, t);
  if (column === 'scope') return t(`scopes.${v}`, { defaultValue: v });
  return v;
}
