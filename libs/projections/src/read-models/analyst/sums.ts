/**
 * The summary tables' running sums (schema-sums.ts), kept in the fold's state per table: the cells of its latest
 * gaming day and of the day before (and of the coup last settled, which a correction or void may still change),
 * each row rewritten whole when a fact changes it. Sums in the state rather than `add` counters: the theoretical
 * win is fractional, and counters summed per batch would give it a last digit that depends on the batch size.
 */
import type { Settlement } from '@coup/table';
import type { Row } from '../kernel/types';
import { type Placement, dayNumber, dayText } from './gaming-day';
import { type CoupContext, type FactStatus, coupMoney, figuresOf, winOf } from './rows';
import { AN_SUM_BET_TYPES, AN_SUM_HOLD } from './schema-sums';
import type { Step } from './step';

export interface HoldSums {
  readonly coups: number;
  readonly dropAmount: number;
  readonly cashedOut: number;
  readonly handle: number;
  readonly win: number;
  readonly commission: number;
  readonly theoWin: number;
  readonly voids: number;
  readonly corrections: number;
  readonly facts: number;
}

export interface BetTypeSums {
  readonly coups: number;
  readonly bets: number;
  readonly handle: number;
  readonly paid: number;
  readonly win: number;
  readonly commission: number;
  readonly theoWin: number;
  readonly voidedBets: number;
  readonly correctedBets: number;
  readonly facts: number;
}

/** A row of a summary table: its gaming day and shift, its dealer (hold) or bet type, and the sums. */
export interface SumCell<S> {
  readonly gamingDay: string;
  readonly shift: string;
  readonly key: string;
  readonly sums: S;
}

export interface Sums {
  /** The latest gaming day summed at this table. */
  readonly day: string | null;
  readonly hold: Readonly<Record<string, SumCell<HoldSums>>>;
  readonly betTypes: Readonly<Record<string, SumCell<BetTypeSums>>>;
}

export const NO_SUMS: Sums = { day: null, hold: {}, betTypes: {} };

const HOLD_ZERO: HoldSums = {
  coups: 0,
  dropAmount: 0,
  cashedOut: 0,
  handle: 0,
  win: 0,
  commission: 0,
  theoWin: 0,
  voids: 0,
  corrections: 0,
  facts: 0,
};

const BET_TYPE_ZERO: BetTypeSums = {
  coups: 0,
  bets: 0,
  handle: 0,
  paid: 0,
  win: 0,
  commission: 0,
  theoWin: 0,
  voidedBets: 0,
  correctedBets: 0,
  facts: 0,
};

// field by field (a loop over Object.entries cost a tenth of the fold)
const plusHold = (a: HoldSums, d: Partial<HoldSums>): HoldSums => ({
  coups: a.coups + (d.coups ?? 0),
  dropAmount: a.dropAmount + (d.dropAmount ?? 0),
  cashedOut: a.cashedOut + (d.cashedOut ?? 0),
  handle: a.handle + (d.handle ?? 0),
  win: a.win + (d.win ?? 0),
  commission: a.commission + (d.commission ?? 0),
  theoWin: a.theoWin + (d.theoWin ?? 0),
  voids: a.voids + (d.voids ?? 0),
  corrections: a.corrections + (d.corrections ?? 0),
  facts: a.facts + (d.facts ?? 0),
});

const plusBetType = (a: BetTypeSums, d: Partial<BetTypeSums>): BetTypeSums => ({
  coups: a.coups + (d.coups ?? 0),
  bets: a.bets + (d.bets ?? 0),
  handle: a.handle + (d.handle ?? 0),
  paid: a.paid + (d.paid ?? 0),
  win: a.win + (d.win ?? 0),
  commission: a.commission + (d.commission ?? 0),
  theoWin: a.theoWin + (d.theoWin ?? 0),
  voidedBets: a.voidedBets + (d.voidedBets ?? 0),
  correctedBets: a.correctedBets + (d.correctedBets ?? 0),
  facts: a.facts + (d.facts ?? 0),
});

/**
 * A cell with new sums. Written out, as are the cells' and sums' copies below (the same fields in the same
 * order): V8 builds an object spread with changed fields far slower, and these are copied per coup.
 */
const withSums = <S>(c: SumCell<S>, sums: S): SumCell<S> => ({
  gamingDay: c.gamingDay,
  shift: c.shift,
  key: c.key,
  sums,
});

function keptSince<S>(
  cells: Readonly<Record<string, SumCell<S>>>,
  from: string,
  keep: string | null,
): Record<string, SumCell<S>> {
  return Object.fromEntries(
    Object.entries(cells).filter(([, c]) => c.gamingDay >= from || c.gamingDay === keep),
  );
}

/**
 * The sums ready for a fact of `gamingDay`: on a later day than any before, the cells of days before the one
 * before it are dropped (their rows are final), but for those of the coup last settled.
 */
function sumsFor(step: Step, gamingDay: string): Sums {
  const sums = step.state.sums;
  if (sums.day !== null && gamingDay <= sums.day) return sums;
  const settled = step.state.settled;
  const keep = settled === null ? null : step.placeOnly(settled.at).gamingDay;
  const from = dayText(dayNumber(gamingDay) - 1);
  return {
    day: gamingDay,
    hold: keptSince(sums.hold, from, keep),
    betTypes: keptSince(sums.betTypes, from, keep),
  };
}

// JSON.stringify([gaming day, shift, key]), element by element (the keys are in the stored state)
const cellKey = (p: Placement, key: string): string =>
  `[${JSON.stringify(p.gamingDay)},${JSON.stringify(p.shift)},${JSON.stringify(key)}]`;

function holdRow(tableId: string, c: SumCell<HoldSums>): Row {
  const s = c.sums;
  return {
    gaming_day: c.gamingDay,
    table_id: tableId,
    shift: c.shift,
    dealer_id: c.key,
    coups: s.coups,
    drop_amount: s.dropAmount,
    cashed_out: s.cashedOut,
    handle: s.handle,
    win: s.win,
    commission: s.commission,
    theo_win: s.theoWin,
    voids: s.voids,
    corrections: s.corrections,
    facts: s.facts,
  };
}

function betTypeRow(tableId: string, c: SumCell<BetTypeSums>): Row {
  const s = c.sums;
  return {
    gaming_day: c.gamingDay,
    table_id: tableId,
    shift: c.shift,
    bet_type: c.key,
    coups: s.coups,
    bets: s.bets,
    handle: s.handle,
    paid: s.paid,
    win: s.win,
    commission: s.commission,
    theo_win: s.theoWin,
    voided_bets: s.voidedBets,
    corrected_bets: s.correctedBets,
    facts: s.facts,
  };
}

/** Adds `d` to the hold cell of a fact placed at `p` with this dealer, and rewrites its row. */
export function sumHold(step: Step, p: Placement, dealerId: string | null, d: Partial<HoldSums>): void {
  const sums = sumsFor(step, p.gamingDay);
  const key = cellKey(p, dealerId ?? '');
  const before = sums.hold[key] ?? {
    gamingDay: p.gamingDay,
    shift: p.shift,
    key: dealerId ?? '',
    sums: HOLD_ZERO,
  };
  const cell = withSums(before, plusHold(before.sums, d));
  const hold = { ...sums.hold };
  hold[key] = cell;
  step
    .with({ sums: { day: sums.day, hold, betTypes: sums.betTypes } })
    .write({ kind: 'upsert', table: AN_SUM_HOLD, row: holdRow(step.state.tableId, cell) });
}

/**
 * A coup's money into its hold cell (`sign` 1) or out of it (-1), as its row in an_fact_coups has it; `coups`:
 * what that does to the count of coups (and facts) there.
 */
export function sumCoup(
  step: Step,
  c: CoupContext,
  settlements: readonly Settlement[],
  mode: 'deducted' | 'box',
  sign: 1 | -1,
  coups: number,
): void {
  const m = coupMoney(c, settlements, mode);
  sumHold(step, c.place, c.dealerId, {
    coups,
    facts: coups,
    handle: sign * m.handle,
    win: sign * m.win,
    commission: sign * m.commission,
    theoWin: sign * m.theoWin,
  });
}

/** Stakes whose rows come (`sign` 1) or go (-1) with this status. */
export interface BetRows {
  readonly settlements: readonly Settlement[];
  readonly sign: 1 | -1;
  readonly status: FactStatus;
}

/** Each bet type's change from rows of a coup's stakes coming and going. */
function betTypeChanges(
  c: CoupContext,
  mode: 'deducted' | 'box',
  parts: readonly BetRows[],
): Map<string, BetTypeSums> {
  const out = new Map<string, BetTypeSums>();
  for (const { settlements, sign, status } of parts) {
    const live = status === 'voided' ? 0 : sign;
    const types = new Set<string>();
    for (const st of settlements) {
      const f = figuresOf(c.rules, st.spot);
      types.add(f.betType);
      const d: Partial<BetTypeSums> = {
        facts: sign,
        bets: live,
        handle: live * st.amount,
        paid: live * st.paid,
        win: live * winOf(st, mode),
        commission: live * st.commission,
        theoWin: live * st.amount * f.edge,
        voidedBets: status === 'voided' ? sign : 0,
        correctedBets: status === 'corrected' ? sign : 0,
      };
      out.set(f.betType, plusBetType(out.get(f.betType) ?? BET_TYPE_ZERO, d));
    }
    for (const t of types) out.set(t, plusBetType(out.get(t) ?? BET_TYPE_ZERO, { coups: live }));
  }
  return out;
}

/** Stakes of a coup coming into or going out of its bet-type cells, and their rows rewritten. */
export function sumBets(
  step: Step,
  c: CoupContext,
  mode: 'deducted' | 'box',
  parts: readonly BetRows[],
): void {
  const sums = sumsFor(step, c.place.gamingDay);
  const cells = { ...sums.betTypes };
  const rows: Row[] = [];
  for (const [betType, d] of betTypeChanges(c, mode, parts)) {
    const key = cellKey(c.place, betType);
    const before = cells[key] ?? {
      gamingDay: c.place.gamingDay,
      shift: c.place.shift,
      key: betType,
      sums: BET_TYPE_ZERO,
    };
    const cell = withSums(before, plusBetType(before.sums, d));
    cells[key] = cell;
    rows.push(betTypeRow(step.state.tableId, cell));
  }
  step
    .with({ sums: { day: sums.day, hold: sums.hold, betTypes: cells } })
    .write(...rows.map((row) => ({ kind: 'upsert' as const, table: AN_SUM_BET_TYPES, row })));
}
