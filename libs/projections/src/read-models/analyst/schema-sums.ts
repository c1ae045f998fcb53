/**
 * The analysts' summary tables (`an_sum_*`): the fact tables' sums per gaming day, table and shift (and dealer, or
 * bet type), kept by the fold as the facts come, so that a report over months or a year reads thousands of rows
 * instead of millions. They hold the same figures as the facts summed (the reports answer the same from either).
 */
import { type TableDef, int, real, text } from '../kernel/types';

export const AN_SUM_HOLD = 'an_sum_hold';
export const AN_SUM_BET_TYPES = 'an_sum_bet_types';

const cell = [
  text('gaming_day', 'Gaming day (YYYY-MM-DD)'),
  text('table_id', 'Table id'),
  text('shift', 'Shift'),
];

const facts = (what: string, none: string) =>
  int('facts', `Rows of ${what} summed here (0: none left, ${none})`);

export const sumTables: readonly TableDef[] = [
  {
    name: AN_SUM_HOLD,
    doc: "The hold report's sums per gaming day, table, shift and dealer: an_fact_coups (voided coups left out), an_fact_cash and an_fact_amendments added up, each by its own gaming day, shift and dealer_id. The dealer is '' where the facts have NULL.",
    primaryKey: ['gaming_day', 'table_id', 'shift', 'dealer_id'],
    withoutRowid: true,
    coalesce: true,
    columns: [
      ...cell,
      text('dealer_id', "The facts' dealer_id ('' for NULL: cash moved before the table's first round)"),
      int('coups', 'Coups settled, voided ones left out'),
      int('drop_amount', 'Cash bought in (cents)'),
      int('cashed_out', 'Cash paid out (cents)'),
      int('handle', 'Stakes settled (cents)'),
      int('win', "The house's actual win (cents)"),
      int('commission', 'Banker commission (cents)'),
      real('theo_win', 'Theoretical win (cents, fractional)'),
      int('voids', 'Rounds voided, before or after they settled'),
      int('corrections', 'Cards corrected, before or after the coup settled'),
      facts(
        'an_fact_coups (not voided), an_fact_cash and an_fact_amendments',
        'e.g. its one coup was voided',
      ),
    ],
  },
  {
    name: AN_SUM_BET_TYPES,
    doc: 'The bet-type report\'s sums per gaming day, table, shift and bet type: an_fact_bets added up. "Live" stakes are those of coups not voided.',
    primaryKey: ['gaming_day', 'table_id', 'shift', 'bet_type'],
    withoutRowid: true,
    coalesce: true,
    columns: [
      ...cell,
      text('bet_type', 'The bet type (see an_dim_bet_types)'),
      int('coups', 'Coups with a live stake on the bet type'),
      int('bets', 'Live stakes'),
      int('handle', 'Live stakes (cents)'),
      int('paid', 'Paid back on live stakes (cents)'),
      int('win', "The house's actual win on live stakes (cents)"),
      int('commission', 'Banker commission on live stakes (cents)'),
      real('theo_win', 'Theoretical win on live stakes (cents, fractional)'),
      int('voided_bets', 'Stakes of coups voided after they settled'),
      int('corrected_bets', 'Stakes of coups corrected after they settled'),
      facts('an_fact_bets', 'e.g. a correction took the stakes away'),
    ],
  },
];
