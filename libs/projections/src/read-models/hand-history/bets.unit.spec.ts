/**
 * The open hand keeps its bets chunked (appending is O(chunk), not O(bets)): the rows must be exactly those of a
 * flat list, the fold must stay pure, and a state stored before (flat `bets`) must still load.
 */
import type { TableEvent } from '@coup/table';
import { Recorder } from '../../testing/events';
import { TableDriver } from '../../testing/driver';
import {
  type BetEntry,
  type BetLog,
  HH_HANDS,
  HH_HAND_PLAYERS,
  type HandHistoryState,
  type OpenHand,
  handHistoryProjection,
} from '.';
import { MemoryProjection } from '../kernel/memory';
import type { ProjectionEvent, Row } from '../kernel/types';

const flat = (log: BetLog): BetEntry[] => [...log.chunks.flat(), ...log.tail];

/** The entry a BetPlaced/BetsCleared records, written out field by field (the reference: a flat list). */
function entryOf(e: ProjectionEvent): BetEntry | null {
  const ev = e.event;
  if (ev.type === 'BetPlaced') {
    const d = ev.data;
    return {
      kind: 'bet',
      playerId: d.playerId,
      spot: d.spot,
      amount: d.amount,
      cleared: null,
      rebet: d.rebet,
      at: d.at,
      by: d.by,
      role: d.role,
      position: e.position,
    };
  }
  if (ev.type === 'BetsCleared') {
    const d = ev.data;
    return {
      kind: 'clear',
      playerId: d.playerId,
      spot: null,
      amount: d.returned,
      cleared: d.bets,
      rebet: false,
      at: d.at,
      by: d.by,
      role: d.role,
      position: e.position,
    };
  }
  return null;
}

/** The bet columns of an hh_hands row computed the straightforward way from the flat list. */
function expectedBetColumns(bets: readonly BetEntry[]) {
  const stakes = new Map<string, number>();
  for (const b of bets) {
    if (b.kind === 'bet') stakes.set(b.playerId, (stakes.get(b.playerId) ?? 0) + b.amount);
    else stakes.delete(b.playerId);
  }
  const players = [...stakes.keys()].sort();
  return {
    bets_json: JSON.stringify(bets),
    bet_count: bets.filter((b) => b.kind === 'bet').length,
    players: players.join(','),
    total_staked: players.reduce((n, p) => n + stakes.get(p)!, 0),
  };
}

/**
 * A table with 40 players: one round with `bets` bets and clears (every 37th a clear, the rest bets of 100 on a
 * spot), then closed and dealt. Returns the recorded events split into the part before the bets, the bets, and
 * the close and deal.
 */
function bigRound(bets: number): {
  before: ProjectionEvent[];
  betting: ProjectionEvent[];
  after: ProjectionEvent[];
} {
  const d = new TableDriver({ tableId: 'T1', players: 40, seed: 5 });
  const recorder = new Recorder();
  const before = recorder.record('T1', [
    ...d.open(10_000_000),
    ...d.execute('StartShoe', { seed: d.nextSeed() }),
    ...d.execute('OpenBetting', {}),
  ]);
  const roundNo = d.state.roundNo;
  const events = d.betsAndClears(0, bets, TableDriver.MIXED_BETS);
  const betting = recorder.record('T1', events);
  const after = recorder.record('T1', [
    ...d.execute('CloseBetting', { roundNo }),
    ...d.execute('Deal', { roundNo }),
  ]);
  return { before, betting, after };
}

/** Batch sizes around chunk boundaries (the open hand's row is written after every batch). */
function batches<T>(xs: readonly T[]): T[][] {
  const sizes = [1, 1, 61, 1, 1, 1, 62, 63, 64, 65, 127, 128, 129, 255, 256, 257, 500];
  const out: T[][] = [];
  for (let i = 0, k = 0; i < xs.length; k++) {
    const n = sizes[k % sizes.length]!;
    out.push(xs.slice(i, i + n));
    i += n;
  }
  return out;
}

const handRow = (m: MemoryProjection<HandHistoryState>): Row =>
  m.db.rows(HH_HANDS).find((r) => r.round_no === 1)!;

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}

describe('hand history: the bets of a big round', () => {
  const round = bigRound(5_000);

  test('given 5,000 bets and clears folded in batches of every size around a chunk, then every batch writes the row of the flat list, and so does the resolved hand', () => {
    const m = new MemoryProjection<HandHistoryState>(handHistoryProjection);
    m.apply(round.before);
    const reference: BetEntry[] = [];
    let checked = 0;
    for (const batch of batches(round.betting)) {
      m.apply(batch);
      for (const e of batch) {
        const entry = entryOf(e);
        if (entry) reference.push(entry);
      }
      expect(handRow(m)).toMatchObject({ status: 'betting', ...expectedBetColumns(reference) });
      // the log: full chunks of one size, then a shorter tail, in order
      const log = m.state('T1')!.hand!.betLog;
      const size = log.chunks[0]?.length ?? 0;
      for (const c of log.chunks) expect(c.length).toBe(size);
      expect(log.tail.length).toBeLessThan(size || Infinity);
      checked += 1;
    }
    expect(reference).toHaveLength(5_000);
    expect(reference.filter((b) => b.kind === 'clear').length).toBeGreaterThan(100);
    expect(m.state('T1')!.hand!.betLog.chunks.length).toBeGreaterThan(10);
    expect(flat(m.state('T1')!.hand!.betLog)).toEqual(reference);
    expect(checked).toBeGreaterThan(30);

    m.apply(round.after);
    const row = handRow(m);
    const expected = expectedBetColumns(reference);
    expect(row).toMatchObject({
      status: 'resolved',
      bets_json: expected.bets_json,
      bet_count: expected.bet_count,
      players: expected.players,
    });
    expect(m.state('T1')!.hand).toBeNull();
    const stakes = JSON.parse(expected.bets_json) as BetEntry[];
    const staked = new Map<string, number>();
    for (const b of stakes)
      if (b.kind === 'bet') staked.set(b.playerId, (staked.get(b.playerId) ?? 0) + b.amount);
      else staked.delete(b.playerId);
    const players = m.db.rows(HH_HAND_PLAYERS).filter((r) => r.round_no === 1);
    expect(players.map((r) => [r.player_id, r.staked])).toEqual(
      [...staked].filter(([, v]) => v > 0).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  });

  test('given the same events folded one batch or one event at a time, then the tables are the same', () => {
    const small = bigRound(700);
    const all = [...small.before, ...small.betting, ...small.after];
    const one = new MemoryProjection<HandHistoryState>(handHistoryProjection);
    one.apply(all);
    const each = new MemoryProjection<HandHistoryState>(handHistoryProjection);
    for (const e of all) each.apply([e]);
    expect(each.db.dump()).toEqual(one.db.dump());
  });
});

describe('hand history: folding a bet is pure', () => {
  const round = bigRound(200);

  /** The states after each event of the round up to its bets. */
  function statesThrough(events: readonly ProjectionEvent[]): HandHistoryState[] {
    const out: HandHistoryState[] = [];
    let s = handHistoryProjection.initial('T1');
    for (const e of events) out.push((s = handHistoryProjection.evolve(s, e).state));
    return out;
  }

  /** A second bet at the same position as `e`, by another player on another spot (a branch). */
  function otherBet(e: ProjectionEvent): ProjectionEvent {
    if (e.event.type !== 'BetPlaced') throw new Error('expected a BetPlaced');
    const data = { ...e.event.data, playerId: e.event.data.playerId === 'p2' ? 'p3' : 'p2', amount: 700 };
    return { ...e, event: { ...e.event, data } as TableEvent, hash: 'f'.repeat(64) };
  }

  test('given states whose tail is empty, half full and one short of a chunk, when two different bets are folded into each, then the state is unchanged and each branch has only its own bet', () => {
    const events = [...round.before, ...round.betting];
    const states = statesThrough(events);
    const size = states.at(-1)!.hand!.betLog.chunks[0]!.length;
    const tails = new Set<number>();
    let cases = 0;
    for (let i = round.before.length; i < events.length - 1; i++) {
      const s = states[i - 1]!;
      const tail = s.hand!.betLog.tail.length;
      const next = events[i]!;
      if (next.event.type !== 'BetPlaced' || ![0, size / 2, size - 1].includes(tail)) continue;
      if (s.hand!.betLog.chunks.length === 0 && tail === 0) continue;
      tails.add(tail);
      cases += 1;
      const before = JSON.stringify(s);
      deepFreeze(s); // a write into the state (or anything it shares) throws
      const a = handHistoryProjection.evolve(s, next).state;
      const b = handHistoryProjection.evolve(s, otherBet(next)).state;
      expect(JSON.stringify(s)).toBe(before);
      const base = flat(s.hand!.betLog);
      expect(flat(a.hand!.betLog)).toEqual([...base, entryOf(next)]);
      expect(flat(b.hand!.betLog)).toEqual([...base, entryOf(otherBet(next))]);
      expect(flat(a.hand!.betLog).at(-1)!.amount).not.toBe(flat(b.hand!.betLog).at(-1)!.amount);
      // appending to `a` leaves `b` as it was (nothing shared is written)
      const bBefore = JSON.stringify(b);
      handHistoryProjection.evolve(a, events[i + 1]!);
      expect(JSON.stringify(b)).toBe(bBefore);
      // a full chunk was made: the earlier chunks are shared, not copied
      if (tail === size - 1) {
        expect(a.hand!.betLog.tail).toEqual([]);
        expect(a.hand!.betLog.chunks.length).toBe(s.hand!.betLog.chunks.length + 1);
        s.hand!.betLog.chunks.forEach((c, k) => expect(a.hand!.betLog.chunks[k]).toBe(c));
      }
    }
    expect([...tails].sort((x, y) => x - y)).toEqual([0, size / 2, size - 1]);
    expect(cases).toBeGreaterThanOrEqual(3);
  });

  test('given a frozen state, when a whole round is folded from it, then nothing throws and the state is unchanged', () => {
    const states = statesThrough(round.before);
    const start = deepFreeze(states.at(-1)!);
    const before = JSON.stringify(start);
    let s = start;
    for (const e of [...round.betting, ...round.after])
      s = deepFreeze(handHistoryProjection.evolve(s, e).state);
    expect(JSON.stringify(start)).toBe(before);
    expect(s.hand).toBeNull();
  });
});

describe('hand history: a state stored before bets were chunked (flat bets)', () => {
  const round = bigRound(300);
  const cut = round.before.length + 150;
  const all = [...round.before, ...round.betting, ...round.after];

  /** The stored JSON of the state after `cut` events, in the old shape: `bets: [...]`, no `betLog`. */
  function oldStoredState(): { json: string; bets: BetEntry[] } {
    const m = new MemoryProjection<HandHistoryState>(handHistoryProjection);
    m.apply(all.slice(0, cut));
    const bets = all
      .slice(0, cut)
      .map(entryOf)
      .filter((b): b is BetEntry => b !== null);
    const state = m.state('T1')!;
    const { betLog: _dropped, ...rest } = state.hand!;
    return { json: JSON.stringify({ ...state, hand: { ...rest, bets } }), bets };
  }

  test('given the old shape (a literal JSON with a flat bets list), then it has no betLog', () => {
    const { json, bets } = oldStoredState();
    const parsed = JSON.parse(json) as { hand: Record<string, unknown> };
    expect(parsed.hand['betLog']).toBeUndefined();
    expect(parsed.hand['bets']).toEqual(JSON.parse(JSON.stringify(bets)));
    expect(bets).toHaveLength(150);
  });

  test('given a state loaded from the old shape, when the rest of the round is folded, then the tables are those of a fold from the start and the state has the new shape', () => {
    const { json } = oldStoredState();
    const fromStart = new MemoryProjection<HandHistoryState>(handHistoryProjection);
    fromStart.apply(all.slice(0, cut));
    const resumed = new MemoryProjection<HandHistoryState>(handHistoryProjection);
    resumed.apply(all.slice(0, cut)); // the tables as written before the restart
    resumed.states.set('T1', JSON.parse(json) as HandHistoryState); // the state as loaded from hh_state
    const rest = all.slice(cut);
    fromStart.apply(rest.slice(0, 100));
    resumed.apply(rest.slice(0, 100));
    expect(resumed.db.dump()).toEqual(fromStart.db.dump());
    const hand: OpenHand & { bets?: unknown } = resumed.state('T1')!.hand!;
    expect(hand.bets).toBeUndefined();
    expect(flat(hand.betLog)).toEqual(flat(fromStart.state('T1')!.hand!.betLog));
    fromStart.apply(rest.slice(100));
    resumed.apply(rest.slice(100));
    expect(resumed.db.dump()).toEqual(fromStart.db.dump());
    expect(handRow(resumed)['status']).toBe('resolved');
  });

  test('given a state in the old shape, when materialized or given an event already applied, then the rows are those of the new shape and nothing changes', () => {
    const { json } = oldStoredState();
    const m = new MemoryProjection<HandHistoryState>(handHistoryProjection);
    m.apply(all.slice(0, cut));
    const current = m.state('T1')!;
    const old = JSON.parse(json) as HandHistoryState;
    expect(handHistoryProjection.materialize!(old)).toEqual(handHistoryProjection.materialize!(current));
    // an already applied event leaves the old state as it is (no conversion, no writes)
    expect(handHistoryProjection.evolve(old, all[cut - 1]!)).toEqual({ state: old, writes: [] });
  });
});
