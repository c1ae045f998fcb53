/**
 * Player ledger (`pl_`): per player and table, counters (buy-ins, bets, results, commission owed and collected,
 * cash-outs, chips), and one entry per movement of a player's money, in global order.
 *
 * Counters are `add` writes (incremented in SQL), so the fold needs no per-player state: only the table's
 * commission mode, and the position for idempotence.
 */
import type { Role } from '@coup/table';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type TableDef,
  type Write,
  byTable,
  int,
  once,
  text,
} from './types';

export const PL_ACCOUNTS = 'pl_accounts';
export const PL_ENTRIES = 'pl_entries';

export interface LedgerState {
  readonly position: number;
  readonly tableId: string;
  readonly commissionMode: 'deducted' | 'box' | null;
}

/** The counters of an account row (all cents or counts). */
export const ACCOUNT_COUNTERS = [
  'buy_ins',
  'bought_in',
  'bets',
  'staked',
  'cleared',
  'wins',
  'losses',
  'pushes',
  'paid',
  'net_result',
  'commission_deducted',
  'commission_owed',
  'commission_collected',
  'voided_returned',
  'cash_outs',
  'cashed_out',
  'chips',
] as const;

export type AccountCounter = (typeof ACCOUNT_COUNTERS)[number];

const COUNTER_DOCS: Readonly<Record<AccountCounter, string>> = {
  buy_ins: 'Number of buy-ins',
  bought_in: 'Cash turned into chips (cents)',
  bets: 'Bets placed (including rebets and bets later cleared)',
  staked: 'Stakes placed less stakes cleared (cents)',
  cleared: 'Stakes taken back by clearing bets (cents)',
  wins: 'Bets won',
  losses: 'Bets lost',
  pushes: 'Bets pushed (player/banker on a tie)',
  paid: 'Paid back on settled bets, stakes included (cents)',
  net_result: 'Sum of (paid - stake) over settled bets: what the player won (negative: lost)',
  commission_deducted: 'Commission deducted from banker wins (deducted tables)',
  commission_owed: 'Box commission currently owed (owed less collected)',
  commission_collected: 'Box commission collected at cash-out',
  voided_returned: 'Stakes returned by voided rounds',
  cash_outs: 'Number of cash-outs',
  cashed_out: 'Cash paid at cash-out (cents)',
  chips: 'Chips at the table now (cents)',
};

const tables: readonly TableDef[] = [
  {
    name: PL_ACCOUNTS,
    doc: 'One row per player and table: counters of everything the player did there.',
    primaryKey: ['player_id', 'table_id'],
    indexes: [{ name: 'table', columns: ['table_id'] }],
    counters: ACCOUNT_COUNTERS,
    columns: [
      text('player_id', 'Player id'),
      text('table_id', 'Table id'),
      text('first_at', 'Time of the first entry'),
      ...ACCOUNT_COUNTERS.map((name) => int(name, COUNTER_DOCS[name])),
    ],
  },
  {
    name: PL_ENTRIES,
    doc: "One row per movement of a player's money: buy-in, bet, clear, settlement, void return, cash-out.",
    primaryKey: ['position', 'seq'],
    indexes: [{ name: 'player', columns: ['player_id', 'position', 'seq'] }],
    columns: [
      int('position', 'Global position of the event'),
      int('seq', 'Entry number within the event (a coup settles several bets)'),
      text('player_id', 'Player id'),
      text('table_id', 'Table id'),
      text('at', 'Time (ISO)'),
      text('kind', "'buy-in' | 'bet' | 'clear' | 'settlement' | 'void-return' | 'cash-out'"),
      int('round_no', 'Round, when the entry belongs to one'),
      text('spot', "'player' | 'banker' | 'tie' for bets and settlements"),
      int('amount', 'The amount: bought in, staked, returned, or paid'),
      int('chips_delta', "Change to the player's chips at the table"),
      text('result', "Settlements: 'win' | 'lose' | 'push'"),
      int('commission', 'Commission deducted/owed (settlements) or collected (cash-out)'),
      text('by', 'Who did it (actor id)'),
      text('role', 'Their role'),
    ],
  },
];

interface EntryInput {
  readonly playerId: string;
  readonly kind: 'buy-in' | 'bet' | 'clear' | 'settlement' | 'void-return' | 'cash-out';
  readonly roundNo: number | null;
  readonly spot: string | null;
  readonly amount: number;
  readonly chipsDelta: number;
  readonly result: string | null;
  readonly commission: number;
  readonly by: string | null;
  readonly role: Role | null;
}

function ledgerWrites(
  s: LedgerState,
  e: ProjectionEvent,
  at: string,
  entries: readonly (EntryInput & { readonly add: Partial<Record<AccountCounter, number>> })[],
): Write[] {
  const writes: Write[] = [];
  entries.forEach((x, seq) => {
    writes.push({
      kind: 'add',
      table: PL_ACCOUNTS,
      row: { player_id: x.playerId, table_id: s.tableId, first_at: at },
      add: Object.fromEntries(ACCOUNT_COUNTERS.map((k) => [k, x.add[k] ?? 0])),
    });
    writes.push({
      kind: 'upsert',
      table: PL_ENTRIES,
      row: {
        position: e.position,
        seq,
        player_id: x.playerId,
        table_id: s.tableId,
        at,
        kind: x.kind,
        round_no: x.roundNo,
        spot: x.spot,
        amount: x.amount,
        chips_delta: x.chipsDelta,
        result: x.result,
        commission: x.commission,
        by: x.by,
        role: x.role,
      },
    });
  });
  return writes;
}

function evolveLedger(state: LedgerState, e: ProjectionEvent): Evolution<LedgerState> {
  return once(state, e, (s) => {
    const ev = e.event;
    const none = { roundNo: null, spot: null, result: null, commission: 0 };
    switch (ev.type) {
      case 'TableOpened':
        return { state: { ...s, commissionMode: ev.data.rules.commission }, writes: [] };
      case 'PlayerBoughtIn': {
        const d = ev.data;
        return {
          state: s,
          writes: ledgerWrites(s, e, d.at, [
            {
              ...none,
              playerId: d.playerId,
              kind: 'buy-in',
              amount: d.amount,
              chipsDelta: d.amount,
              by: d.by,
              role: d.role,
              add: { buy_ins: 1, bought_in: d.amount, chips: d.amount },
            },
          ]),
        };
      }
      case 'BetPlaced': {
        const d = ev.data;
        return {
          state: s,
          writes: ledgerWrites(s, e, d.at, [
            {
              ...none,
              playerId: d.playerId,
              kind: 'bet',
              roundNo: d.roundNo,
              spot: d.spot,
              amount: d.amount,
              chipsDelta: -d.amount,
              by: d.by,
              role: d.role,
              add: { bets: 1, staked: d.amount, chips: -d.amount },
            },
          ]),
        };
      }
      case 'BetsCleared': {
        const d = ev.data;
        return {
          state: s,
          writes: ledgerWrites(s, e, d.at, [
            {
              ...none,
              playerId: d.playerId,
              kind: 'clear',
              roundNo: d.roundNo,
              amount: d.returned,
              chipsDelta: d.returned,
              by: d.by,
              role: d.role,
              add: { cleared: d.returned, staked: -d.returned, chips: d.returned },
            },
          ]),
        };
      }
      case 'CoupResolved': {
        const d = ev.data;
        const box = d.commissionMode === 'box';
        return {
          state: s,
          writes: ledgerWrites(
            s,
            e,
            d.at,
            d.settlements.map((st) => ({
              playerId: st.playerId,
              kind: 'settlement' as const,
              roundNo: d.roundNo,
              spot: st.spot,
              amount: st.paid,
              chipsDelta: st.paid,
              result: st.result,
              commission: st.commission,
              by: null,
              role: null,
              add: {
                wins: st.result === 'win' ? 1 : 0,
                losses: st.result === 'lose' ? 1 : 0,
                pushes: st.result === 'push' ? 1 : 0,
                paid: st.paid,
                net_result: st.paid - st.amount,
                commission_deducted: box ? 0 : st.commission,
                commission_owed: box ? st.commission : 0,
                chips: st.paid,
              },
            })),
          ),
        };
      }
      case 'RoundVoided': {
        const d = ev.data;
        return {
          state: s,
          writes: ledgerWrites(
            s,
            e,
            d.at,
            d.returned.map((r) => ({
              ...none,
              playerId: r.playerId,
              kind: 'void-return' as const,
              roundNo: d.roundNo,
              amount: r.amount,
              chipsDelta: r.amount,
              by: d.by,
              role: d.role,
              add: { voided_returned: r.amount, staked: -r.amount, chips: r.amount },
            })),
          ),
        };
      }
      case 'PlayerCashedOut': {
        const d = ev.data;
        const chips = d.paid + d.commissionCollected;
        return {
          state: s,
          writes: ledgerWrites(s, e, d.at, [
            {
              ...none,
              playerId: d.playerId,
              kind: 'cash-out',
              amount: d.paid,
              chipsDelta: -chips,
              commission: d.commissionCollected,
              by: d.by,
              role: d.role,
              add: {
                cash_outs: 1,
                cashed_out: d.paid,
                commission_collected: d.commissionCollected,
                commission_owed: -d.commissionCollected,
                chips: -chips,
              },
            },
          ]),
        };
      }
      default:
        return { state: s, writes: [] };
    }
  });
}

export const ledgerProjection: ProjectionModel<LedgerState> = {
  name: 'ledger',
  prefix: 'pl',
  version: 1,
  description:
    'Per player and table: buy-ins, bets, results, commission owed and collected, cash-outs; entries.',
  tables,
  keyOf: byTable,
  initial: (tableId) => ({ position: 0, tableId, commissionMode: null }),
  evolve: evolveLedger,
};
