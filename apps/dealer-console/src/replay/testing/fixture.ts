/**
 * Test fixture: a live table played by the real decider, and the replay answer the service would give for one of
 * its hands (the table before the hand, then each event with the view after it, folded from the whole history).
 */
import {
  type Role,
  type TableCommand,
  type TableEvent,
  type TableState,
  decide,
  evolve,
  initialState,
  tableView,
} from '@coup/table';
import type { Check, HandReplay, HandVerification } from '@coup/projections/wire';

type Cmd = { type: TableCommand['type']; data: unknown; role?: Role; by?: string };

/** Runs the commands; returns every event with its revision and the round each hand covers. */
export function play(commands: readonly Cmd[]): { events: TableEvent[]; state: TableState } {
  let state = initialState;
  const events: TableEvent[] = [];
  commands.forEach((c, i) => {
    const role: Role = c.role ?? (c.type === 'OpenTable' || c.type === 'BuyIn' ? 'admin' : 'dealer');
    const at = new Date(Date.UTC(2026, 10, 29, 12, 0, i)).toISOString();
    const d = decide(
      { type: c.type, data: c.data, meta: { actor: { id: c.by ?? `${role}-1`, role }, at } } as TableCommand,
      state,
    );
    if (!d.ok) throw new Error(`${c.type}: ${d.error.code} ${d.error.message}`);
    for (const e of d.events) {
      state = evolve(state, e);
      events.push(e);
    }
  });
  return { events, state };
}

/** A live round: betting opened, alice's $10 on banker (and bob's $5 on player), betting closed, the cards dealt. */
function liveRound(n: number, cards: readonly string[], bob = true): Cmd[] {
  return [
    { type: 'OpenBetting', data: {} },
    { type: 'PlaceBet', data: { roundNo: n, playerId: 'alice', spot: 'banker', amount: 1000 } },
    ...(bob
      ? [{ type: 'PlaceBet', data: { roundNo: n, playerId: 'bob', spot: 'player', amount: 500 } } as Cmd]
      : []),
    { type: 'CloseBetting', data: { roundNo: n } },
    ...cards.map((card): Cmd => ({ type: 'DealCard', data: { roundNo: n, card } })),
  ];
}

/** Two coups on a live table: round 1 (player's third card) and round 2 (a natural). */
export function liveTable(): TableEvent[] {
  const round = (n: number, cards: string[]) => liveRound(n, cards);
  return play([
    { type: 'OpenTable', data: { tableId: 'T1', rules: { dealing: 'live' } } },
    { type: 'BuyIn', data: { playerId: 'alice', amount: 100_000 } },
    { type: 'BuyIn', data: { playerId: 'bob', amount: 50_000 } },
    { type: 'StartShoe', data: { firstCard: '5h' } },
    ...round(1, ['2c', '7d', '3s', 'Th', '9c']),
    ...round(2, ['4c', '8d', '5s', 'Kh']),
  ]).events;
}

/**
 * A live table whose coups were put right after they settled, by supervisor `sam`: round 1 (banker wins 7 to 4)
 * has its player's third card corrected from 9c to 4c (player wins 9 to 7), round 2 (player wins on a natural) is
 * voided. The replays of both end at the amending event: `replayOf(events, n, 1)`.
 */
export function amendedTable(): TableEvent[] {
  const boss = { role: 'supervisor' as const, by: 'sam' };
  const round = (n: number, cards: string[]) => liveRound(n, cards, false);
  return play([
    { type: 'OpenTable', data: { tableId: 'T1', rules: { dealing: 'live' } } },
    { type: 'BuyIn', data: { playerId: 'alice', amount: 100_000 } },
    { type: 'StartShoe', data: { firstCard: '5h' } },
    ...round(1, ['2c', '7d', '3s', 'Th', '9c']),
    {
      type: 'CorrectCard',
      data: { roundNo: 1, index: 4, card: '4c', reason: 'third card misread' },
      ...boss,
    },
    ...round(2, ['4c', '8d', '5s', 'Kh']),
    { type: 'VoidRound', data: { roundNo: 2, reason: 'cards exposed' }, ...boss },
  ]).events;
}

/**
 * The service's replay of round `roundNo`: the events from its BettingOpened to its CoupResolved (or RoundVoided),
 * and `extra` events after it (to fold a ShoeEnded too).
 */
export function replayOf(events: readonly TableEvent[], roundNo: number, extra = 0): HandReplay {
  const ofRound = (e: TableEvent) => (e.data as { roundNo?: number }).roundNo === roundNo;
  const first = events.findIndex((e) => e.type === 'BettingOpened' && ofRound(e));
  const end = events.findIndex((e) => (e.type === 'CoupResolved' || e.type === 'RoundVoided') && ofRound(e));
  if (first < 0 || end < 0) throw new Error(`no round ${roundNo}`);
  let state = initialState;
  let before = state;
  const steps: HandReplay['steps'][number][] = [];
  events.slice(0, end + 1 + extra).forEach((e, revision) => {
    if (revision === first) before = state;
    state = evolve(state, e);
    if (revision < first) return;
    const data = e.data as { at?: string; by?: string };
    steps.push({
      event: {
        revision,
        position: revision + 1,
        type: e.type,
        data: e.type === 'ShoeStarted' ? { ...e.data, seed: null } : e.data,
        recordedAt: data.at ?? '',
        actor: data.by ?? null,
        hash: `h${revision}`,
        prevHash: `h${revision - 1}`,
      },
      view: tableView(state),
    });
  });
  return { tableId: 'T1', roundNo, shoeNo: 1, status: 'resolved', before: tableView(before), steps };
}

export function verification(roundNo: number, failing: string | null = null): HandVerification {
  const names: Check['name'][] = ['index', 'chain', 'coup', 'settlements', 'commitment', 'shuffle'];
  const checks = names.map((name): Check => ({
    name,
    status:
      name === failing
        ? ('fail' as const)
        : name === 'commitment' || name === 'shuffle'
          ? ('skipped' as const)
          : ('pass' as const),
    detail: name === failing ? `${name} does not match` : `${name} checked`,
  }));
  return { tableId: 'T1', roundNo, shoeNo: 1, ok: failing === null, checks };
}
