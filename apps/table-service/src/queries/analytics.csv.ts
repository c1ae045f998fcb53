/** The analysts' reports as CSV: one line per row, the grouping columns first (csv.ts's conventions). */
import type { Cell } from './csv';

type Column = { readonly name: string; readonly value: (row: object) => Cell };

const column = (name: string): Column => ({
  name,
  value: (row) => (row as Record<string, Cell>)[name],
});

/** The API name of each grouping dimension's column. */
const KEY_OF: Readonly<Record<string, string>> = {
  table: 'tableId',
  gamingDay: 'gamingDay',
  shift: 'shift',
  hour: 'hour',
  dealer: 'dealerId',
  betType: 'betType',
};

const HOLD = [
  'coups',
  'dropAmount',
  'cashedOut',
  'handle',
  'win',
  'holdPct',
  'winPctOfHandle',
  'theoWin',
  'theoPctOfHandle',
  'commission',
  'voids',
  'corrections',
];
const BET_TYPES = [
  'coups',
  'bets',
  'handle',
  'paid',
  'win',
  'holdPct',
  'theoWin',
  'theoPct',
  'commission',
  'voidedBets',
  'correctedBets',
];

/** The columns of a grouped report (hold, bet types): its dimensions, then its figures. */
export function groupedColumns(report: 'hold' | 'betTypes', dims: readonly string[]): Column[] {
  const keys = dims.map((d) => KEY_OF[d] ?? d);
  return [...keys, ...(report === 'hold' ? HOLD : BET_TYPES)].map(column);
}

export const PACE_COLUMNS: readonly Column[] = [
  'tableId',
  'gamingDay',
  'shift',
  'dealerId',
  'coups',
  'firstAt',
  'lastAt',
  'hours',
  'coupsPerHour',
].map(column);

export const RATING_COLUMNS: readonly Column[] = [
  'playerId',
  'tableId',
  'gamingDay',
  'coups',
  'bets',
  'handle',
  'averageBet',
  'win',
  'theoWin',
  'firstAt',
  'lastAt',
  'minutesPlayed',
].map(column);

export const ANOMALY_COLUMNS: readonly Column[] = [
  'scope',
  'tableId',
  'playerId',
  'gamingDay',
  'coups',
  'handle',
  'win',
  'theoWin',
  'theoVar',
  'sd',
  'z',
  'flagged',
].map(column);
