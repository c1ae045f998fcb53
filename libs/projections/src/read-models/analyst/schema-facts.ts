/** The analysts' fact tables (`an_fact_*`): one row per coup, bet, cash movement, correction or void. */
import { type ColumnDef, type TableDef, int, real, text } from '../kernel/types';

export const AN_COUPS = 'an_fact_coups';
export const AN_BETS = 'an_fact_bets';
export const AN_CASH = 'an_fact_cash';
export const AN_AMENDMENTS = 'an_fact_amendments';

/** Where a fact falls in time: every fact table has these. */
export const placed = (what: string): ColumnDef[] => [
  text('at', `When ${what} (ISO-8601 UTC instant, the command's time)`),
  int('at_ms', '`at` in milliseconds since 1970-01-01 UTC (for arithmetic on times)'),
  text('gaming_day', 'The gaming day of `at` (YYYY-MM-DD; see an_dim_gaming_days)'),
  text('shift', 'The shift of `at` (see an_dim_shifts)'),
  int('hour', "The local hour of `at` in the gaming day's time zone, 0 to 23"),
];

const money = {
  handle: 'Stakes settled (cents)',
  paid: 'Paid back to the players, stakes included, deducted commission taken off (cents)',
  commission: 'Banker commission: deducted from the pay-out, or owed to the commission box (cents)',
  win: "The house's actual win: stakes - paid + commission owed to the box (cents; negative: the house lost)",
  theo: "Theoretical win: the sum of stake x the bet type's exact house edge (cents, fractional)",
  theoVar:
    'Variance of the actual win (cents squared): per bet type, (stakes on it)^2 x its variance per unit staked',
};

const status = text(
  'status',
  "'settled' (as dealt), 'corrected' (a card corrected after it settled: the row holds the result in force) or 'voided' (voided after it settled: counts in no total)",
);

export const factTables: readonly TableDef[] = [
  {
    name: AN_COUPS,
    doc: 'One row per coup dealt to a result: its cards and outcome, who dealt it, and the money on it (sums of its bets in an_fact_bets). A coup corrected or voided after it settled is updated in place.',
    primaryKey: ['table_id', 'round_no'],
    indexes: [{ name: 'day', columns: ['gaming_day'] }],
    columns: [
      text('table_id', 'Table id'),
      int('round_no', "Round number at the table (the coup's key with table_id)"),
      int('shoe_no', 'Shoe number at the table'),
      int('rules_version', "The table's rules in force (see an_dim_tables)"),
      text('game', "Game mode: 'commission' | 'no-commission' | 'ez'"),
      int('decks', 'Decks in the shoe'),
      text('dealer_id', 'The dealer of the round: who opened its betting (see an_dim_staff)'),
      text('dealer_role', "Their role ('dealer' or 'supervisor')"),
      text('opened_at', "When the round's betting opened (ISO)"),
      int('opened_ms', 'The same in milliseconds since the epoch'),
      ...placed('the coup settled'),
      text('outcome', "'player' | 'banker' | 'tie'"),
      int('player_total', "The player hand's total"),
      int('banker_total', "The banker hand's total"),
      int('natural', '1 when either hand had a natural (8 or 9 on two cards)'),
      text('player_cards', "The player hand's cards, e.g. '9h Qc'"),
      text('banker_cards', "The banker hand's cards"),
      int('cards', 'Cards dealt (4 to 6)'),
      status,
      int('corrections', 'Corrections of a card after the coup settled'),
      int('bets', 'Stakes settled (one per player and bet type)'),
      int('players', 'Players with a stake'),
      int('handle', money.handle),
      int('paid', money.paid),
      int('commission', money.commission),
      int('win', money.win),
      real('theo_win', money.theo),
      real('theo_var', money.theoVar),
    ],
  },
  {
    name: AN_BETS,
    doc: "One row per settled stake: a player's stake on one bet type in one coup, with its settlement in force and the bet type's exact edge and variance.",
    primaryKey: ['table_id', 'round_no', 'player_id', 'spot'],
    indexes: [
      { name: 'day', columns: ['gaming_day'] },
      { name: 'player', columns: ['player_id', 'gaming_day'] },
    ],
    columns: [
      text('table_id', 'Table id'),
      int('round_no', 'Round number (see an_fact_coups)'),
      text('player_id', 'Player id (see an_dim_players)'),
      text('spot', 'The spot: player, banker, tie or a side bet'),
      int('shoe_no', 'Shoe number'),
      int('rules_version', "The table's rules in force"),
      text('bet_type', "The bet type (see an_dim_bet_types): e.g. 'banker:commission', 'tie:8-to-1'"),
      text('paytable', "A side bet's paytable (e.g. '25-to-1'); NULL on the main spots"),
      text('game', "Game mode: 'commission' | 'no-commission' | 'ez'"),
      int('decks', 'Decks in the shoe'),
      text('commission_mode', "'deducted' (taken from the pay-out) or 'box' (owed, collected at cash-out)"),
      text('dealer_id', 'The dealer of the round'),
      int('opened_ms', "When the round's betting opened (ms since the epoch)"),
      ...placed('the bet settled'),
      int('stake', 'The stake (cents)'),
      text('result', "'win' | 'lose' | 'push'"),
      int('paid', 'Paid back, stake included, deducted commission taken off (cents)'),
      int('commission', money.commission),
      int('net', "The player's net result: paid - stake - commission owed to the box (cents)"),
      int('win', "The house's actual win on the bet: -net (cents)"),
      real('edge', "The bet type's exact house edge per unit staked (0.0106 is 1.06%)"),
      real('variance', "The variance of the player's net result per unit staked"),
      real('theo_win', 'Theoretical win: stake x edge (cents, fractional)'),
      real('theo_var', 'Variance of the win on the bet: stake^2 x variance (cents squared)'),
      status,
    ],
  },
  {
    name: AN_CASH,
    doc: 'One row per cash movement at a table: a buy-in (cash to chips: the drop) or a cash-out (chips to cash).',
    primaryKey: ['position'],
    indexes: [{ name: 'day', columns: ['gaming_day'] }],
    columns: [
      int('position', "The event's global position in the log (the row's key)"),
      text('table_id', 'Table id'),
      text('player_id', 'Player id'),
      text('kind', "'buy-in' | 'cash-out'"),
      int('amount', 'Cash: bought in (the drop), or paid out (cents)'),
      int(
        'chips',
        'Chips: given for the buy-in, or given up at the cash-out, collected commission included (cents)',
      ),
      int('commission_collected', 'Cash-outs: box commission collected from the chips (cents)'),
      int('commission_owed', 'Cash-outs: box commission still owed after it (cents)'),
      text('cashier_id', 'Who moved the cash (actor id)'),
      text('cashier_role', 'Their role'),
      text('dealer_id', "The table's dealer at the time: who opened its last round (NULL before any round)"),
      ...placed('the cash moved'),
    ],
  },
  {
    name: AN_AMENDMENTS,
    doc: 'One row per correction or void: a card corrected before the coup settled, a round voided before it settled, a settled coup corrected or voided (its coup and bets rows then hold the result in force).',
    primaryKey: ['position'],
    indexes: [{ name: 'day', columns: ['gaming_day'] }],
    columns: [
      int('position', "The event's global position in the log (the row's key)"),
      text('table_id', 'Table id'),
      int('round_no', 'Round number'),
      int('shoe_no', 'Shoe number'),
      text(
        'kind',
        "'card-correction' (before the coup settled) | 'round-void' (before it settled) | 'settled-correction' | 'settled-void'",
      ),
      text('reason', "The supervisor's reason (voids and settled corrections)"),
      text('by_id', 'Who did it (actor id; see an_dim_staff)'),
      text('by_role', 'Their role'),
      text('dealer_id', 'The dealer of the round'),
      int('card_index', 'Corrections: the index of the corrected card in dealing order'),
      text('old_card', 'Corrections: the card as entered'),
      text('new_card', 'Corrections: the card as corrected'),
      int('returned', 'Voids: the stakes given back (cents)'),
      int('win_before', "Settled coups: the house's actual win on the coup before (cents)"),
      int('win_after', "Settled coups: the house's actual win after (cents; 0 once voided)"),
      text('coup_gaming_day', 'Settled coups: the gaming day of the coup amended'),
      ...placed('it was done'),
    ],
  },
];
