/**
 * Player ledger (`pl_`): per player and table, counters (buy-ins, bets, results, commission owed and collected,
 * cash-outs, chips), and one entry per movement of a player's money, in global order.
 *
 * Counters are `add` writes (incremented in SQL), so the fold needs no per-player state: only the table's
 * commission mode, and the position for idempotence. A settled coup corrected or voided after it settled adds
 * entries of its own (each reversed settlement, then the new settlements or the stakes returned, with who and
 * why) and moves the counters back and forth: an entry once written is never changed.
 */
import { isSideSpot } from '@coup/engine';
import {
  type Returned,
  type Role,
  type Settlement,
  type SideSpot,
  type Spot,
  type TableEvent,
  payoutRulesOf,
} from '@coup/table';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type Write,
  byTable,
  only,
  signed,
} from '../kernel/types';
import { type AccountCounter, PL_ACCOUNTS, PL_ENTRIES, ledgerTables } from './schema';

export * from './schema';

export interface LedgerState {
  readonly position: number;
  readonly tableId: string;
  readonly commissionMode: 'deducted' | 'box' | null;
  /** The paytable of each side bet the table offers (absent in states stored before side bets: none). */
  readonly paytables?: Readonly<Partial<Record<SideSpot, string>>>;
}

/** Every counter, zero unless given (one object shape for every add). */
function counters(a: Partial<Record<AccountCounter, number>>): Record<AccountCounter, number> {
  return {
    buy_ins: a.buy_ins ?? 0,
    bought_in: a.bought_in ?? 0,
    bets: a.bets ?? 0,
    staked: a.staked ?? 0,
    cleared: a.cleared ?? 0,
    wins: a.wins ?? 0,
    losses: a.losses ?? 0,
    pushes: a.pushes ?? 0,
    paid: a.paid ?? 0,
    net_result: a.net_result ?? 0,
    commission_deducted: a.commission_deducted ?? 0,
    commission_owed: a.commission_owed ?? 0,
    commission_collected: a.commission_collected ?? 0,
    voided_returned: a.voided_returned ?? 0,
    cash_outs: a.cash_outs ?? 0,
    cashed_out: a.cashed_out ?? 0,
    chips: a.chips ?? 0,
  };
}

type Kind = 'buy-in' | 'bet' | 'clear' | 'settlement' | 'reversal' | 'void-return' | 'cash-out';

/** Who moved the money, and why (null: a coup settled as dealt). */
interface Why {
  readonly by: string;
  readonly role: Role;
  readonly reason: string | null;
}

/** Collects the writes of one event: an account increment and an entry per movement. */
class LedgerWrites {
  readonly writes: Write[] = [];
  private seq = 0;

  constructor(
    private readonly tableId: string,
    private readonly position: number,
    private readonly at: string,
    private readonly paytables: LedgerState['paytables'],
    /** Whether the table owes commission to the box (else deducts it from what it pays). */
    readonly box: boolean,
  ) {}

  /** The table's paytable of a side bet, or null (a main spot). */
  paytableOf(spot: Spot): string | null {
    return isSideSpot(spot) ? (this.paytables?.[spot] ?? null) : null;
  }

  entry(
    playerId: string,
    kind: Kind,
    roundNo: number | null,
    spot: string | null,
    paytable: string | null,
    amount: number,
    chipsDelta: number,
    result: string | null,
    commission: number,
    by: string | null,
    role: Role | null,
    add: Partial<Record<AccountCounter, number>>,
    reason: string | null = null,
  ): this {
    this.writes.push(
      {
        kind: 'add',
        table: PL_ACCOUNTS,
        row: { player_id: playerId, table_id: this.tableId, first_at: this.at },
        add: counters(add),
      },
      {
        kind: 'upsert',
        table: PL_ENTRIES,
        row: {
          player_id: playerId,
          position: this.position,
          seq: this.seq++,
          table_id: this.tableId,
          at: this.at,
          kind,
          round_no: roundNo,
          spot,
          paytable,
          amount,
          chips_delta: chipsDelta,
          result,
          commission,
          by,
          role,
          reason,
        },
      },
    );
    return this;
  }

  /**
   * A settlement (`sign` 1) or its reversal (-1): the results, paid, net result and commission counted, or
   * counted back. `why`: who settled it anew or reversed it, and why (null: the coup as dealt).
   */
  settlement(st: Settlement, roundNo: number, box: boolean, sign: 1 | -1, why: Why | null): this {
    return this.entry(
      st.playerId,
      sign === 1 ? 'settlement' : 'reversal',
      roundNo,
      st.spot,
      st.paytable ?? null,
      st.paid,
      signed(sign, st.paid),
      st.result,
      st.commission,
      why?.by ?? null,
      why?.role ?? null,
      {
        wins: st.result === 'win' ? sign : 0,
        losses: st.result === 'lose' ? sign : 0,
        pushes: st.result === 'push' ? sign : 0,
        paid: signed(sign, st.paid),
        net_result: signed(sign, st.paid - st.amount - (box ? st.commission : 0)),
        commission_deducted: box ? 0 : signed(sign, st.commission),
        commission_owed: box ? signed(sign, st.commission) : 0,
        chips: signed(sign, st.paid),
      },
      why?.reason ?? null,
    );
  }

  /** Stakes returned by a void (of a round, or of a settled coup), with who and why. */
  voidReturns(returned: readonly Returned[], roundNo: number, why: Why): this {
    for (const r of returned) {
      this.entry(
        r.playerId,
        'void-return',
        roundNo,
        null,
        null,
        r.amount,
        r.amount,
        null,
        0,
        why.by,
        why.role,
        { voided_returned: r.amount, chips: r.amount },
        why.reason,
      );
    }
    return this;
  }
}

type DataOf<K extends TableEvent['type']> = Extract<TableEvent, { type: K }>['data'];

/** The entries each money-moving event makes (events not listed make none). */
const ENTRIES: { readonly [K in TableEvent['type']]?: (w: LedgerWrites, d: DataOf<K>) => void } = {
  PlayerBoughtIn: (w, d) => {
    w.entry(d.playerId, 'buy-in', null, null, null, d.amount, d.amount, null, 0, d.by, d.role, {
      buy_ins: 1,
      bought_in: d.amount,
      chips: d.amount,
    });
  },
  BetPlaced: (w, d) => {
    w.entry(
      d.playerId,
      'bet',
      d.roundNo,
      d.spot,
      w.paytableOf(d.spot),
      d.amount,
      -d.amount,
      null,
      0,
      d.by,
      d.role,
      {
        bets: 1,
        staked: d.amount,
        chips: -d.amount,
      },
    );
  },
  BetsCleared: (w, d) => {
    w.entry(d.playerId, 'clear', d.roundNo, null, null, d.returned, d.returned, null, 0, d.by, d.role, {
      cleared: d.returned,
      chips: d.returned,
    });
  },
  CoupResolved: (w, d) => {
    const box = d.commissionMode === 'box';
    for (const st of d.settlements) w.settlement(st, d.roundNo, box, 1, null);
  },
  RoundVoided: (w, d) => {
    w.voidReturns(d.returned, d.roundNo, d);
  },
  SettledCoupCorrected: (w, d) => {
    const box = d.commissionMode === 'box';
    for (const st of d.reversed) w.settlement(st, d.roundNo, box, -1, d);
    for (const st of d.settlements) w.settlement(st, d.roundNo, box, 1, d);
  },
  SettledCoupVoided: (w, d) => {
    for (const st of d.reversed) w.settlement(st, d.roundNo, w.box, -1, d);
    w.voidReturns(d.returned, d.roundNo, d);
  },
  PlayerCashedOut: (w, d) => {
    const chips = d.paid + d.commissionCollected;
    w.entry(
      d.playerId,
      'cash-out',
      null,
      null,
      null,
      d.paid,
      -chips,
      null,
      d.commissionCollected,
      d.by,
      d.role,
      {
        cash_outs: 1,
        cashed_out: d.paid,
        commission_collected: d.commissionCollected,
        commission_owed: -d.commissionCollected,
        chips: -chips,
      },
    );
  },
};

function ledgerWrites(s: LedgerState, e: ProjectionEvent): readonly Write[] {
  // own keys only: an event type named like an Object property (`__proto__`, `constructor`) makes no entries
  if (!Object.hasOwn(ENTRIES, e.event.type)) return [];
  const entries = ENTRIES[e.event.type] as (w: LedgerWrites, d: unknown) => void;
  const w = new LedgerWrites(
    s.tableId,
    e.position,
    (e.event.data as { at: string }).at,
    s.paytables,
    s.commissionMode === 'box',
  );
  entries(w, e.event.data);
  return w.writes;
}

function evolveLedger(state: LedgerState, e: ProjectionEvent): Evolution<LedgerState> {
  if (e.position <= state.position) return only(state);
  if (e.event.type === 'TableOpened') {
    const rules = e.event.data.rules;
    return {
      state: {
        ...state,
        position: e.position,
        commissionMode: rules.commission,
        paytables: payoutRulesOf(rules).paytables ?? {},
      },
      writes: [],
    };
  }
  const writes = ledgerWrites(state, e);
  return writes.length === 0 ? only(state) : { state: { ...state, position: e.position }, writes };
}

export const ledgerProjection: ProjectionModel<LedgerState> = {
  name: 'ledger',
  prefix: 'pl',
  version: 3,
  description:
    'Per player and table: buy-ins, bets, results, commission owed and collected, cash-outs; entries (corrections and voids of settled coups as entries of their own).',
  tables: ledgerTables,
  handles: new Set([
    'TableOpened',
    'PlayerBoughtIn',
    'BetPlaced',
    'BetsCleared',
    'CoupResolved',
    'RoundVoided',
    'SettledCoupCorrected',
    'SettledCoupVoided',
    'PlayerCashedOut',
  ]),
  keyOf: byTable,
  initial: (tableId) => ({ position: 0, tableId, commissionMode: null }),
  evolve: evolveLedger,
};
