// The EventStoreDB adapter against the stand-in's faults (issue 20's findings 2 to 8): what a server does that no
// contract case can make it do on demand. Stand-in only: these need fault injection (a real server cannot be told to
// time out a commit after writing it).
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { EventStoreInputError, EventStoreUnavailableError, WrongExpectedVersionError } from './errors';
import { type EventStoreDbConfig, EventStoreDbEventStore } from './eventstoredb';
import { collect, events, newEvent } from './testing/contract';
import {
  type StandinCluster,
  type StandinNode,
  type StandinOptions,
  standinTarget,
  startStandinCluster,
} from './testing/esdb-target';

jest.setTimeout(30_000);

const stream = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** A stand-in node and an adapter on it. */
async function setup(
  config: Partial<EventStoreDbConfig> = {},
  options: StandinOptions = {},
): Promise<{ node: StandinNode; store: EventStoreDbEventStore }> {
  const { standin: node } = await standinTarget(options);
  closers.push(() => node.close());
  const store = new EventStoreDbEventStore({ connectionString: node.connectionString, ...config });
  closers.push(() => store.close());
  return { node, store };
}

/** Another client's event, written straight into the stand-in's log (a writer that got in first). */
function interlope(node: StandinNode, s: string): void {
  const nothing = new Uint8Array();
  node.log.append(s, 'any', [
    {
      id: randomUUID(),
      type: 'Interloper',
      contentType: 'application/json',
      data: nothing,
      metadata: nothing,
    },
  ]);
}

async function failure(promise: Promise<unknown>): Promise<Record<string, unknown> | null> {
  return promise.then(
    () => null,
    (e: unknown) => e as Record<string, unknown>,
  );
}

async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('finding 2: an append whose answer is lost is found out, not reported as failed', () => {
  for (const fault of ['timeout-after-write', 'unavailable-after-write', 'timeout-before-write'] as const) {
    it(`${fault}: the append answers the truth, and its events are stored once`, async () => {
      const { node, store } = await setup();
      const s = stream('lost');
      await store.appendToStream(s, events(2));
      const batch = events(3);
      node.faults.failAppends(fault, { stream: s });
      const result = await store.appendToStream(s, batch, { expectedRevision: 1n });
      const stored = await collect(store.readStream(s));
      expect(stored.map((e) => e.id).slice(2)).toEqual(batch.map((e) => e.id));
      expect(result).toEqual({ nextExpectedRevision: 4n, position: stored[4]!.globalPosition });
      expect((await store.verifyStream(s)).ok).toBe(true);
    });
  }

  it('when the store cannot be asked, the error says the outcome is unknown (STORE_OUTCOME_UNKNOWN)', async () => {
    const { node, store } = await setup({ readTimeoutMs: 300, appendTimeoutMs: 300 });
    const s = stream('unknown');
    await store.appendToStream(s, events(1));
    node.faults.failAppends('timeout-after-write', { stream: s });
    node.faults.beforeAppend = () => {
      node.faults.hangReads = true; // from now on the store takes reads and never answers them
      node.faults.failAppends('hang');
    };
    const error = await within(10_000, failure(store.appendToStream(s, events(1))), 'the append');
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect(error).toMatchObject({ code: 'STORE_OUTCOME_UNKNOWN' });
    expect(String(error!['message'])).toMatch(/may or may not/);
  });
});

describe('finding 4: reads that decide or confirm a write go to the leader', () => {
  let cluster: StandinCluster;
  beforeEach(async () => {
    cluster = await startStandinCluster(2);
    closers.push(() => cluster.close());
  });
  const storeOn = (node: StandinNode) => {
    const store = new EventStoreDbEventStore({ connectionString: node.connectionString });
    closers.push(() => store.close());
    return store;
  };

  it('after a leader change, a process still on the old leader (now a stale follower) reads the true head and appends', async () => {
    const [first, second] = cluster.nodes as [StandinNode, StandinNode];
    const onFirst = storeOn(first);
    const onSecond = storeOn(second);
    const s = stream('leader');
    await onFirst.appendToStream(s, events(3));
    cluster.electLeader(second, { staleFollowers: true });
    await onSecond.appendToStream(s, events(2), { expectedRevision: 2n });
    expect(await onFirst.streamHead(s)).toMatchObject({ revision: 4n });
    expect(await collect(onFirst.readStream(s))).toHaveLength(5);
    const result = await onFirst.appendToStream(s, events(1));
    expect(result.nextExpectedRevision).toBe(5n);
    expect(await onSecond.verifyStream(s)).toMatchObject({ ok: true, checked: 6 });
  });
});

describe('cluster discovery', () => {
  it('a connection string naming every node finds the leader through gossip, and follows it to the next leader', async () => {
    const cluster = await startStandinCluster(3);
    closers.push(() => cluster.close());
    const store = new EventStoreDbEventStore({ connectionString: cluster.connectionString });
    closers.push(() => store.close());
    const s = stream('gossip');
    await store.appendToStream(s, events(2));
    expect(cluster.nodes.some((n) => n.served.some((c) => c.rpc === 'gossip'))).toBe(true);
    expect(cluster.nodes[0]!.served.some((c) => c.rpc === 'batchAppend')).toBe(true); // the leader took the write
    cluster.electLeader(cluster.nodes[2]!, { staleFollowers: true });
    await store.appendToStream(s, events(1), { expectedRevision: 1n });
    await store.appendToStream(s, events(1), { expectedRevision: 2n });
    expect(cluster.nodes[2]!.served.filter((c) => c.rpc === 'read' && c.stream === s).length).toBeGreaterThan(
      0,
    );
    expect(await store.verifyStream(s)).toMatchObject({ ok: true, checked: 4 });
  });
});

describe('finding 5: the maximum append size is per append, summed over data, metadata and type', () => {
  const sends = (node: StandinNode) =>
    node.served.filter((c) => c.rpc === 'batchAppend' || c.rpc === 'append');

  it('an append over it is refused (APPEND_TOO_LARGE), though each event fits alone; after that, before it is sent', async () => {
    const { node, store } = await setup();
    const s = stream('large');
    const half = 'x'.repeat(520 * 1024);
    const big = () => [newEvent('Big', { half }), newEvent('Big', { half })];
    const error = await failure(store.appendToStream(s, big()));
    expect(error).toBeInstanceOf(EventStoreInputError);
    expect(error).toMatchObject({ code: 'APPEND_TOO_LARGE' });
    expect(String(error!['message'])).toMatch(/1048576/);
    const sent = sends(node).length;
    expect(await failure(store.appendToStream(s, big()))).toMatchObject({ code: 'APPEND_TOO_LARGE' });
    expect(sends(node)).toHaveLength(sent);
    expect(await collect(store.readStream(s))).toEqual([]);
  });

  it('the chain metadata counts: an event whose data and metadata fit, but not with its chain fields, is refused unsent', async () => {
    const { node, store } = await setup({ maxAppendSize: 4096 }, { maxAppendSize: 4096 });
    const data = { blob: 'y'.repeat(4096 - 150) }; // 3,984 bytes without the chain fields, 4,148 with them
    const error = await failure(store.appendToStream(stream('chain'), [newEvent('Near', data)]));
    expect(error).toMatchObject({ code: 'APPEND_TOO_LARGE' });
    expect(String(error!['message'])).toMatch(/4096/);
    expect(sends(node)).toEqual([]);
  });

  it("EventStoreDbEventStore.appendSize is the server's count: an append of exactly the limit is taken, one byte over refused", async () => {
    const batch = [newEvent('Sized', { blob: 'z'.repeat(3000) }), newEvent('Sized', { n: 2 })];
    const size = EventStoreDbEventStore.appendSize('sized', batch);
    const exact = await setup({}, { maxAppendSize: size });
    await exact.store.appendToStream('sized', batch);
    const under = await setup({}, { maxAppendSize: size - 1 });
    expect(await failure(under.store.appendToStream('sized', batch))).toMatchObject({
      code: 'APPEND_TOO_LARGE',
    });
    expect(under.node.refusedAppends).toHaveLength(1);
  });

  it('a server whose limit was raised takes larger appends, with nothing configured in the adapter', async () => {
    const { store } = await setup({}, { maxAppendSize: 4 * 1024 * 1024 });
    const s = stream('larger');
    const half = 'x'.repeat(900 * 1024);
    await store.appendToStream(s, [newEvent('Big', { half }), newEvent('Big', { half })]);
    expect(await collect(store.readStream(s))).toHaveLength(2);
  });
});

describe('finding 6: an append the client answers { success: false } is not reported as written', () => {
  it('with throwOnAppendFailure=false, a lost race is retried on the new head', async () => {
    const { node } = await setup();
    const store = new EventStoreDbEventStore({
      connectionString: `${node.connectionString}&throwOnAppendFailure=false`,
    });
    closers.push(() => store.close());
    const s = stream('no-throw');
    await store.appendToStream(s, events(1));
    let interloped = false;
    node.faults.beforeAppend = (name) => {
      if (interloped || name !== s) return;
      interloped = true;
      interlope(node, s);
    };
    const mine = events(2);
    const result = await store.appendToStream(s, mine);
    const stored = await collect(store.readStream(s));
    expect(stored.map((e) => e.id).slice(-2)).toEqual(mine.map((e) => e.id));
    expect(result.nextExpectedRevision).toBe(3n);
  });
});

describe('finding 7: a deleted stream is refused with a clear error, never chained from genesis', () => {
  it('soft-deleted (its revisions would continue from N+1): STREAM_DELETED, nothing written', async () => {
    const { node, store } = await setup();
    const s = stream('soft');
    await store.appendToStream(s, events(3));
    const client = EventStoreDBClient.connectionString(node.connectionString);
    closers.push(() => client.dispose());
    await client.deleteStream(s);
    const before = node.log.recordCount;
    const error = await failure(store.appendToStream(s, events(1)));
    expect(error).toMatchObject({ code: 'STREAM_DELETED' });
    expect(String(error!['message'])).toMatch(/deleted/);
    expect(node.log.recordCount).toBe(before);
  });

  it('soft-deleted, appended to at the revision its writer last saw: STREAM_DELETED, not a lost race', async () => {
    const { node, store } = await setup();
    const s = stream('soft-seen');
    await store.appendToStream(s, events(2));
    const client = EventStoreDBClient.connectionString(node.connectionString);
    closers.push(() => client.dispose());
    await client.deleteStream(s);
    expect(await failure(store.appendToStream(s, events(1), { expectedRevision: 1n }))).toMatchObject({
      code: 'STREAM_DELETED',
    });
  });

  it('tombstoned: STREAM_DELETED', async () => {
    const { node, store } = await setup();
    const s = stream('hard');
    await store.appendToStream(s, events(1));
    const client = EventStoreDBClient.connectionString(node.connectionString);
    closers.push(() => client.dispose());
    await client.tombstoneStream(s);
    expect(await failure(store.appendToStream(s, events(1)))).toMatchObject({ code: 'STREAM_DELETED' });
  });
});

describe('finding 8: the smaller ones', () => {
  it('a server older than 22.6 (stream reads without positions) is named, not read as position 2^64-1', async () => {
    const { node, store } = await setup({}, { streamPositions: false });
    const s = stream('old');
    const client = EventStoreDBClient.connectionString(node.connectionString);
    closers.push(() => client.dispose());
    await client.appendToStream(s, jsonEvent({ type: 'T', data: {}, metadata: { schemaVersion: 1 } }));
    const error = await failure(collect(store.readStream(s)));
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect(String(error!['message'])).toMatch(/older than 22\.6/);
  });

  it('headPosition maps a store that is down to STORE_UNAVAILABLE', async () => {
    const { node, store } = await setup();
    await store.appendToStream(stream('head'), events(1));
    await node.stop();
    const error = await within(15_000, failure(store.headPosition()), 'headPosition');
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
  });

  it('reads have a deadline: a store that takes the call and never answers fails them (so /health cannot hang)', async () => {
    const { node, store } = await setup({ readTimeoutMs: 300 });
    const s = stream('hang');
    await store.appendToStream(s, events(1));
    node.faults.hangReads = true;
    for (const read of [
      () => store.streamHead(s),
      () => store.headPosition(),
      () => collect(store.readStream(s)),
    ]) {
      const error = await within(5_000, failure(read()), 'a read');
      expect(error).toBeInstanceOf(EventStoreUnavailableError);
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    }
  });

  it('an append with an exact expected revision reads only the head, and nothing back', async () => {
    const { node, store } = await setup();
    const s = stream('exact');
    await store.appendToStream(s, events(1));
    const from = node.served.length;
    await store.appendToStream(s, events(50), { expectedRevision: 0n });
    const reads = node.served.slice(from).filter((c) => c.rpc === 'read' && c.stream === s);
    expect(reads.map((c) => c.count)).toEqual([1n]);
    expect(reads.every((c) => c.requiresLeader)).toBe(true);
  });

  it('the server’s refusal of an event over its per-event limit (unknown to the client) is EVENT_TOO_LARGE', async () => {
    const { store } = await setup({}, { maxAppendEventSize: 2000 });
    const error = await failure(
      store.appendToStream(stream('event-limit'), [newEvent('T', { blob: 'z'.repeat(3000) })]),
    );
    expect(error).toBeInstanceOf(EventStoreInputError);
    expect(error).toMatchObject({ code: 'EVENT_TOO_LARGE' });
  });

  it('a read of $all from where no event starts is refused as bad input, not as an unavailable store', async () => {
    const { store } = await setup();
    const s = stream('position');
    const { position } = await store.appendToStream(s, events(1));
    const error = await failure(collect(store.readAll({ fromPosition: position - 1n, maxCount: 1 })));
    expect(error).toBeInstanceOf(EventStoreInputError);
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('dropped connections and lost races', () => {
  it('after the connections drop, the next operations reconnect', async () => {
    const { node, store } = await setup();
    const s = stream('drop');
    await store.appendToStream(s, events(1));
    await node.dropConnections();
    await store.appendToStream(s, events(1));
    expect(await collect(store.readStream(s))).toHaveLength(2);
  });

  it('an append that keeps losing races gives up with WrongExpectedVersion, writing nothing forked', async () => {
    const { node } = await setup();
    const store = new EventStoreDbEventStore({
      connectionString: node.connectionString,
      maxAppendAttempts: 3,
    });
    closers.push(() => store.close());
    const s = stream('hot');
    await store.appendToStream(s, events(1));
    let interferences = 0;
    node.faults.beforeAppend = (name) => {
      if (name !== s) return;
      interferences += 1;
      interlope(node, s);
    };
    const error = await failure(store.appendToStream(s, events(1)));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(interferences).toBe(3);
  });
});
