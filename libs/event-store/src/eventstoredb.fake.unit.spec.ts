// The EventStoreDB adapter's own logic against an in-memory fake of the client (no gRPC): the chain kept in the
// metadata and stripped on read, system events skipped, the client disposed on close. The whole contract suite runs
// through the real client over gRPC against the stand-in in eventstoredb.int.spec.ts, faults in
// eventstoredb.faults.int.spec.ts.
import { jsonEvent } from '@eventstore/db-client';
import { FakeEsdbClient } from './testing/fake-esdb-client';
import { EventStoreDbEventStore } from './eventstoredb';
import { collect, events } from './testing/contract';

describe('EventStoreDB adapter specifics (fake client)', () => {
  it('keeps the chain in the metadata and strips it on read; skips system events in $all', async () => {
    const client = new FakeEsdbClient();
    const store = new EventStoreDbEventStore({ connectionString: 'esdb://fake', createClient: () => client });
    await store.appendToStream('t', events(3));
    const raw = [];
    for await (const resolved of client.readStream('t', {
      fromRevision: 'start',
      direction: 'forwards',
      maxCount: 10n,
    })) {
      raw.push(resolved.event);
    }
    expect(raw[1]?.metadata).toEqual(
      expect.objectContaining({
        schemaVersion: 1,
        '$coup.prevHash': expect.any(String),
        '$coup.hash': expect.any(String),
      }),
    );
    const read = await collect(store.readStream('t'));
    expect(read[1]!.metadata).toEqual({ schemaVersion: 1 });
    expect(read[1]!.prevHash).toBe(read[0]!.hash);
    const all = await collect(store.readAll());
    expect(all.every((e) => !e.streamName.startsWith('$'))).toBe(true);
    await store.close();
    expect(client.disposed).toBe(true);
  });

  it('gives up with WrongExpectedVersion after a bounded number of lost races, writing nothing forked', async () => {
    const client = new FakeEsdbClient();
    const store = new EventStoreDbEventStore({
      connectionString: 'esdb://fake',
      createClient: () => client,
      maxAppendAttempts: 3,
    });
    await store.appendToStream('hot', events(1));
    // Another writer gets in before every append this adapter tries.
    const append = client.appendToStream.bind(client);
    let interferences = 0;
    client.appendToStream = async (stream, list, options) => {
      interferences += 1;
      await append(stream, [jsonEvent({ type: 'Interloper', data: {}, metadata: { schemaVersion: 1 } })], {
        expectedRevision: 'any',
      });
      return append(stream, list, options);
    };
    await expect(store.appendToStream('hot', events(1))).rejects.toMatchObject({
      code: 'WRONG_EXPECTED_VERSION',
    });
    expect(interferences).toBe(3);
    await store.close();
  });
});
