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
  const api: PlayerApi = {
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
  return {
    api,
    calls,
    events,
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
    if (e.type === 'CoupResolved')
      for (const s of e.data.settlements.filter((x) => x.playerId === p)) {
        results[s.result] += 1;
        net += s.paid - s.amount;
        commission += s.commission;
      }
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
