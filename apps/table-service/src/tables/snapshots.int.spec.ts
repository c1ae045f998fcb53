/**
 * Snapshots written off the request path (ADR-25): the state's JSON text is made a slice per turn of the event
 * loop, and what is stored is what a one-piece encoding stores; such a snapshot is still trusted only when the
 * stream has its event with its hash, and snapshots of the older shapes (versions 2 and 3) still load. A snapshot in
 * several parts (ADR-30) loads when whole and is discarded, counted, when a part is missing.
 */
import fc from 'fast-check';
import { createEventStore, type EventStore, snapshotEvents } from '@coup/event-store';
import {
  evolve,
  initialState,
  snapshotStream,
  tableStream,
  type TableCommand,
  type TableEvent,
  type TableState,
} from '@coup/table';
import { Metrics } from '../common/metrics';
import {
  SNAPSHOT_SLICE,
  jsonInSlices,
  snapshotEvent,
  snapshotInSlices,
  snapshotOf,
  snapshotState,
  writeSnapshot,
} from './snapshots';
import { TableProcessor } from './table-processor';

const cmd = (type: TableCommand['type'], data: object, role = 'admin') =>
  ({
    type,
    data,
    meta: { actor: { id: `${role}-1`, role }, at: '2026-12-01T12:00:00.000Z' },
  }) as TableCommand;

async function fold(store: EventStore, tableId: string): Promise<TableState> {
  let state = initialState;
  for await (const e of store.readStream(tableStream(tableId)))
    state = evolve(state, { type: e.type, data: e.data } as TableEvent);
  return state;
}

/** A table with `players` players bought in, a shoe (with its seed) and every player's bet in round 1. */
async function busyTable(store: EventStore, tableId: string, players: number, seed: string) {
  const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1_000_000 });
  await p.execute(tableId, cmd('OpenTable', { tableId, rules: { dealing: 'rng' } }));
  await Promise.all(
    Array.from({ length: players }, (_, i) =>
      p.execute(tableId, cmd('BuyIn', { playerId: `p${i}`, amount: 100_000 })),
    ),
  );
  await p.execute(tableId, cmd('StartShoe', { seed }, 'dealer'));
  await p.execute(tableId, cmd('OpenBetting', {}, 'dealer'));
  await Promise.all(
    Array.from({ length: players }, (_, i) =>
      p.execute(tableId, cmd('PlaceBet', { roundNo: 1, playerId: `p${i}`, spot: 'banker', amount: 100 })),
    ),
  );
  await p.shutdown();
  return { state: await fold(store, tableId), head: (await store.streamHead(tableStream(tableId)))! };
}

describe('jsonInSlices', () => {
  it('given any JSON value, then it writes what JSON.stringify writes', async () => {
    const big = fc.array(fc.jsonValue({ maxDepth: 1 }), {
      minLength: SNAPSHOT_SLICE - 1,
      maxLength: 2 * SNAPSHOT_SLICE + 1,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), big, { maxKeys: 3 }), big),
        async (value) => {
          expect(await jsonInSlices(value, async () => undefined)).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 60, seed: 18 },
    );
  });

  it('given a long array, then it pauses once per slice of it', async () => {
    let pauses = 0;
    const players = Array.from({ length: 4 * SNAPSHOT_SLICE }, (_, i) => ({ playerId: `p${i}`, chips: i }));
    const text = await jsonInSlices({ players, round: { roundNo: 1 } }, async () => void pauses++);
    expect(text).toBe(JSON.stringify({ players, round: { roundNo: 1 } }));
    expect(pauses).toBe(3);
  });
});

describe('a snapshot written in slices', () => {
  const seed = 'ab'.repeat(32);

  it('given a table of 600 players, then its snapshot holds the state as one encoding does, the seed apart', async () => {
    const store = createEventStore({ kind: 'memory' });
    const { state, head } = await busyTable(store, 'Z1', 600, seed);
    const whole = snapshotOf(state, head.revision, head.hash);
    const sliced = await snapshotInSlices(state, head.revision, head.hash);
    expect(sliced).toEqual(whole);
    expect(sliced.header).toMatchObject({ seed, revision: String(head.revision), hash: head.hash });
    expect(sliced.body).not.toContain(seed);
    expect(snapshotState({ ...sliced.header, stateJson: sliced.body })).toEqual(state);
  });

  it('given one written by writeSnapshot, when the table loads, then it is used and equals the fold', async () => {
    const store = createEventStore({ kind: 'memory' });
    const { state, head } = await busyTable(store, 'Z2', 300, seed);
    await writeSnapshot(store, 'Z2', state, head.revision);
    const metrics = new Metrics(false);
    const p = new TableProcessor(store, metrics, { snapshotEvery: 1_000_000 });
    expect(await p.read('Z2')).toEqual({ state, revision: head.revision });
    expect((await metrics.snapshotsDiscarded.get()).values[0]?.value ?? 0).toBe(0);
    await p.shutdown();
  });

  it('given one copied next to a stream whose event at its revision has another hash, then it is discarded and the stream folded', async () => {
    const first = createEventStore({ kind: 'memory' });
    const { state, head } = await busyTable(first, 'Z3', 50, seed);
    await writeSnapshot(first, 'Z3', state, head.revision);
    const written: unknown[] = [];
    for await (const e of first.readStream(snapshotStream('Z3'))) written.push(e.data);
    // Another store: the same commands with another seed, so the same revisions with other hashes.
    const second = createEventStore({ kind: 'memory' });
    const other = await busyTable(second, 'Z3', 50, 'cd'.repeat(32));
    expect(other.head.revision).toBe(head.revision);
    expect(other.head.hash).not.toBe(head.hash);
    await second.appendToStream(
      snapshotStream('Z3'),
      [{ ...snapshotEvent(state, head.revision, head.hash), data: written[0] as never }],
      { expectedRevision: 'any' },
    );
    const metrics = new Metrics(false);
    const p = new TableProcessor(second, metrics, { snapshotEvery: 1_000_000 });
    expect(await p.read('Z3')).toEqual({ state: other.state, revision: other.head.revision });
    expect((await metrics.snapshotsDiscarded.get()).values[0]?.value).toBe(1);
    await p.shutdown();
  });

  it('given a snapshot of version 2 (the state as an object) that matches its stream, then it is still used', async () => {
    const store = createEventStore({ kind: 'memory' });
    const { state, head } = await busyTable(store, 'Z4', 20, seed);
    const marked = { ...state, players: state.players.slice(1) }; // not the fold: only the snapshot says so
    await store.appendToStream(
      snapshotStream('Z4'),
      [
        {
          ...snapshotEvent(marked, head.revision, head.hash),
          data: {
            snapshotVersion: 2,
            stateVersion: marked.version,
            revision: String(head.revision),
            hash: head.hash,
            state: marked as never,
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1_000_000 });
    expect(await p.read('Z4')).toEqual({ state: marked, revision: head.revision });
    await p.shutdown();
  });

  it('given a snapshot of version 3 (one event, the state as JSON text) that matches its stream, then it is still used', async () => {
    const store = createEventStore({ kind: 'memory' });
    const { state, head } = await busyTable(store, 'Z5', 20, seed);
    const marked = { ...state, players: state.players.slice(1) };
    const { header, body } = snapshotOf(marked, head.revision, head.hash);
    await store.appendToStream(snapshotStream('Z5'), [
      {
        ...snapshotEvent(marked, head.revision, head.hash),
        data: { ...header, snapshotVersion: 3, stateJson: body },
      },
    ]);
    const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1_000_000 });
    expect(await p.read('Z5')).toEqual({ state: marked, revision: head.revision });
    await p.shutdown();
  });

  it('given a snapshot written in several parts, then it loads; given a newer one missing a part, then that one is discarded (counted) and the whole one used', async () => {
    const store = createEventStore({ kind: 'memory' });
    const { state, head } = await busyTable(store, 'Z6', 300, seed);
    await writeSnapshot(store, 'Z6', state, head.revision, { partChars: 200 });
    const parts = await snapshotEvents(await snapshotInSlices(state, head.revision, head.hash), {
      partChars: 200,
    });
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts.filter((_, i) => i !== 1))
      await store.appendToStream(snapshotStream('Z6'), [part]);
    const metrics = new Metrics(false);
    const p = new TableProcessor(store, metrics, { snapshotEvery: 1_000_000 });
    expect(await p.read('Z6')).toEqual({ state, revision: head.revision });
    expect((await metrics.snapshotsDiscarded.get()).values[0]?.value).toBe(1);
    await p.shutdown();
  });
});
