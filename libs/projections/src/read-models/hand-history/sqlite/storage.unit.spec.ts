/**
 * The hand history's SQLite storage (handHistoryStorage), as pure functions: what a batch writes for an open
 * hand does not grow with the round's bets, and the stored tables, read back through `logical`, are the rows of
 * `materialize`.
 */
import type { Actor, TableEvent } from '@coup/table';
import { TableDriver } from '../../../testing/driver';
import { Recorder } from '../../../testing/events';
import {
  HH_HANDS,
  HH_OPEN_BETS,
  type HandHistoryState,
  INLINE_CHUNKS,
  handHistoryProjection,
  handHistoryStorage,
} from '..';
import { MemoryTables } from '../../kernel/memory';
import type { Write } from '../../kernel/types';

const size = (ws: readonly Write[]): number => JSON.stringify(ws).length;

/**
 * A table of 40 players with an open round, folded with the projection's evolve (each event fed twice: the
 * second changes nothing); `bet(k)` places k more bets (every 37th a clear); `reference` holds the tables as
 * MemoryProjection builds them: evolve's writes and, at each `commit`, `materialize` of the state.
 */
function round() {
  const d = new TableDriver({ tableId: 'T1', players: 40, seed: 11 });
  const recorder = new Recorder();
  const reference = new MemoryTables(handHistoryProjection.tables);
  let state = handHistoryProjection.initial('T1');
  let lastWrites: readonly Write[] = [];
  const feed = (events: readonly TableEvent[]): void => {
    const writes: Write[] = [];
    for (const e of recorder.record('T1', events)) {
      const next = handHistoryProjection.evolve(state, e);
      const again = handHistoryProjection.evolve(next.state, e);
      expect(again.state).toBe(next.state);
      expect(again.writes).toEqual([]);
      state = next.state;
      writes.push(...next.writes);
    }
    reference.apply(writes);
    lastWrites = writes;
  };
  feed([
    ...d.open(100_000_000),
    ...d.execute('StartShoe', { seed: d.nextSeed() }),
    ...d.execute('OpenBetting', {}),
  ]);
  let i = 0;
  const bet = (k: number): void => {
    const events: TableEvent[] = [];
    for (let n = 0; n < k; n++, i++) {
      const playerId = `p${(i % 40) + 1}`;
      const actor: Actor = { id: playerId, role: 'player' };
      const roundNo = d.state.roundNo;
      events.push(
        ...(i >= 40 && i % 37 === 0
          ? d.execute('ClearBets', { roundNo, playerId }, actor)
          : d.execute(
              'PlaceBet',
              { roundNo, playerId, spot: i % 2 ? 'banker' : 'player', amount: 100 },
              actor,
            )),
      );
    }
    feed(events);
  };
  return {
    d,
    bet,
    feed,
    reference,
    state: (): HandHistoryState => state,
    lastWrites: (): readonly Write[] => lastWrites,
    commit: (): void => reference.apply(handHistoryProjection.materialize!(state)),
  };
}

describe('hand history storage', () => {
  test('given open hands of 2,000 and of 12,000 bets, when 10 more bets are committed, then the writes and the stored state are as big for both (a tail, at most one new chunk, the row)', () => {
    const measure = (bets: number) => {
      const r = round();
      r.bet(bets);
      const written = r.state();
      r.bet(10);
      const state = r.state();
      const writes = handHistoryStorage.materialize(state, written);
      return {
        writes,
        bytes: size(writes),
        stored: JSON.stringify(handHistoryStorage.save(state)).length,
        whole: size(handHistoryProjection.materialize!(state)) + JSON.stringify(state).length,
      };
    };
    const small = measure(2_000);
    const big = measure(12_000);
    for (const m of [small, big]) {
      const chunks = m.writes.filter((w) => w.table === HH_OPEN_BETS);
      expect(chunks.length).toBeGreaterThanOrEqual(1); // the tail
      expect(chunks.length).toBeLessThanOrEqual(2); // and the chunk it filled, if any
      expect(m.writes.filter((w) => w.table === HH_HANDS)).toHaveLength(1);
    }
    // bounded: the difference is in the counts written in the rows (digits), not in bets
    expect(Math.abs(big.bytes - small.bytes)).toBeLessThan(0.05 * small.bytes + 16_000);
    expect(Math.abs(big.stored - small.stored)).toBeLessThan(200);
    // while whole rows and states grow with the bets
    expect(big.whole).toBeGreaterThan(5 * small.whole);
    expect(big.bytes).toBeLessThan(big.whole / 50);
  });

  test('given a round written batch by batch with the storage (batches across the limit, then the deal), then the tables read back through logical are the rows of materialize after every batch', () => {
    const r = round();
    const stored = new MemoryTables(handHistoryProjection.tables);
    let written: HandHistoryState | null = handHistoryProjection.initial('T1');
    const commit = () => {
      r.commit();
      stored.apply(handHistoryStorage.materialize(r.state(), written));
      written = r.state();
    };
    // evolve writes no hh_hands row before the deal here: the rows compared are those of the storage
    const sizes = [300, 700, 30, 64, 1, 500, 1_000, 3];
    let spilled = false;
    for (const k of sizes) {
      r.bet(k);
      commit();
      const logical = handHistoryStorage.logical({
        [HH_HANDS]: stored.rows(HH_HANDS),
        [HH_OPEN_BETS]: stored.rows(HH_OPEN_BETS),
      });
      expect(logical[HH_HANDS]).toEqual(r.reference.rows(HH_HANDS));
      expect(logical[HH_OPEN_BETS]).toEqual([]);
      if (r.state().hand!.betLog.chunks.length > INLINE_CHUNKS) {
        spilled = true;
        expect(stored.rows(HH_HANDS)[0]!['bets_json']).toBeNull();
      } else expect(stored.rows(HH_OPEN_BETS)).toEqual([]);
    }
    expect(spilled).toBe(true);
    // the deal: evolve writes the finished row (to both), the storage deletes the rows of the hand
    const roundNo = r.state().hand!.roundNo;
    r.feed([...r.d.execute('CloseBetting', { roundNo }), ...r.d.execute('Deal', { roundNo })]);
    stored.apply(r.lastWrites().filter((w) => w.table === HH_HANDS));
    commit();
    expect(r.state().hand).toBeNull();
    expect(stored.rows(HH_OPEN_BETS)).toEqual([]);
    expect(stored.rows(HH_HANDS)).toEqual(r.reference.rows(HH_HANDS));
  });

  test('given a state saved past the limit, when loaded with its rows, then it is the state (bets, summary) and what its rows hold', () => {
    const r = round();
    r.bet(INLINE_CHUNKS * 64 + 100);
    const state = r.state();
    const tables = new MemoryTables(handHistoryProjection.tables);
    tables.apply(handHistoryStorage.materialize(state, null));
    const saved = JSON.parse(JSON.stringify(handHistoryStorage.save(state))) as unknown;
    expect(JSON.stringify(saved).length).toBeLessThan(JSON.stringify(state).length / 5);
    const loaded = handHistoryStorage.load(saved, tables.rows(HH_OPEN_BETS));
    expect(loaded.state).toEqual(JSON.parse(JSON.stringify(state)));
    expect(loaded.written).toBe(loaded.state);
    // nothing to write when nothing changed
    expect(
      handHistoryStorage.materialize(loaded.state, loaded.written).filter((w) => w.table === HH_OPEN_BETS),
    ).toHaveLength(1); // the tail row only
  });
});
