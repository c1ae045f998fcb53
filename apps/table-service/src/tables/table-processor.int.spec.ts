/**
 * Snapshots (ADR-7): a table is loaded from its last snapshot and the events after it, never its whole history;
 * on a busy table snapshots are taken at most once a second, with a hard bound on the tail.
 */
import { createEventStore, type EventStore, type ReadStreamOptions } from '@coup/event-store';
import { evolve, initialState, type TableCommand, type TableEvent, type TableState } from '@coup/table';
import { Metrics } from '../common/metrics';
import { snapshotStream, tableStream } from '@coup/table';
import { SNAPSHOT_MIN_INTERVAL_MS, SNAPSHOT_TAIL_LIMIT, snapshotDue, snapshotEvent } from './snapshots';
import { TableProcessor } from './table-processor';

const cmd = (type: TableCommand['type'], data: object, role: 'admin' | 'dealer' = 'admin') =>
  ({
    type,
    data,
    meta: { actor: { id: `${role}-1`, role }, at: '2026-12-01T12:00:00.000Z' },
  }) as TableCommand;

/** The store, counting the events each stream read returns, and the reads made of each stream. */
function counting(store: EventStore): {
  store: EventStore;
  read: Map<string, number>;
  reads: Map<string, number>;
} {
  const read = new Map<string, number>();
  const reads = new Map<string, number>();
  const wrapped = Object.create(store) as EventStore;
  wrapped.readStream = (stream: string, options?: ReadStreamOptions) => {
    reads.set(stream, (reads.get(stream) ?? 0) + 1);
    const inner = store.readStream(stream, options);
    return (async function* () {
      for await (const e of inner) {
        read.set(stream, (read.get(stream) ?? 0) + 1);
        yield e;
      }
    })();
  };
  return { store: wrapped, read, reads };
}

async function fullFold(store: EventStore, tableId: string): Promise<TableState> {
  let state = initialState;
  for await (const e of store.readStream(tableStream(tableId)))
    state = evolve(state, { type: e.type, data: e.data } as TableEvent);
  return state;
}

describe('snapshotDue', () => {
  const every = 500;
  it('given fewer events than snapshotEvery since the last, when asked, then no', () => {
    expect(snapshotDue({ eventsSinceSnapshot: every - 1, lastSnapshotAt: 0 }, every, 10_000_000)).toBe(false);
  });
  it('given enough events and a second since the last snapshot, then yes', () => {
    expect(snapshotDue({ eventsSinceSnapshot: every, lastSnapshotAt: 1_000 }, every, 1_000 + 1_000)).toBe(
      true,
    );
  });
  it('given enough events but a snapshot less than a second ago, then not yet', () => {
    const last = 5_000;
    expect(
      snapshotDue(
        { eventsSinceSnapshot: every * 3, lastSnapshotAt: last },
        every,
        last + SNAPSHOT_MIN_INTERVAL_MS - 1,
      ),
    ).toBe(false);
  });
  it('given a tail of SNAPSHOT_TAIL_LIMIT x snapshotEvery events, then yes however recent the last one', () => {
    expect(
      snapshotDue({ eventsSinceSnapshot: every * SNAPSHOT_TAIL_LIMIT, lastSnapshotAt: 5_000 }, every, 5_001),
    ).toBe(true);
  });
});

describe('loading a table', () => {
  it('reads the last snapshot and the tail after it, and folds to the same state as the whole history', async () => {
    const base = createEventStore({ kind: 'memory' });
    const every = 20;
    const writer = new TableProcessor(base, new Metrics(false), { snapshotEvery: every });
    await writer.execute('L1', cmd('OpenTable', { tableId: 'L1', rules: { dealing: 'rng' } }));
    await writer.execute('L1', cmd('BuyIn', { playerId: 'p1', amount: 10_000_000 }));
    await writer.execute('L1', cmd('StartShoe', { seed: 'cd'.repeat(32) }, 'dealer'));
    for (let round = 1; round <= 30; round++) {
      await writer.execute('L1', cmd('OpenBetting', {}, 'dealer'));
      for (let i = 0; i < 3; i++)
        await writer.execute(
          'L1',
          cmd('PlaceBet', { roundNo: round, playerId: 'p1', spot: 'banker', amount: 100 }),
        );
      await writer.execute('L1', cmd('CloseBetting', { roundNo: round }, 'dealer'));
      await writer.execute('L1', cmd('Deal', { roundNo: round }, 'dealer'));
      // Each batch here is one command; let a second pass between rounds now and then so snapshots are taken.
      if (round % 10 === 0) await new Promise((r) => setTimeout(r, SNAPSHOT_MIN_INTERVAL_MS + 20));
    }
    const head = (await base.streamHead(tableStream('L1')))!.revision;
    const snapshots = (await base.streamHead(snapshotStream('L1')))?.revision;
    expect(snapshots).toBeDefined();
    expect(head).toBeGreaterThan(200n);

    const { store, read } = counting(base);
    const reader = new TableProcessor(store, new Metrics(false), { snapshotEvery: every });
    const state = await reader.state('L1');
    expect(state).toEqual(await fullFold(base, 'L1'));
    expect(read.get(snapshotStream('L1'))).toBe(1);
    // The tail: what followed the last snapshot (under a second of one-command batches), not the history.
    const tail = read.get(tableStream('L1')) ?? 0;
    expect(tail).toBeLessThan(Number(head) / 2);
    expect(tail).toBeLessThanOrEqual(every * SNAPSHOT_TAIL_LIMIT);

    // And the table goes on from there.
    await reader.execute('L1', cmd('OpenBetting', {}, 'dealer'));
    expect((await base.streamHead(tableStream('L1')))!.revision).toBe(head + 1n);
  });
});

describe('table sessions are bounded', () => {
  const open = (p: TableProcessor, id: string) =>
    p.execute(id, cmd('OpenTable', { tableId: id, rules: { dealing: 'rng' } }));

  it('given reads and commands for tables that do not exist, then no session is kept for any of them', async () => {
    const p = new TableProcessor(createEventStore({ kind: 'memory' }), new Metrics(false), {
      snapshotEvery: 500,
    });
    await open(p, 'REAL');
    for (let i = 0; i < 200; i++) {
      expect((await p.read(`ghost-${i}`)).revision).toBe(-1n);
      await expect(
        p.execute(`ghost-cmd-${i}`, cmd('BuyIn', { playerId: 'p1', amount: 100 })),
      ).rejects.toMatchObject({
        code: 'UNKNOWN_TABLE',
      });
    }
    // A refused command's session is dropped right after its batch ends (microtasks): let them run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(p.sessionCount).toBe(1);
    await p.shutdown();
  });

  it('given more tables than maxSessions, then the least recently used idle ones are evicted and reload on use', async () => {
    const store = createEventStore({ kind: 'memory' });
    const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 500, maxSessions: 3 });
    for (let i = 0; i < 10; i++) await open(p, `T${i}`);
    expect(p.sessionCount).toBeLessThanOrEqual(3);
    // An evicted table reloads from the store, whole.
    await p.execute('T0', cmd('BuyIn', { playerId: 'p1', amount: 500 }));
    expect((await p.read('T0')).state).toEqual(await fullFold(store, 'T0'));
    expect(p.sessionCount).toBeLessThanOrEqual(3);
    await p.shutdown();
  });

  it('given sessions unused for sessionIdleMs, then the sweep evicts them', async () => {
    const p = new TableProcessor(createEventStore({ kind: 'memory' }), new Metrics(false), {
      snapshotEvery: 500,
      sessionIdleMs: 20,
    });
    for (let i = 0; i < 5; i++) await open(p, `I${i}`);
    expect(p.sessionCount).toBeGreaterThan(0);
    while (p.sessionCount > 0) await new Promise((r) => setTimeout(r, 10));
    expect((await p.read('I3')).revision).toBe(0n);
    await p.shutdown();
  });
});

describe('a snapshot that does not match its stream', () => {
  async function table(store: EventStore): Promise<void> {
    const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 500 });
    await p.execute('S1', cmd('OpenTable', { tableId: 'S1', rules: { dealing: 'rng' } }));
    await p.execute('S1', cmd('BuyIn', { playerId: 'p1', amount: 10_000 }));
    await p.shutdown();
  }
  const inflated = (state: TableState) => ({
    ...state,
    players: state.players.map((pl) => ({ ...pl, chips: pl.chips + 999_999 })),
  });

  for (const [name, make] of [
    [
      'past the head',
      (state: TableState, head: { revision: bigint; hash: string }) =>
        snapshotEvent(inflated(state), head.revision + 3n, head.hash),
    ],
    [
      'at a revision whose event has another hash',
      (state: TableState, head: { revision: bigint; hash: string }) =>
        snapshotEvent(inflated(state), head.revision, 'f'.repeat(64)),
    ],
    [
      'in the old format (no hash)',
      (state: TableState, head: { revision: bigint; hash: string }) => {
        const e = snapshotEvent(inflated(state), head.revision, head.hash);
        const { hash: _hash, snapshotVersion: _v, ...data } = e.data as Record<string, never>;
        return { ...e, data };
      },
    ],
  ] as const)
    it(`given a snapshot ${name}, when the table loads, then it is discarded (counted) and the stream is folded`, async () => {
      const store = createEventStore({ kind: 'memory' });
      await table(store);
      const head = (await store.streamHead(tableStream('S1')))!;
      await store.appendToStream(snapshotStream('S1'), [make(await fullFold(store, 'S1'), head)], {
        expectedRevision: 'any',
      });
      const metrics = new Metrics(false);
      const p = new TableProcessor(store, metrics, { snapshotEvery: 500 });
      const at = await p.read('S1');
      expect(at).toEqual({ state: await fullFold(store, 'S1'), revision: head.revision });
      expect((await metrics.snapshotsDiscarded.get()).values[0]?.value).toBe(1);
      await p.shutdown();
    });

  it('given a matching snapshot, when the table loads, then it is used', async () => {
    const store = createEventStore({ kind: 'memory' });
    await table(store);
    const head = (await store.streamHead(tableStream('S1')))!;
    const marked = { ...(await fullFold(store, 'S1')), tableId: 'S1' };
    await store.appendToStream(snapshotStream('S1'), [snapshotEvent(marked, head.revision, head.hash)], {
      expectedRevision: 'any',
    });
    const { store: counted, read } = counting(store);
    const p = new TableProcessor(counted, new Metrics(false), { snapshotEvery: 500 });
    expect((await p.read('S1')).revision).toBe(head.revision);
    // The snapshot's own event (its hash check) and the empty tail after it: not the history.
    expect(read.get(tableStream('S1'))).toBe(1);
    await p.shutdown();
  });
});

describe('decisions are linearizable across processes', () => {
  /** Opens a table with p1 bought in and round 1 open for bets. */
  async function bettingOpen(p: TableProcessor, id: string): Promise<void> {
    await p.execute(id, cmd('OpenTable', { tableId: id, rules: { dealing: 'rng' } }));
    await p.execute(id, cmd('BuyIn', { playerId: 'p1', amount: 100_000 }));
    await p.execute(id, cmd('StartShoe', { seed: 'ef'.repeat(32) }, 'dealer'));
    await p.execute(id, cmd('OpenBetting', {}, 'dealer'));
  }

  it('given B loaded the table at round 1 and A opened round 2, when a bet on round 2 comes to B, then B decides it on the store as it is (accepted, not WRONG_ROUND)', async () => {
    const store = createEventStore({ kind: 'memory' });
    const a = new TableProcessor(store, new Metrics(false), { snapshotEvery: 500 });
    const b = new TableProcessor(store, new Metrics(false), { snapshotEvery: 500 });
    await bettingOpen(a, 'X1');
    expect((await b.read('X1')).state.round?.roundNo).toBe(1);
    await a.execute('X1', cmd('CloseBetting', { roundNo: 1 }, 'dealer'));
    await a.execute('X1', cmd('Deal', { roundNo: 1 }, 'dealer'));
    await a.execute('X1', cmd('OpenBetting', {}, 'dealer'));
    // B's refusals too come from the store's head: a bet on round 2 is accepted, a bet on round 1 is WRONG_ROUND.
    await expect(
      b.execute('X1', cmd('PlaceBet', { roundNo: 2, playerId: 'p1', spot: 'banker', amount: 100 })),
    ).resolves.toMatchObject({ roundNo: 2 });
    await expect(
      b.execute('X1', cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 100 })),
    ).rejects.toMatchObject({ code: 'WRONG_ROUND' });
    // And A sees B's bet before it decides anything.
    await expect(a.execute('X1', cmd('ClearBets', { roundNo: 2, playerId: 'p1' }))).resolves.toMatchObject({
      returned: 100,
    });
    await a.shutdown();
    await b.shutdown();
  });

  it('given one process taking bets, when a batch is accepted, then it reads nothing of the table before appending (the append at its revision is the check)', async () => {
    const base = createEventStore({ kind: 'memory' });
    const { store, reads } = counting(base);
    const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 500 });
    await bettingOpen(p, 'X2');
    reads.clear();
    for (let i = 0; i < 20; i++)
      await p.execute('X2', cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 100 }));
    expect(reads.get(tableStream('X2')) ?? 0).toBe(0);
    // A refusal appends nothing: it is answered from the store's head, read first.
    await expect(
      p.execute('X2', cmd('PlaceBet', { roundNo: 2, playerId: 'p1', spot: 'banker', amount: 100 })),
    ).rejects.toMatchObject({ code: 'WRONG_ROUND' });
    expect(reads.get(tableStream('X2'))).toBe(1);
    await p.shutdown();
  });

  it('given B behind the store, when a key A recorded (with another correlation id) is retried through B, then B answers its first answer, not IDEMPOTENCY_KEY_EXPIRED', async () => {
    const store = createEventStore({ kind: 'memory' });
    const a = new TableProcessor(store, new Metrics(false), { snapshotEvery: 500 });
    const b = new TableProcessor(store, new Metrics(false), { snapshotEvery: 500 });
    await bettingOpen(a, 'X3');
    await b.execute('X3', cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'tie', amount: 100 }), 'warm');
    const bet = cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 200 });
    const first = await a.execute('X3', bet, 'k1', 'corr-a');
    // B decides the retry on its older state: same event ids, another correlation id, at the place A's took.
    await expect(b.execute('X3', bet, 'k1', 'corr-b')).resolves.toEqual(first);
    await a.shutdown();
    await b.shutdown();
  });
});
