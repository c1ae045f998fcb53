/** The statistics tables (`st_`): counters per table and day and per shoe, and per bet type and day. */
import { type TableDef, int, text } from '../kernel/types';

export const ST_DAILY = 'st_daily';
export const ST_SHOES = 'st_shoes';
export const ST_BETS = 'st_bets';
export const ST_BET_RESULTS = 'st_bet_results';

export const STATS_COUNTERS = [
  'coups',
  'player_wins',
  'banker_wins',
  'ties',
  'naturals',
  'voids',
  'handle_player',
  'handle_banker',
  'handle_tie',
  'paid_player',
  'paid_banker',
  'paid_tie',
  'commission',
  'box_commission',
] as const;

export type StatsCounter = (typeof STATS_COUNTERS)[number];

/** The counters of a bet type's day row. */
export const BET_COUNTERS = [
  'coups',
  'bets',
  'wins',
  'pushes',
  'losses',
  'handle',
  'paid',
  'commission',
  'box_commission',
] as const;

export type BetCounter = (typeof BET_COUNTERS)[number];

const DOCS: Readonly<Record<StatsCounter, string>> = {
  coups: 'Coups resolved',
  player_wins: 'Coups won by player',
  banker_wins: 'Coups won by banker',
  ties: 'Ties',
  naturals: 'Coups with a natural',
  voids: 'Rounds voided',
  handle_player: 'Stakes settled on player (cents)',
  handle_banker: 'Stakes settled on banker (cents)',
  handle_tie: 'Stakes settled on tie (cents)',
  paid_player: 'Paid back on player bets, stakes included (cents)',
  paid_banker: 'Paid back on banker bets, stakes included, commission deducted (cents)',
  paid_tie: 'Paid back on tie bets, stakes included (cents)',
  commission: 'Commission deducted or owed (cents)',
  box_commission: 'Of which owed to the commission box (not deducted from paid)',
};

const BET_DOCS: Readonly<Record<BetCounter, string>> = {
  coups: 'Coups resolved while the table offered the bet',
  bets: 'Stakes settled on the bet (one per player and coup)',
  wins: 'Of which won',
  pushes: 'Of which pushed',
  losses: 'Of which lost',
  handle: 'Stakes settled (cents)',
  paid: 'Paid back, stakes included, commission deducted (cents)',
  commission: 'Commission deducted or owed (cents)',
  box_commission: 'Of which owed to the commission box (not deducted from paid)',
};

const counterColumns = STATS_COUNTERS.map((name) => int(name, DOCS[name]));

const rules = [
  int('decks', "The table's decks"),
  int('tie_pays', 'Tie pays 8 or 9 to 1'),
  text('commission_mode', "'deducted' | 'box'"),
];
const game = text('game', "The table's game mode: 'commission' | 'no-commission' | 'ez'");

export const statsTables: readonly TableDef[] = [
  {
    name: ST_DAILY,
    doc: 'Counters per table and UTC day (of the coup time), main bets. Sum rows for a table, a date range, or overall.',
    primaryKey: ['table_id', 'day'],
    counters: STATS_COUNTERS,
    indexes: [{ name: 'day', columns: ['day'] }],
    columns: [
      text('table_id', 'Table id'),
      text('day', 'UTC day, YYYY-MM-DD'),
      ...rules,
      ...counterColumns,
      game,
    ],
  },
  {
    name: ST_SHOES,
    doc: 'Counters per table and shoe, main bets.',
    primaryKey: ['table_id', 'shoe_no'],
    counters: STATS_COUNTERS,
    columns: [
      text('table_id', 'Table id'),
      int('shoe_no', 'Shoe number'),
      text('first_day', 'UTC day of the first coup counted'),
      ...rules,
      ...counterColumns,
      game,
    ],
  },
  {
    name: ST_BETS,
    doc: 'Counters per table, UTC day and bet type (every spot the table offers, side bets included): coups, bets, handle, paid.',
    primaryKey: ['table_id', 'day', 'spot'],
    counters: BET_COUNTERS,
    indexes: [{ name: 'day', columns: ['day'] }],
    columns: [
      text('table_id', 'Table id'),
      text('day', 'UTC day, YYYY-MM-DD'),
      text('spot', 'The spot: player, banker, tie or a side bet'),
      text('paytable', 'A side bet: its paytable at this table; NULL on the main spots'),
      game,
      ...rules,
      ...BET_COUNTERS.map((name) => int(name, BET_DOCS[name])),
    ],
  },
  {
    name: ST_BET_RESULTS,
    doc: "Per table, UTC day and bet type: how many coups ended each of the bet's ways (whether or not anyone bet it).",
    primaryKey: ['table_id', 'day', 'spot', 'result'],
    counters: ['coups'],
    columns: [
      text('table_id', 'Table id'),
      text('day', 'UTC day, YYYY-MM-DD'),
      text('spot', 'The spot'),
      text(
        'result',
        "How the bet ended: 'lose', 'push', or 'win:<num>/<den>' paying num/den to 1 (':commission' when 5% is taken)",
      ),
      int('coups', 'Coups that ended the bet so'),
    ],
  },
];
