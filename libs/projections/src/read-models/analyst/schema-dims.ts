/** The analysts' dimension tables (`an_dim_*`): tables and their rules, players, staff, shoes, days, shifts, bet types. */
import { type TableDef, int, real, text } from '../kernel/types';

export const AN_TABLES = 'an_dim_tables';
export const AN_PLAYERS = 'an_dim_players';
export const AN_STAFF = 'an_dim_staff';
export const AN_SHOES = 'an_dim_shoes';
export const AN_DAYS = 'an_dim_gaming_days';
export const AN_SHIFTS = 'an_dim_shifts';
export const AN_BET_TYPES = 'an_dim_bet_types';

export const PLAYER_COUNTERS = ['buy_ins', 'bought_in', 'cash_outs', 'cashed_out'] as const;
export const STAFF_COUNTERS = [
  'tables',
  'shoes_started',
  'rounds_opened',
  'amendments',
  'cash_movements',
] as const;

export const dimTables: readonly TableDef[] = [
  {
    name: AN_TABLES,
    doc: 'One row per table and rules version: the rules in force from an opening of the table (facts carry rules_version).',
    primaryKey: ['table_id', 'rules_version'],
    columns: [
      text('table_id', 'Table id'),
      int('rules_version', "1 for the table's first opening, then one more each time it opens again"),
      int('online', "1 for a player's own online table (online-<playerId>)"),
      text('opened_at', 'When the table opened (ISO)'),
      text('opened_by', 'Who opened it'),
      text('closed_at', 'When it closed (NULL while open)'),
      text('closed_by', 'Who closed it'),
      text('game', "Game mode: 'commission' | 'no-commission' | 'ez'"),
      text('dealing', "'rng' (dealt from a seeded shuffle) | 'live' (cards entered as dealt)"),
      text('shuffle', "'shoe' (one shuffle per shoe) | 'every-coup' (a fresh shuffle each coup)"),
      text('dealt_by', "'dealer' | 'player' (a single-player online table)"),
      int('decks', 'Decks in the shoe'),
      int('tie_pays', 'Tie pays 8 or 9 to 1'),
      text('commission_mode', "'deducted' | 'box'"),
      text(
        'side_bets',
        "The side bets offered with their paytables, e.g. 'big:0.54-to-1,playerPair:11-to-1'",
      ),
      text('rules_json', 'Every rule as recorded when the table opened (JSON: limits, chips, timers...)'),
    ],
  },
  {
    name: AN_PLAYERS,
    doc: 'One row per player: when and where first seen, and the cash they moved at every table.',
    primaryKey: ['player_id'],
    counters: PLAYER_COUNTERS,
    columns: [
      text('player_id', 'Player id'),
      text('first_at', 'Their first buy-in (ISO)'),
      text('first_table_id', 'At which table'),
      text('first_gaming_day', 'On which gaming day'),
      int('buy_ins', 'Buy-ins'),
      int('bought_in', 'Cash turned into chips (cents)'),
      int('cash_outs', 'Cash-outs'),
      int('cashed_out', 'Cash paid out (cents)'),
    ],
  },
  {
    name: AN_STAFF,
    doc: "One row per staff member and role (dealers, supervisors, cashiers; the online game's system actors), from who recorded each event: what they did.",
    primaryKey: ['staff_id', 'role'],
    counters: STAFF_COUNTERS,
    columns: [
      text('staff_id', 'Actor id (a staff account, or a system actor such as online-croupier)'),
      text('role', "'admin' | 'dealer' | 'supervisor'"),
      text('first_at', 'First seen (ISO)'),
      text('first_table_id', 'At which table'),
      int('tables', 'Tables opened or closed'),
      int('shoes_started', 'Shoes started'),
      int('rounds_opened', "Rounds opened: the rounds they dealt (facts' dealer_id)"),
      int('amendments', 'Corrections and voids made'),
      int('cash_movements', 'Buy-ins and cash-outs handled'),
    ],
  },
  {
    name: AN_SHOES,
    doc: 'One row per shoe: how it was dealt, when it started and ended, its coups.',
    primaryKey: ['table_id', 'shoe_no'],
    coalesce: true,
    columns: [
      text('table_id', 'Table id'),
      int('shoe_no', 'Shoe number at the table'),
      int('rules_version', "The table's rules in force"),
      text('dealing', "'rng' | 'live'"),
      text('shuffle', "'shoe' | 'every-coup'"),
      int('decks', 'Decks'),
      int('cards', 'Cards in the shoe'),
      int('cut_card', 'Cards behind the cut card (NULL: none)'),
      text('commitment', 'rng: sha256 of the seed, published before any bet'),
      text('started_at', 'When it started (ISO)'),
      text('started_by', 'Who started it'),
      text('gaming_day', 'The gaming day it started'),
      text('ended_at', 'When it ended (NULL: in play)'),
      text('end_reason', "'cut-card' | 'every-coup' | 'supervisor' | 'table-closed' | 'exhausted'"),
      int('coups', 'Coups resolved from it (when ended)'),
    ],
  },
  {
    name: AN_DAYS,
    doc: 'One row per gaming day with activity: its span in UTC under the configured cut-over and time zone.',
    primaryKey: ['gaming_day'],
    coalesce: true,
    columns: [
      text('gaming_day', 'The gaming day, YYYY-MM-DD (the local date its span starts on)'),
      text('starts_at', 'Its first instant (ISO UTC): the cut-over in local time'),
      text('ends_at', 'The first instant of the next gaming day (ISO UTC)'),
      real('hours', 'Its length in hours (23 or 25 across a DST change)'),
      int('weekday', "The gaming day's weekday, 1 (Monday) to 7 (Sunday)"),
      text('month', 'YYYY-MM'),
      text('time_zone', 'The IANA time zone of the gaming day'),
      text('cutover', 'The local time of day it starts, HH:MM'),
    ],
  },
  {
    name: AN_SHIFTS,
    doc: 'The configured shifts: each starts at a local time of day and runs until the next one starts.',
    primaryKey: ['shift'],
    coalesce: true,
    columns: [
      text('shift', 'Shift name'),
      int('ordinal', 'Its order in the day (1 for the earliest start)'),
      text('starts', 'Local start time, HH:MM'),
      text('ends', 'Local end time (the next shift starts), HH:MM'),
      text('time_zone', 'The IANA time zone'),
    ],
  },
  {
    name: AN_BET_TYPES,
    doc: "One row per bet type and decks offered at some table: the exact house edge and variance from the engine's odds (full enumeration with card removal).",
    primaryKey: ['bet_type', 'decks'],
    coalesce: true,
    columns: [
      text(
        'bet_type',
        "The bet type: the spot and what it pays, e.g. 'player', 'banker:ez', 'tie:9-to-1', 'super6:15-to-1'",
      ),
      int('decks', 'Decks in the shoe'),
      text('spot', 'The spot'),
      text('paytable', "A side bet's paytable; NULL on the main spots"),
      text('label', 'A name for people'),
      real('edge', 'House edge per unit staked, pushes counted as coups (theoretical win = stake x edge)'),
      real('variance', "Variance of the player's net result per unit staked"),
      real('p_win', 'Probability the bet wins'),
      real('p_push', 'Probability it pushes'),
      real('p_lose', 'Probability it loses'),
    ],
  },
];
