// The EventStoreDB adapter's reads of `$all` ask the server for what the caller wants, not the rest of the log: a
// read without a count makes the server stream `$all` to its end until the client cancels (a rebuild page of 10,000
// events re-sent the whole log after it). Stand-in only: its record of served calls shows the count each read asked.
import { randomUUID } from 'node:crypto';
import { EventStoreDbEventStore } from './eventstoredb';
import { collect } from './testing/contract';
import { type StandinNode, type StandinOptions, standinTarget } from './testing/esdb-target';
import type { RecordedEvent } from './types';

jest.setTimeout(30_000);

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

async function setup(
  options: StandinOptions = { statsEvery: 0 },
): Promise<{ node: StandinNode; store: EventStoreDbEventStore }> {
  const { standin: node } = await standinTarget(options);
  closers.push(() => node.close());
  const store = new EventStoreDbEventStore({ connectionString: node.connectionString });
  closers.push(() => store.close());
  return { node, store };
}

const json = new TextEncoder().encode('{}');
const record = (type: string) => ({
  id: randomUUID(),
  type,
  contentType: 'application/json',
  data: json,
  metadata: json,
});

/** System records written straight into the log, as the server's own ($stats, $metadata, projections' links). */
function systemRecords(node: StandinNode, count: number): void {
  for (let i = 0; i < count; i++) node.log.append('$stats-standin', 'any', [record('$statsCollected')]);
}

/** `n` events written straight into the log in appends of 10, each append followed by `system` system records. */
function fill(node: StandinNode, n: number, system = 0): void {
  for (let i = 0; i < n; i += 10) {
    const batch = Array.from({ length: Math.min(10, n - i) }, () => record('ThingHappened'));
    node.log.append(`reads-${randomUUID().slice(0, 8)}`, 'any', batch);
    systemRecords(node, system);
  }
}

/** The counts the `$all` reads served since `from` asked for. */
const allReads = (node: StandinNode, from: number) =>
  node.served.slice(from).filter((call) => call.rpc === 'read' && call.stream === '$all');

const ids = (list: readonly RecordedEvent[]) => list.map((e) => e.id);

describe('reads of $all are bounded', () => {
  it('a read of n events asks the server for n and a margin, not the rest of $all', async () => {
    const { node, store } = await setup();
    fill(node, 400);
    const all = await collect(store.readAll());
    expect(all).toHaveLength(400);

    const mark = node.served.length;
    const first = await collect(store.readAll({ maxCount: 3 }));
    expect(ids(first)).toEqual(ids(all.slice(0, 3)));
    const asked = allReads(node, mark);
    expect(asked).toHaveLength(1);
    expect(Number(asked[0]!.count)).toBeGreaterThanOrEqual(3);
    expect(Number(asked[0]!.count)).toBeLessThanOrEqual(3 + 128);

    const middle = await collect(store.readAll({ fromPosition: all[100]!.globalPosition, maxCount: 50 }));
    expect(ids(middle)).toEqual(ids(all.slice(101, 151)));
    const inclusive = await collect(
      store.readAll({ fromPosition: all[100]!.globalPosition, maxCount: 2, inclusive: true }),
    );
    expect(ids(inclusive)).toEqual(ids(all.slice(100, 102)));
    for (const call of allReads(node, mark)) expect(Number(call.count)).toBeLessThanOrEqual(50 + 128);
  });

  it('reads on past the system records a page skipped, and stops at the end of the log', async () => {
    const { node, store } = await setup();
    fill(node, 300, 10); // as many system records as events, in runs of 10
    systemRecords(node, 400);
    const all = await collect(store.readAll());
    expect(all).toHaveLength(300);

    const mark = node.served.length;
    const some = await collect(store.readAll({ fromPosition: all[9]!.globalPosition, maxCount: 200 }));
    expect(ids(some)).toEqual(ids(all.slice(10, 210)));
    expect(allReads(node, mark).length).toBeGreaterThan(1); // the first page held system records too
    for (const call of allReads(node, mark)) expect(Number(call.count)).toBeLessThanOrEqual(200 + 128);

    const tail = await collect(store.readAll({ fromPosition: all[250]!.globalPosition, maxCount: 1_000 }));
    expect(ids(tail)).toEqual(ids(all.slice(251)));
  });

  it("headPosition asks for a few records at a time, past the system records at the log's end", async () => {
    const { node, store } = await setup();
    expect(await store.headPosition()).toBeNull();
    fill(node, 20);
    const newest = (await collect(store.readAll())).at(-1)!.globalPosition;
    systemRecords(node, 300);
    const mark = node.served.length;
    expect(await store.headPosition()).toBe(newest);
    const asked = allReads(node, mark);
    expect(asked.length).toBeGreaterThan(1);
    for (const call of asked) {
      expect(call.direction).toBe('backwards');
      expect(Number(call.count)).toBeLessThanOrEqual(1 + 128);
    }

    const empty = await setup();
    systemRecords(empty.node, 250);
    expect(await empty.store.headPosition()).toBeNull();
  });
});
