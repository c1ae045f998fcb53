/** The ledger's tables (`pl_`): names, counters and definitions. */
import { type TableDef, int, text } from '../kernel/types';

export const PL_ACCOUNTS = 'pl_accounts';
export const PL_ENTRIES = 'pl_entries';

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
  bets: 'Bets placed (rebets included), each counted once whatever became of it: settled, cleared or voided',
  staked: 'Their stakes (cents): what came back by clears and voids is in cleared and voided_returned',
  cleared: 'Stakes taken back by clearing bets (cents)',
  wins: 'Settlements in force that won (one per player, spot and coup)',
  losses: 'Settlements in force that lost',
  pushes: 'Settlements in force that pushed (player/banker on a tie)',
  paid: 'Paid back by the settlements in force, stakes included (cents)',
  net_result:
    'Sum of (paid - stake - box commission owed) over the settlements in force: what the player won (negative: lost)',
  commission_deducted: 'Commission deducted from banker wins (deducted tables)',
  commission_owed: 'Box commission currently owed (owed less collected)',
  commission_collected: 'Box commission collected at cash-out',
  voided_returned: 'Stakes returned by voided rounds and voided settled coups',
  cash_outs: 'Number of cash-outs',
  cashed_out: 'Cash paid at cash-out (cents)',
  chips: 'Chips at the table now (cents)',
};

export const ledgerTables: readonly TableDef[] = [
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
    doc: "One row per movement of a player's money: buy-in, bet, clear, settlement, reversal of a settlement, void return, cash-out.",
    primaryKey: ['player_id', 'position', 'seq'],
    withoutRowid: true,
    columns: [
      text('player_id', 'Player id'),
      int('position', 'Global position of the event'),
      int('seq', 'Entry number within the event (a coup settles several bets)'),
      text('table_id', 'Table id'),
      text('at', 'Time (ISO)'),
      text(
        'kind',
        "'buy-in' | 'bet' | 'clear' | 'settlement' | 'reversal' (a settlement reversed by a correction or void of the settled coup) | 'void-return' | 'cash-out'",
      ),
      int('round_no', 'Round, when the entry belongs to one'),
      text('spot', 'Bets and settlements: the spot (player, banker, tie or a side bet)'),
      text('paytable', "Bets and settlements on a side bet: its paytable (e.g. '25-to-1'); else NULL"),
      int('amount', 'The amount: bought in, staked, returned, or paid (a reversal: the paid it takes back)'),
      int('chips_delta', "Change to the player's chips at the table"),
      text(
        'result',
        "Settlements and reversals: 'win' | 'lose' | 'push' (a reversal: the result it reverses)",
      ),
      int(
        'commission',
        'Commission deducted/owed (settlements; a reversal: the commission it takes back) or collected (cash-out)',
      ),
      text('by', 'Who did it (actor id); NULL on the settlements of a coup as dealt'),
      text('role', 'Their role'),
      text(
        'reason',
        "Why, as the supervisor gave it: a void's returns, and a settled coup's reversals and new settlements; else NULL",
      ),
    ],
  },
];
