// The whole contract suite through @eventstore/db-client over real gRPC: against the EventStoreDB stand-in
// (tools/esdb-standin) by default, against a real EventStoreDB or KurrentDB when EVENTSTORE_CONNECTION_STRING is set
// (`npm run test:eventstoredb` starts one with Docker), e.g.:
//   EVENTSTORE_CONNECTION_STRING='esdb://localhost:2113?tls=false' npx jest src/eventstoredb.int.spec.ts
// Against the stand-in nothing here is skipped: a stand-in that cannot start fails the suite. Against a real server
// the contract's six tampering cases are skipped (jest reports them so): they change a stored event behind the
// server, which only the stand-in can; everything else runs against both.
import { randomUUID } from 'node:crypto';
import {
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  NO_STREAM,
  STREAM_EXISTS,
} from '@eventstore/db-client';
import { EventStoreDbEventStore } from './eventstoredb';
import { runEventStoreContract } from './testing/contract';
import { esdbTarget, type EsdbTarget, standinTamper } from './testing/esdb-target';

jest.setTimeout(30_000);

let target: EsdbTarget;
beforeAll(async () => {
  target = await esdbTarget();
});
afterAll(async () => {
  await target?.close();
});

describe(`EventStoreDB adapter (${process.env['EVENTSTORE_CONNECTION_STRING'] ? 'real server' : 'stand-in'})`, () => {
  runEventStoreContract(
    'eventstoredb',
    async (options) => {
      const store = new EventStoreDbEventStore({
        connectionString: target.connectionString,
        upcasters: options?.upcasters,
      });
      const tamper = target.standin ? { tamper: standinTamper(target.standin) } : {};
      return { store, cleanup: () => store.close(), ...tamper };
    },
    // The server de-duplicates event ids per stream only, and the client hands over parsed JSON. Only the stand-in
    // can change a stored event behind the server (a real server's events are immutable through any API).
    {
      tamperable: process.env['EVENTSTORE_CONNECTION_STRING'] === undefined,
      uniqueEventIds: false,
      verifiesStoredBytes: false,
    },
  );
});

/**
 * What the adapter relies on the server for, through the raw client: the stand-in's fidelity, checked against a
 * real server by the same cases when EVENTSTORE_CONNECTION_STRING is set.
 */
describe('EventStoreDB protocol semantics the adapter relies on', () => {
  let client: EventStoreDBClient;
  beforeAll(() => {
    client = EventStoreDBClient.connectionString(target.connectionString);
  });
  afterAll(async () => {
    await client?.dispose();
  });
  const stream = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
  const event = (type = 'T', data: Record<string, unknown> = { n: 1 }) => jsonEvent({ type, data });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as Record<string, unknown>,
    );
  const read = async (name: string, options?: Parameters<EventStoreDBClient['readStream']>[1]) => {
    const out = [];
    for await (const e of client.readStream(name, options)) out.push(e.event!);
    return out;
  };

  it('a wrong expected revision is refused with the stream’s actual revision', async () => {
    const s = stream('wev');
    await client.appendToStream(s, [event(), event()], { expectedRevision: NO_STREAM });
    const error = await failure(client.appendToStream(s, event(), { expectedRevision: 0n }));
    expect(error).toMatchObject({ type: 'wrong-expected-version', actualVersion: 1n, expectedVersion: 0n });
    const exists = await failure(
      client.appendToStream(stream('none'), event(), { expectedRevision: STREAM_EXISTS }),
    );
    expect(exists).toMatchObject({ type: 'wrong-expected-version', actualVersion: 'no_stream' });
  });

  it('$all positions are byte offsets (commit = prepare), not 0..n; an append answers its last event’s', async () => {
    const s = stream('positions');
    const result = await client.appendToStream(s, [event(), event()]);
    const [a, b] = await read(s);
    expect(a!.position!.commit).toBe(a!.position!.prepare);
    expect(b!.position!.commit - a!.position!.commit > 1n).toBe(true);
    expect(result.position).toEqual(b!.position);
  });

  it('$all reads from a position include the event there; subscriptions from it exclude it', async () => {
    const s = stream('from');
    await client.appendToStream(s, [event('A'), event('B')]);
    const [a, b] = await read(s);
    const forwards = [];
    for await (const e of client.readAll({ fromPosition: a!.position!, maxCount: 1 }))
      forwards.push(e.event!.id);
    expect(forwards).toEqual([a!.id]);
    const subscription = client.subscribeToAll({ fromPosition: a!.position!, filter: excludeSystemEvents() });
    let first: string | undefined;
    for await (const e of subscription) {
      first = e.event!.id;
      break;
    }
    await subscription.unsubscribe();
    expect(first).toBe(b!.id);
  });

  it('$all is refused from a position where no event starts', async () => {
    const s = stream('invalid');
    await client.appendToStream(s, [event(), event()]);
    const [a] = await read(s);
    const inside = { commit: a!.position!.commit + 1n, prepare: a!.position!.prepare + 1n };
    const error = await failure(
      (async () => {
        for await (const e of client.readAll({ fromPosition: inside, maxCount: 1 })) void e;
      })(),
    );
    expect(error).not.toBeNull();
  });

  it('system events ($-prefixed) are in $all; excludeSystemEvents leaves them out and says when caught up', async () => {
    const s = stream('system');
    await client.appendToStream(s, event('Before'));
    const [before] = await read(s);
    await client.deleteStream(s); // writes a $metadata event to $$<stream>
    await client.appendToStream(s, event('After'));
    const all = [];
    for await (const e of client.readAll({ fromPosition: before!.position!, maxCount: 3 }))
      all.push(e.event!);
    expect(all.map((e) => e.type)).toEqual(['Before', '$metadata', 'After']);
    const subscription = client.subscribeToAll({
      fromPosition: before!.position!,
      filter: excludeSystemEvents(),
    });
    const caughtUp = new Promise<void>((resolve) => subscription.once('caughtUp', () => resolve()));
    await caughtUp;
    let next: string | undefined;
    for await (const e of subscription) {
      next = e.event!.type;
      break;
    }
    await subscription.unsubscribe();
    expect(next).toBe('After');
  });

  it('a subscriber slower than the writes falls behind and catches up: every event once, in order', async () => {
    const s = stream('slow');
    await client.appendToStream(s, event('Start'));
    const [start] = await read(s);
    const subscription = client.subscribeToAll({
      fromPosition: start!.position!,
      filter: excludeSystemEvents(),
    });
    const writes = (async () => {
      for (let i = 0; i < 20; i++)
        await client.appendToStream(
          s,
          Array.from({ length: 10 }, (_, n) => event('Burst', { n: i * 10 + n })),
        );
    })();
    const seen: number[] = [];
    for await (const e of subscription) {
      if (e.event?.streamId !== s) continue;
      seen.push((e.event.data as { n: number }).n);
      if (seen.length % 25 === 0) await new Promise((r) => setTimeout(r, 20)); // a slow consumer
      if (seen.length === 200) break;
    }
    await subscription.unsubscribe();
    await writes;
    expect(seen).toEqual(Array.from({ length: 200 }, (_, n) => n));
  });

  it('an append over the maximum append size (1 MiB, summed over its events) is refused, nothing written', async () => {
    const s = stream('too-large');
    const half = 'x'.repeat(600 * 1024);
    const error = await failure(client.appendToStream(s, [event('T', { half }), event('T', { half })]));
    expect(error).toMatchObject({ type: 'maximum-append-size-exceeded', maxAppendSize: 1024 * 1024 });
    expect(await failure(read(s))).toMatchObject({ type: 'stream-not-found' });
  });

  it('retrying the same events at the same expected revision writes them once', async () => {
    const s = stream('idempotent');
    await client.appendToStream(s, event());
    const again = [event(), event()];
    const first = await client.appendToStream(s, again, { expectedRevision: 0n });
    const second = await client.appendToStream(s, again, { expectedRevision: 0n });
    expect(second.nextExpectedRevision).toBe(first.nextExpectedRevision);
    expect(await read(s)).toHaveLength(3);
  });

  it('a soft-deleted stream reads as not found; appending numbers on from its last revision', async () => {
    const s = stream('soft');
    await client.appendToStream(s, [event(), event(), event()]);
    await client.deleteStream(s);
    expect(await failure(read(s))).toMatchObject({ type: 'stream-not-found' });
    expect(
      await failure(client.appendToStream(s, event(), { expectedRevision: STREAM_EXISTS })),
    ).toMatchObject({
      type: 'stream-deleted',
    });
    const recreated = await client.appendToStream(s, event('Again'), { expectedRevision: NO_STREAM });
    expect(recreated.nextExpectedRevision).toBe(3n);
    expect((await read(s)).map((e) => [e.revision, e.type])).toEqual([[3n, 'Again']]);
  });

  it('a tombstoned stream refuses appends', async () => {
    const s = stream('hard');
    await client.appendToStream(s, event());
    await client.tombstoneStream(s);
    expect(await failure(client.appendToStream(s, event()))).toMatchObject({ type: 'stream-deleted' });
  });
});
