/**
 * CloseTable (admin): closes the table between rounds (an empty betting round is voided); CashOut stays open.
 * Players holding chips (or owing commission) keep the table open unless the pit closes it with `cashOutAll`,
 * which cashes every one of them out first, recorded as their own PlayerCashedOut events, at most
 * {@link MAX_CASH_OUT_ALL} of them.
 */
import { type Command, type CommandSpec, by, describe, find, refuse, shoeEnded } from '../../kernel';
import { stakesOnLayout } from '../../state';
import type { TableEvent } from '../../vocabulary';
import { cashedOut } from './cash-out';

/**
 * The most players a close cashes out at once (`cashOutAll`). A command's events are one append, which EventStoreDB
 * takes up to 1 MiB by default, and a PlayerCashedOut is about 1 kB at most (64-character player ids, the longest
 * actor id, Idempotency-Key and correlation id, the largest amounts): 500 of them take half of it. Past it the pit
 * cashes players out first (CashOut, one command each), then closes.
 */
export const MAX_CASH_OUT_ALL = 500;

type Data = { readonly cashOutAll: boolean };
export type CloseTable = Command<'CloseTable', Partial<Data>>;

export const closeTable: CommandSpec<
  'CloseTable',
  Data,
  {
    tableId: string;
    closed: true;
    cashedOut: { playerId: string; paid: number; commissionCollected: number }[];
  }
> = {
  type: 'CloseTable',
  roles: ['admin'],
  fields: ['cashOutAll'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: null,
  parse(data) {
    const v = data['cashOutAll'];
    if (v !== undefined && typeof v !== 'boolean') {
      return refuse('INVALID_COMMAND', `cashOutAll must be true or false, got ${describe(v)}`, {
        field: 'cashOutAll',
      });
    }
    return { cashOutAll: v === true };
  },
  decide({ cashOutAll }, ctx) {
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
    const holding = state.players.filter((p) => p.chips > 0 || p.commissionOwed > 0);
    if (holding.length > 0 && !cashOutAll) {
      return refuse(
        'PLAYERS_SEATED',
        `${holding.length} player(s) hold chips at this table: cash them out, or close with a cash-out of every player`,
        { players: holding.map((p) => p.playerId) },
      );
    }
    if (holding.length > MAX_CASH_OUT_ALL) {
      return refuse(
        'PLAYERS_SEATED',
        `${holding.length} players hold chips at this table, more than the ${MAX_CASH_OUT_ALL} a close cashes out ` +
          `at once: cash out ${holding.length - MAX_CASH_OUT_ALL} or more of them first (each on its own), then close ` +
          `with a cash-out of every player`,
        { players: holding.map((p) => p.playerId), cashOutAllMax: MAX_CASH_OUT_ALL },
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
    for (const player of holding) events.push(cashedOut(ctx, player));
    if (state.shoe !== null && !state.shoe.ended) events.push(shoeEnded(ctx, state.shoe, 'table-closed'));
    events.push({ type: 'TableClosed', data: { tableId: state.tableId ?? '', ...by(ctx) } });
    return events;
  },
  reply(events) {
    const d = find(events, 'TableClosed');
    const cashed = events.flatMap((e) =>
      e.type === 'PlayerCashedOut'
        ? [{ playerId: e.data.playerId, paid: e.data.paid, commissionCollected: e.data.commissionCollected }]
        : [],
    );
    return d && { tableId: d.tableId, closed: true as const, cashedOut: cashed };
  },
};
