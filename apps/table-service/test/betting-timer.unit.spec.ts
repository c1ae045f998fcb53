/**
 * The betting timer runs after every batch of commands on a table, so on a busy table it sits on the bet path:
 * it must read only the phase and the round's deadline from the state (never build a view of every player).
 */
import { initialState, type PlayerState, type RoundState, type TableState } from '@coup/table';
import { BettingTimer, TIMER_ACTOR, TIMER_RETRY_MS } from '../src/tables/betting-timer';
import type { TableProcessor } from '../src/tables/table-processor';
import type { Clock } from '../src/tables/edge-inputs';

const DEADLINE = '2030-01-01T12:00:15.000Z';

function round(roundNo: number, deadline: string | null): RoundState {
  return {
    roundNo,
    shoeNo: 1,
    status: 'betting',
    openedAt: '2030-01-01T12:00:00.000Z',
    deadline,
    cards: [],
    result: null,
    voided: null,
    stakes: 0,
  };
}

const players: PlayerState[] = Array.from({ length: 1000 }, (_, i) => ({
  playerId: `p${String(i).padStart(4, '0')}`,
  chips: 100_000,
  commissionOwed: 0,
  bets: { player: 100, banker: 0, tie: 0 },
})) as unknown as PlayerState[];

function state(phase: TableState['phase'], r: RoundState | null): TableState {
  return { ...initialState, phase, tableId: 'T1', roundNo: r?.roundNo ?? 0, shoeNo: 1, round: r, players };
}

/** The state, recording every top-level field read. */
function watched(s: TableState): { state: TableState; reads: Set<string> } {
  const reads = new Set<string>();
  const proxy = new Proxy(s, {
    get(target, key, receiver) {
      if (typeof key === 'string') reads.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { state: proxy, reads };
}

function fakeProcessor() {
  const timers: { tableId: string; at: number; fire: () => void }[] = [];
  const executed: { tableId: string; command: unknown }[] = [];
  const processor = {
    setTimer: (tableId: string, at: number, fire: () => void) => timers.push({ tableId, at, fire }),
    execute: (tableId: string, command: unknown) => {
      executed.push({ tableId, command });
      return Promise.resolve({});
    },
  } as unknown as TableProcessor;
  return { processor, timers, executed };
}

const clock = { now: () => '2030-01-01T12:00:15.001Z' } as Clock;

describe('BettingTimer.onStateChanged', () => {
  it('reads only the phase and the round, never the players (no view built on the bet path)', () => {
    const { processor, timers } = fakeProcessor();
    const timer = new BettingTimer(processor, clock);
    for (const s of [state('betting', round(3, DEADLINE)), state('dealing', round(3, DEADLINE))]) {
      const w = watched(s);
      timer.onStateChanged('T1', w.state);
      expect([...w.reads].filter((k) => k !== 'phase' && k !== 'round')).toEqual([]);
    }
    expect(timers).toHaveLength(1);
  });

  it('arms one timer at the deadline per round and deadline, however many batches follow', () => {
    const { processor, timers } = fakeProcessor();
    const timer = new BettingTimer(processor, clock);
    const betting = state('betting', round(3, DEADLINE));
    for (let i = 0; i < 5; i++) timer.onStateChanged('T1', betting);
    expect(timers.map((t) => [t.tableId, t.at])).toEqual([['T1', Date.parse(DEADLINE)]]);
    const later = '2030-01-01T12:01:15.000Z';
    timer.onStateChanged('T1', state('betting', round(4, later)));
    timer.onStateChanged('T2', betting);
    expect(timers.map((t) => [t.tableId, t.at])).toEqual([
      ['T1', Date.parse(DEADLINE)],
      ['T1', Date.parse(later)],
      ['T2', Date.parse(DEADLINE)],
    ]);
  });

  it.each([
    ['no round open', state('idle', null)],
    ['a round without a timer', state('betting', round(3, null))],
    ['betting closed (dealing)', state('dealing', round(3, DEADLINE))],
    ['a closed table', state('closed', round(3, DEADLINE))],
  ])('arms nothing for %s', (_name, s) => {
    const { processor, timers } = fakeProcessor();
    new BettingTimer(processor, clock).onStateChanged('T1', s);
    expect(timers).toEqual([]);
  });

  it('at the deadline sends CloseBetting by timer for that round, as the timer actor', () => {
    const { processor, timers, executed } = fakeProcessor();
    new BettingTimer(processor, clock).onStateChanged('T1', state('betting', round(7, DEADLINE)));
    timers[0]!.fire();
    expect(executed).toEqual([
      {
        tableId: 'T1',
        command: {
          type: 'CloseBetting',
          data: { roundNo: 7, byTimer: true },
          meta: { actor: TIMER_ACTOR, at: clock.now() },
        },
      },
    ]);
  });

  it('when closing fails for a reason that is not the table refusing (the store unreachable), then it tries again after TIMER_RETRY_MS', async () => {
    jest.useFakeTimers();
    try {
      const { processor, timers, executed } = fakeProcessor();
      let failures = 1;
      const execute = processor.execute.bind(processor);
      processor.execute = ((tableId: string, command: never) =>
        failures-- > 0
          ? (executed.push({ tableId, command }),
            Promise.reject(Object.assign(new Error('store down'), { code: 'STORE_UNAVAILABLE' })))
          : execute(tableId, command)) as TableProcessor['execute'];
      new BettingTimer(processor, clock).onStateChanged('T1', state('betting', round(7, DEADLINE)));
      timers[0]!.fire();
      await Promise.resolve();
      await Promise.resolve();
      expect(timers).toHaveLength(1);
      jest.advanceTimersByTime(TIMER_RETRY_MS);
      expect(timers).toHaveLength(2);
      timers[1]!.fire();
      expect(executed.map((e) => e.tableId)).toEqual(['T1', 'T1']);
    } finally {
      jest.useRealTimers();
    }
  });
});
