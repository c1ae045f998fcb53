/** The edge monitor's tables (`em_`): names and definitions. */
import { type TableDef, int, real, text } from '../kernel/types';

export const EM_TABLES = 'em_tables';
export const EM_ALERTS = 'em_alerts';
export const EM_WAGERS = 'em_wagers';

export const WAGER_COUNTERS = ['bets', 'staked', 'paid', 'net'] as const;

export const edgeMonitorTables: readonly TableDef[] = [
  {
    name: EM_TABLES,
    doc: "One row per monitored table (a shoe game offering side bets): every offered bet's exact value on what is left in its shoe now.",
    primaryKey: ['table_id'],
    columns: [
      text('table_id', 'Table id'),
      int('shoe_no', 'The shoe in play, or NULL between shoes'),
      int('round_no', 'The round the values are for: the next one (or the one open)'),
      int('coup_in_shoe', 'Coups resolved from the shoe before that round'),
      int('cards_seen', 'Cards seen so far: the turned card and every card dealt (voided coups included)'),
      int(
        'cards_left',
        'Cards not seen (the burned and the cut-off ones included): the shoe the values are for',
      ),
      int('favourable', 'How many bets favour the player now'),
      text(
        'values_json',
        'Every offered bet: [{spot, paytable, ev, evExact, win, push, lose}] (ev: expected value per unit staked, pushes included)',
      ),
      text('computed_at', 'Time (`at`) of the event after which the values were computed'),
      int('position', 'Global position of that event'),
    ],
  },
  {
    name: EM_ALERTS,
    doc: 'One row per bet that favoured the player when a round opened: table, round, shoe, coup, spot, exact value.',
    primaryKey: ['table_id', 'round_no', 'spot'],
    indexes: [
      { name: 'day', columns: ['day', 'position'] },
      { name: 'position', columns: ['position'] },
    ],
    columns: [
      text('table_id', 'Table id'),
      int('round_no', 'The round opened while the bet was favourable'),
      text('spot', 'The bet'),
      int('seq', "The spot's place in display order (player 0, banker 1, tie 2, side bets after)"),
      int('shoe_no', 'Shoe'),
      int(
        'coup_in_shoe',
        'Coups resolved from the shoe before the round (the round deals coup coup_in_shoe + 1)',
      ),
      int('cards_seen', 'Cards seen before the round'),
      int('cards_left', 'Cards not seen'),
      text('paytable', 'A side bet: its paytable; else NULL'),
      real('ev', 'Expected value per unit staked (positive: the player is favoured)'),
      text('ev_exact', 'The same, exactly: numerator/denominator'),
      real('win_probability', 'Probability that the bet wins'),
      text('computed_at', 'When the values were computed (`at` of the coup, void or shoe start before)'),
      text('opened_at', 'When the round opened (BettingOpened `at`)'),
      text('day', 'UTC day of opened_at'),
      int('position', 'Global position of the BettingOpened event'),
    ],
  },
  {
    name: EM_WAGERS,
    doc: "Stakes settled on a bet while it was favourable (the round of an alert), per player: what a counter's play looks like. A correction of the settled coup moves them; a void counts them back to 0 (bets 0: no longer listed).",
    primaryKey: ['table_id', 'round_no', 'spot', 'player_id'],
    withoutRowid: true,
    counters: WAGER_COUNTERS,
    columns: [
      text('table_id', 'Table id'),
      int('round_no', 'The round of the alert'),
      text('spot', 'The bet'),
      text('player_id', 'Player id'),
      int('bets', 'Stakes settled (one per player, spot and round)'),
      int('staked', 'Staked (cents)'),
      int('paid', 'Paid back, stakes included (cents)'),
      int('net', 'paid - staked: what the player won'),
    ],
  },
];
