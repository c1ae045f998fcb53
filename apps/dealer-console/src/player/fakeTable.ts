/**
 * Test double of the service for the player page's component tests: a {@link PlayerApi} that runs every command
 * through the real pure decider (`@coup/table`'s decide/evolve/replyFor/tableView), so bets, limits, PLAYER_AND_BANKER,
 * rebet and the dealt coups are the table's own, with fixed seeds. Records each call.
 */
import {
  ONLINE_CROUPIER,
  ONLINE_RULES,
  decide,
  evolve,
  initialState,
  onlineCashier,
  onlineTableId,
  replyFor,
  tableView,
  type Actor,
  type Settlement,
  type TableCommand,
  type TableEvent,
  type TableState,
} from '@coup/table';
import { ApiError } from '../api';
import type { LedgerAccount, PlayerApi } from './playerApi';

const seedOf = (n: number) => n.toString(16).padStart(64, '0');

/** `rules`: the table's rules when it is opened (the online game's by default; a pit may open one with side bets). */
export function fakeTable(playerId = 'alice', rules: Record<string, unknown> = ONLINE_RULES) {
  const tableId = onlineTableId(playerId);
  let state: TableState = initialState;
  const events: TableEvent[] = [];
  const calls: string[] = [];
  let seeds = 1;
  let clock = Date.parse('2026-01-01T12:00:00.000Z');
  const me: Actor = { id: playerId, role: 'player' };
  const staff: Actor = { id: ONLINE_CROUPIER, role: 'dealer' };
  const cashier: Actor = { id: onlineCashier(playerId), role: 'admin' };

  function send(type: TableCommand['type'], data: unknown, actor: Actor): unknown {
    clock += 1000;
    const command = { type, data, meta: { actor, at: new Date(clock).toISOString() } } as TableCommand;
    const d = decide(command, state);
    if (!d.ok) throw new ApiError(d.error.code === 'BETS_IN_PLAY' ? 409 : 400, d.error.code, d.error.message);
    for (const e of d.events) {
      state = evolve(state, e);
      events.push(e);
    }
    return replyFor(command, d.events, state);
  }
  const view = () => tableView(state, me);
  const listeners = new Set<(e: TableEvent) => void>();
  const api: PlayerApi = {
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async open() {
      calls.push('open');
      if (state.phase === 'none') send('OpenTable', { tableId, rules }, cashier);
      if (state.phase === 'idle' || state.phase === 'ready')
        send('OpenBetting', { seed: seedOf(seeds++) }, staff);
      return { tableId, revision: events.length, view: view() };
    },
    async view() {
      return view();
    },
    async buyIn(_t, amount) {
      calls.push(`buyIn ${amount}`);
      return send('BuyIn', { playerId, amount }, cashier);
    },
    async exit() {
      calls.push('exit');
      try {
        return send('CashOut', { playerId }, cashier) as { paid: number };
      } catch (e) {
        if ((e as ApiError).code === 'BETS_IN_PLAY')
          throw new ApiError(
            409,
            'COUP_INCOMPLETE',
            'a coup is incomplete: DEAL it or CLEAR your bets, then exit',
          );
        throw e;
      }
    },
    async bet(_t, roundNo, p, spot, amount) {
      calls.push(`bet ${spot} ${amount}`);
      return send('PlaceBet', { roundNo, playerId: p, spot, amount }, me) as never;
    },
    async clear(_t, roundNo, p) {
      calls.push('clear');
      return send('ClearBets', { roundNo, playerId: p }, me);
    },
    async rebet(_t, roundNo, p) {
      calls.push('rebet');
      return send('Rebet', { roundNo, playerId: p }, me);
    },
    async deal(_t, roundNo) {
      calls.push('deal');
      return send('Deal', { roundNo, nextSeed: seedOf(seeds++) }, me) as never;
    },
    async ledger(p, t) {
      return { accounts: [ledgerAccount(events, state, p, t)] };
    },
  };
  /**
   * A supervisor's amendment of the last coup settled, pushed to the page: `tie` corrects it to a tie (main bets
   * pushed, a tie bet paid 8 to 1), `void` voids it (every stake returned). Made up here (on a personal table the
   * next betting opens with the deal, which closes the correction window), recorded and applied to the chips as the
   * service would.
   */
  function amend(kind: 'tie' | 'void'): TableEvent {
    const last = state.lastResult;
    if (!last) throw new Error('no coup settled yet');
    const by = { at: new Date((clock += 1000)).toISOString(), by: 'sue', role: 'supervisor' as const };
    const reversed = last.settlements;
    const stakes = reversed.reduce((n, x) => n + x.amount, 0);
    const settlements = reversed.map((x) => ({
      ...x,
      result: x.spot === 'tie' ? ('win' as const) : ('push' as const),
      paid: x.spot === 'tie' ? x.amount * 9 : x.amount,
      commission: 0,
    }));
    const event = (
      kind === 'void'
        ? {
            type: 'SettledCoupVoided',
            data: {
              roundNo: last.roundNo,
              shoeNo: last.shoeNo,
              reason: 'cards exposed',
              reversed,
              returned: [{ playerId, amount: stakes }],
              ...by,
            },
          }
        : {
            type: 'SettledCoupCorrected',
            data: {
              ...last,
              ...{ playerTotal: 6, bankerTotal: 6, outcome: 'tie', natural: false },
              index: 0,
              oldCard: last.playerCards[0],
              newCard: last.playerCards[0],
              cardsUsed: last.playerCards.length + last.bankerCards.length,
              reason: 'first card misread',
              reversed,
              commissionMode: 'deducted',
              settlements,
              ...by,
            },
          }
    ) as TableEvent;
    const paid = (xs: readonly { paid: number }[]) => xs.reduce((n, x) => n + x.paid, 0);
    const delta = (kind === 'void' ? stakes : paid(settlements)) - paid(reversed);
    events.push(event);
    state = {
      ...state,
      players: state.players.map((p) => (p.playerId === playerId ? { ...p, chips: p.chips + delta } : p)),
      lastResult:
        kind === 'void' ? null : { ...last, outcome: 'tie', playerTotal: 6, bankerTotal: 6, settlements },
    };
    for (const l of listeners) l(event);
    return event;
  }
  return {
    api,
    calls,
    events,
    amend,
    state: () => state,
    /** Events as the player sees them (seeds only once revealed). */
    playerEvents: () =>
      events.map((e) => (e.type === 'ShoeStarted' ? { ...e, data: { ...e.data, seed: null } } : e)),
  };
}

/** The ledger's totals folded from the fake's events (the real one is a read model of the same events). */
function ledgerAccount(
  events: readonly TableEvent[],
  state: TableState,
  p: string,
  t: string,
): LedgerAccount {
  let bought = 0;
  let bets = 0;
  let staked = 0;
  let net = 0;
  let commission = 0;
  let cashedOut = 0;
  const results = { win: 0, lose: 0, push: 0 };
  for (const e of events) {
    if (e.type === 'PlayerBoughtIn' && e.data.playerId === p) bought += e.data.amount;
    if (e.type === 'BetPlaced' && e.data.playerId === p) {
      bets += 1;
      staked += e.data.amount;
    }
    if (e.type === 'PlayerCashedOut' && e.data.playerId === p) cashedOut += e.data.paid;
    // a settlement counts once it is made, and no more once an amendment reverses it
    const count = (settlements: readonly Settlement[], sign: 1 | -1) => {
      for (const s of settlements.filter((x) => x.playerId === p)) {
        results[s.result] += sign;
        net += sign * (s.paid - s.amount);
        commission += sign * s.commission;
      }
    };
    if (e.type === 'CoupResolved') count(e.data.settlements, 1);
    if (e.type === 'SettledCoupCorrected' || e.type === 'SettledCoupVoided') count(e.data.reversed, -1);
    if (e.type === 'SettledCoupCorrected') count(e.data.settlements, 1);
  }
  return {
    tableId: t,
    boughtIn: bought,
    bets,
    staked,
    wins: results.win,
    losses: results.lose,
    pushes: results.push,
    netResult: net,
    commissionDeducted: commission,
    cashedOut,
    chips: state.players.find((x) => x.playerId === p)?.chips ?? 0,
  };
}
