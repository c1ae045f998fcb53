/**
 * Test helper: the analysts' summary tables (an_sum_*) as the fact tables say they should be, added up here from
 * the fact rows, and the check that the tables hold exactly that: every row with facts equal to the sums of its
 * facts (integers exactly, the theoretical win to 1e-9), every row left without facts all zeros.
 */
import type { Row } from '../read-models/kernel/types';

type Sums = Record<string, number>;

const HOLD_KEYS = ['gaming_day', 'table_id', 'shift', 'dealer_id'] as const;
const BET_TYPE_KEYS = ['gaming_day', 'table_id', 'shift', 'bet_type'] as const;

function cellOf(cells: Map<string, Sums & { key: Row }>, row: Row, keys: readonly string[]): Sums {
  const key = Object.fromEntries(keys.map((k) => [k, k === 'dealer_id' ? (row[k] ?? '') : row[k]])) as Row;
  const id = JSON.stringify(key);
  let cell = cells.get(id);
  if (cell === undefined) cells.set(id, (cell = { key } as Sums & { key: Row }));
  return cell;
}

function add(cell: Sums, values: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(values)) cell[k] = (cell[k] ?? 0) + Number(v);
}

/** The an_sum_hold rows the facts make (only cells with facts). */
export function holdSumsOfFacts(tables: {
  coups: readonly Row[];
  cash: readonly Row[];
  amendments: readonly Row[];
}): Row[] {
  const cells = new Map<string, Sums & { key: Row }>();
  for (const c of tables.coups.filter((r) => r['status'] !== 'voided')) {
    const { handle, win, commission, theo_win } = c;
    add(cellOf(cells, c, HOLD_KEYS), { coups: 1, facts: 1, handle, win, commission, theo_win });
  }
  for (const c of tables.cash)
    add(cellOf(cells, c, HOLD_KEYS), {
      facts: 1,
      drop_amount: c['kind'] === 'buy-in' ? c['amount'] : 0,
      cashed_out: c['kind'] === 'cash-out' ? c['amount'] : 0,
    });
  for (const a of tables.amendments) {
    const voided = a['kind'] === 'round-void' || a['kind'] === 'settled-void';
    add(cellOf(cells, a, HOLD_KEYS), { facts: 1, voids: voided ? 1 : 0, corrections: voided ? 0 : 1 });
  }
  const zero = { coups: 0, drop_amount: 0, cashed_out: 0, handle: 0, win: 0, commission: 0, theo_win: 0 };
  return [...cells.values()].map(({ key, ...sums }) => ({
    ...key,
    ...zero,
    voids: 0,
    corrections: 0,
    ...sums,
  }));
}

/** The an_sum_bet_types rows the facts make (only cells with facts). */
export function betTypeSumsOfFacts(bets: readonly Row[]): Row[] {
  const cells = new Map<string, Sums & { key: Row }>();
  const coups = new Map<Sums, Set<string>>();
  for (const b of bets) {
    const cell = cellOf(cells, b, BET_TYPE_KEYS);
    if (!coups.has(cell)) coups.set(cell, new Set());
    const live = b['status'] !== 'voided';
    add(cell, {
      facts: 1,
      bets: live ? 1 : 0,
      handle: live ? b['stake'] : 0,
      paid: live ? b['paid'] : 0,
      win: live ? b['win'] : 0,
      commission: live ? b['commission'] : 0,
      theo_win: live ? b['theo_win'] : 0,
      voided_bets: b['status'] === 'voided' ? 1 : 0,
      corrected_bets: b['status'] === 'corrected' ? 1 : 0,
    });
    if (live) coups.get(cell)?.add(`${String(b['table_id'])}:${String(b['round_no'])}`);
  }
  return [...cells.values()].map((cell) => {
    const { key, ...sums } = cell;
    return { ...key, ...sums, coups: coups.get(cell)?.size ?? 0 };
  });
}

const idOf = (r: Row, keys: readonly string[]): string => JSON.stringify(keys.map((k) => r[k]));

/**
 * What is wrong with a summary table's rows against the facts' sums (empty: nothing): rows with facts must be
 * the sums, rows without must be zeros, no cell with facts missing.
 */
export function sumsMismatches(
  table: readonly Row[],
  expected: readonly Row[],
  keys: 'hold' | 'betTypes',
): string[] {
  const k = keys === 'hold' ? HOLD_KEYS : BET_TYPE_KEYS;
  const want = new Map(expected.map((r) => [idOf(r, k), r]));
  const out: string[] = [];
  for (const row of table) {
    const id = idOf(row, k);
    const e = want.get(id);
    want.delete(id);
    for (const [col, v] of Object.entries(row)) {
      if ((k as readonly string[]).includes(col)) continue;
      const w = e === undefined ? 0 : (e[col] ?? 0);
      const close =
        col === 'theo_win'
          ? Math.abs(Number(v) - Number(w)) <= 1e-9 * Math.max(1, Math.abs(Number(w)))
          : v === w;
      if (!close) out.push(`${id} ${col}: ${String(v)}, the facts make ${String(w)}`);
    }
  }
  for (const id of want.keys()) out.push(`${id}: no row`);
  return out;
}
