/** CloseTable (admin): closes the table between rounds (an empty betting round is voided); CashOut stays open. */
import { type Command, type CommandSpec, by, find, refuse, shoeEnded } from '../../kernel';
import { stakesOnLayout } from '../../state';
import type { TableEvent } from '../../vocabulary';

export type CloseTable = Command<'CloseTable', Readonly<Record<string, never>>>;

export const closeTable: CommandSpec<
  'CloseTable',
  Readonly<Record<string, never>>,
  { tableId: string; closed: true }
> = {
  type: 'CloseTable',
  roles: ['admin'],
  fields: [],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: null,
  parse: () => ({}),
  decide(_command, ctx) {
    const { state } = ctx;
    const events: TableEvent[] = [];
    const round = state.round;
    if (
      state.phase === 'dealing' ||
      (state.phase === 'betting' && round !== null && stakesOnLayout(state).length > 0)
    ) {
      return refuse(
        'WRONG_PHASE',
        `A table closes only between rounds (phase ${state.phase}, bets on the layout)`,
        {
          phase: state.phase,
        },
      );
    }
    if (state.phase === 'betting' && round !== null) {
      events.push({
        type: 'RoundVoided',
        data: {
          roundNo: round.roundNo,
          reason: 'Table closed',
          returned: [],
          cardsDealt: 0,
          ...by(ctx),
        },
      });
    }
    if (state.shoe !== null && !state.shoe.ended) events.push(shoeEnded(ctx, state.shoe, 'table-closed'));
    events.push({ type: 'TableClosed', data: { tableId: state.tableId ?? '', ...by(ctx) } });
    return events;
  },
  reply(events) {
    const d = find(events, 'TableClosed');
    return d && { tableId: d.tableId, closed: true as const };
  },
};
