/* eslint-disable @typescript-eslint/no-non-null-assertion -- test code: indexes into lists the test just built, as in specs */
// The one contract suite every EventStore adapter passes (memory, SQLite, EventStoreDB). Test-only: it uses
// Jest's globals, so it is not part of the built library; specs import it by relative path.
//
// Each case opens its own store through `makeStore` and uses fresh stream names, so the suite also runs
// against a shared EventStoreDB server that holds other data.
import { randomUUID } from 'node:crypto';
import { EventStoreInputError, EventStoreUnavailableError, WrongExpectedVersionError } from '../errors';
import type { EventStoreOptions } from '../factory';
import { canonicalJson, computeEventHash, GENESIS_HASH } from '../hash';
import type { EventMetadata, EventStore, JsonValue, NewEvent, RecordedEvent } from '../types';
import { UpcasterRegistry } from '../upcasting';
import { MAX_EVENT_BYTES } from '../validation';
import { runSnapshotContract } from './snapshot-contract';

/** Raw stored fields a tamper hook overwrites: `data`/`metadata` are the stored JSON text. */
export interface TamperPatch {
  data?: string;
  metadata?: string;
  type?: string;
  prevHash?: string;
  hash?: string;
}

export interface ContractFixture {
  store: EventStore;
  /** Closes the store (it may already be closed) and removes what the fixture created. */
  cleanup: () => Promise<void>;
  /**
   * Overwrites a stored event in place, bypassing the store, as someone with access to the storage could.
   * Required when the adapter declares `tamperable`.
   */
  tamper?: (stream: string, revision: bigint, patch: TamperPatch) => Promise<void>;
}

/** What an adapter can be tested for; cases that do not apply are not registered (and the spec says so). */
export interface ContractCapabilities {
  /** Stored events can be changed in place behind the store's back (memory, SQLite; not EventStoreDB). */
  tamperable?: boolean;
  /**
   * An id recorded in one stream is refused in another (memory and SQLite keep a unique index of ids;
   * EventStoreDB de-duplicates ids within a stream only).
   */
  uniqueEventIds?: boolean;
  /**
   * verifyStream sees the stored bytes, so even a whitespace-only change is named (memory, SQLite). The EventStoreDB
   * client hands over parsed JSON: its adapter's chain covers what the JSON means, and a change of bytes that keeps
   * the meaning is invisible to it (the case then holds it to exactly that).
   */
  verifiesStoredBytes?: boolean;
}

export type MakeStore = (options?: EventStoreOptions) => Promise<ContractFixture>;

type Meta = Omit<EventMetadata, 'schemaVersion'> & { schemaVersion?: number };

export function newEvent(type = 'ThingHappened', data: JsonValue = { n: 1 }, metadata: Meta = {}): NewEvent {
  return { id: randomUUID(), type, data, metadata: { schemaVersion: 1, ...metadata } };
}

export function events(count: number, type = 'ThingHappened'): NewEvent[] {
  return Array.from({ length: count }, (_, n) => newEvent(type, { n }));
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const uniqueStream = (label: string): string => `${label}-${randomUUID().slice(0, 8)}`;

/**
 * A checkpoint just before the events a case writes next: the position of a marker event. (A real event's
 * position, not `position - 1n`: EventStoreDB only reads $all from positions where a record starts.)
 */
async function marker(store: EventStore): Promise<bigint> {
  return (await store.appendToStream(uniqueStream('marker'), [newEvent('Marker')])).position;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The hash of a recorded event recomputed with the public function (its data/metadata as stored). */
const rehash = (e: RecordedEvent): string =>
  computeEventHash({
    streamName: e.streamName,
    streamRevision: e.streamRevision,
    type: e.type,
    data: e.data,
    metadata: e.metadata as JsonValue,
    prevHash: e.prevHash,
  });

export function runEventStoreContract(
  name: string,
  makeStore: MakeStore,
  capabilities: ContractCapabilities = {},
): void {
  const { tamperable = true, uniqueEventIds = true, verifiesStoredBytes = true } = capabilities;
  async function use(
    run: (fixture: ContractFixture) => Promise<void>,
    options?: EventStoreOptions,
  ): Promise<void> {
    const fixture = await makeStore(options);
    try {
      await run(fixture);
    } finally {
      await fixture.cleanup();
    }
  }

  const ids = (list: readonly { id: string }[]): string[] => list.map((e) => e.id);
  const revisions = (list: readonly RecordedEvent[]): bigint[] => list.map((e) => e.streamRevision);

  async function expectWrongVersion(
    promise: Promise<unknown>,
    expected: WrongExpectedVersionError['expected'],
    actual: bigint | 'no_stream',
  ): Promise<void> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    const wev = error as WrongExpectedVersionError;
    expect(wev.code).toBe('WRONG_EXPECTED_VERSION');
    expect(wev.expected).toBe(expected);
    expect(wev.actual).toBe(actual);
  }

  async function expectInputError(
    promise: Promise<unknown>,
    code: EventStoreInputError['code'],
  ): Promise<void> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EventStoreInputError);
    expect((error as EventStoreInputError).code).toBe(code);
  }

  describe(`EventStore contract: ${name}`, () => {
    describe('expected revision', () => {
      it('no_stream creates a stream at revision 0; the result names the last revision and its position', () =>
        use(async ({ store }) => {
          const s = uniqueStream('create');
          const batch = events(3);
          const result = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
          const read = await collect(store.readStream(s));
          expect(ids(read)).toEqual(ids(batch));
          expect(revisions(read)).toEqual([0n, 1n, 2n]);
          expect(result).toEqual({ nextExpectedRevision: 2n, position: read[2]!.globalPosition });
          expect(read.every((e) => e.streamName === s)).toBe(true);
          expect(read[0]!.globalPosition < read[1]!.globalPosition).toBe(true);
          expect(read[1]!.globalPosition < read[2]!.globalPosition).toBe(true);
        }));

      it('no_stream on an existing stream is refused with the actual revision, nothing written', () =>
        use(async ({ store }) => {
          const s = uniqueStream('exists');
          await store.appendToStream(s, events(2));
          await expectWrongVersion(
            store.appendToStream(s, events(1), { expectedRevision: 'no_stream' }),
            'no_stream',
            1n,
          );
          expect(await collect(store.readStream(s))).toHaveLength(2);
        }));

      it('a revision equal to the head appends; behind, ahead or on a missing stream it is refused', () =>
        use(async ({ store }) => {
          const s = uniqueStream('numeric');
          await expectWrongVersion(
            store.appendToStream(s, events(1), { expectedRevision: 0n }),
            0n,
            'no_stream',
          );
          await store.appendToStream(s, events(2), { expectedRevision: 'no_stream' });
          const next = await store.appendToStream(s, events(1), { expectedRevision: 1n });
          expect(next.nextExpectedRevision).toBe(2n);
          await expectWrongVersion(store.appendToStream(s, events(1), { expectedRevision: 1n }), 1n, 2n);
          await expectWrongVersion(store.appendToStream(s, events(1), { expectedRevision: 7n }), 7n, 2n);
          expect(revisions(await collect(store.readStream(s)))).toEqual([0n, 1n, 2n]);
        }));

      it('headPosition is the newest global position (null while empty), as readAll ends', () =>
        use(async ({ store }) => {
          const before = await store.headPosition();
          const s = uniqueStream('head-position');
          await store.appendToStream(s, events(3));
          const head = await store.headPosition();
          expect(head).not.toBeNull();
          if (before !== null) expect(head! > before).toBe(true);
          const all = await collect(store.readAll(before === null ? {} : { fromPosition: before }));
          expect(head).toBe(all.at(-1)!.globalPosition);
        }));

      it('stream_exists needs the stream; any (the default) takes it as it is', () =>
        use(async ({ store }) => {
          const s = uniqueStream('exists-any');
          await expectWrongVersion(
            store.appendToStream(s, events(1), { expectedRevision: 'stream_exists' }),
            'stream_exists',
            'no_stream',
          );
          expect(await store.streamHead(s)).toBeNull();
          expect(
            (await store.appendToStream(s, events(1), { expectedRevision: 'any' })).nextExpectedRevision,
          ).toBe(0n);
          expect((await store.appendToStream(s, events(2))).nextExpectedRevision).toBe(2n);
          const last = await store.appendToStream(s, events(1), { expectedRevision: 'stream_exists' });
          expect(last.nextExpectedRevision).toBe(3n);
          expect(revisions(await collect(store.readStream(s)))).toEqual([0n, 1n, 2n, 3n]);
        }));

      it('the error is typed and serializable', () =>
        use(async ({ store }) => {
          const s = uniqueStream('typed');
          await store.appendToStream(s, events(1));
          const error = await store
            .appendToStream(s, events(1), { expectedRevision: 'no_stream' })
            .catch((e: unknown) => e);
          expect(error).toBeInstanceOf(WrongExpectedVersionError);
          expect(error).toMatchObject({
            code: 'WRONG_EXPECTED_VERSION',
            stream: s,
            expected: 'no_stream',
            actual: 0n,
          });
          expect(JSON.parse(JSON.stringify(error))).toMatchObject({
            code: 'WRONG_EXPECTED_VERSION',
            actual: '0',
          });
        }));
    });

    describe('atomic appends', () => {
      it('writes every event of one call in order, with consecutive revisions', () =>
        use(async ({ store }) => {
          const s = uniqueStream('atomic');
          const batch = events(5);
          await store.appendToStream(s, batch.slice(0, 2));
          await store.appendToStream(s, batch.slice(2));
          const read = await collect(store.readStream(s));
          expect(ids(read)).toEqual(ids(batch));
          expect(revisions(read)).toEqual([0n, 1n, 2n, 3n, 4n]);
        }));

      it('a batch with one invalid event writes nothing', () =>
        use(async ({ store }) => {
          const s = uniqueStream('atomic-bad');
          await store.appendToStream(s, events(1));
          const batch = [newEvent(), newEvent('Bad', { amount: Number.NaN }), newEvent()];
          await expectInputError(store.appendToStream(s, batch), 'INVALID_EVENT');
          expect(await collect(store.readStream(s))).toHaveLength(1);
        }));

      it('a batch refused for its expected revision writes none of its events', () =>
        use(async ({ store }) => {
          const s = uniqueStream('atomic-wev');
          await store.appendToStream(s, events(2));
          await expectWrongVersion(store.appendToStream(s, events(3), { expectedRevision: 0n }), 0n, 1n);
          expect(await collect(store.readStream(s))).toHaveLength(2);
        }));
    });

    describe('idempotent retries', () => {
      it('the same events again at the same revision are a no-op returning the first result', () =>
        use(async ({ store }) => {
          const s = uniqueStream('idem-rev');
          await store.appendToStream(s, events(1));
          const batch = events(2);
          const first = await store.appendToStream(s, batch, { expectedRevision: 0n });
          await store.appendToStream(s, events(1)); // the stream moves on
          const again = await store.appendToStream(s, batch, { expectedRevision: 0n });
          expect(again).toEqual(first);
          expect(await collect(store.readStream(s))).toHaveLength(4);
        }));

      it('a retried no_stream creation is a no-op', () =>
        use(async ({ store }) => {
          const s = uniqueStream('idem-new');
          const batch = events(2);
          const first = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
          expect(await store.appendToStream(s, batch, { expectedRevision: 'no_stream' })).toEqual(first);
          expect(ids(await collect(store.readStream(s)))).toEqual(ids(batch));
        }));

      it('a retried any / stream_exists append of the latest events is a no-op', () =>
        use(async ({ store }) => {
          const s = uniqueStream('idem-any');
          await store.appendToStream(s, events(1));
          const batch = events(3);
          const first = await store.appendToStream(s, batch, { expectedRevision: 'any' });
          expect(await store.appendToStream(s, batch, { expectedRevision: 'any' })).toEqual(first);
          expect(await store.appendToStream(s, batch, { expectedRevision: 'stream_exists' })).toEqual(first);
          expect(await store.appendToStream(s, batch)).toEqual(first);
          expect(await collect(store.readStream(s))).toHaveLength(4);
        }));

      it('an id recorded at the same place with other contents is refused, nothing written', () =>
        use(async ({ store }) => {
          const s = uniqueStream('idem-changed');
          const original = newEvent('ThingHappened', { n: 1 });
          await store.appendToStream(s, [original], { expectedRevision: 'no_stream' });
          const changed = { ...original, data: { n: 2 } };
          await expectInputError(
            store.appendToStream(s, [changed], { expectedRevision: 'no_stream' }),
            'DUPLICATE_EVENT_ID',
          );
          await expectInputError(
            store.appendToStream(s, [changed], { expectedRevision: 'any' }),
            'DUPLICATE_EVENT_ID',
          );
          const read = await collect(store.readStream(s));
          expect(read.map((e) => e.data)).toEqual([{ n: 1 }]);
        }));

      it('a retry that only partly matches what is stored is refused, nothing written', () =>
        use(async ({ store }) => {
          const s = uniqueStream('idem-partial');
          const [a, b] = events(2);
          await store.appendToStream(s, [a!, b!], { expectedRevision: 'no_stream' });
          await expectInputError(
            store.appendToStream(s, [a!, newEvent()], { expectedRevision: 'no_stream' }),
            'DUPLICATE_EVENT_ID',
          );
          expect(ids(await collect(store.readStream(s)))).toEqual([a!.id, b!.id]);
        }));

      if (uniqueEventIds) {
        it('an id already recorded in another stream is refused, nothing written', () =>
          use(async ({ store }) => {
            const [s1, s2] = [uniqueStream('dup-a'), uniqueStream('dup-b')];
            const shared = newEvent();
            await store.appendToStream(s1, [shared]);
            await expectInputError(store.appendToStream(s2, [newEvent(), shared]), 'DUPLICATE_EVENT_ID');
            expect(await collect(store.readStream(s2))).toEqual([]);
          }));
      } else {
        it('ids are unique per stream only: an id recorded in another stream is written again here', () =>
          use(async ({ store }) => {
            const [s1, s2] = [uniqueStream('dup-a'), uniqueStream('dup-b')];
            const shared = newEvent();
            await store.appendToStream(s1, [shared]);
            await store.appendToStream(s2, [newEvent(), shared]);
            expect(ids(await collect(store.readStream(s2)))[1]).toBe(shared.id);
            expect(ids(await collect(store.readStream(s1)))).toEqual([shared.id]);
          }));
      }
    });

    describe('concurrent appenders', () => {
      it('of two racing appends at the same revision exactly one wins', () =>
        use(async ({ store }) => {
          const s = uniqueStream('race');
          await store.appendToStream(s, events(1));
          const [a, b] = [events(2), events(2)];
          const results = await Promise.allSettled([
            store.appendToStream(s, a, { expectedRevision: 0n }),
            store.appendToStream(s, b, { expectedRevision: 0n }),
          ]);
          const won = results.filter((r) => r.status === 'fulfilled');
          const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
          expect(won).toHaveLength(1);
          expect(lost).toHaveLength(1);
          expect(lost[0]!.reason).toBeInstanceOf(WrongExpectedVersionError);
          const winner = results[0]!.status === 'fulfilled' ? a : b;
          const read = await collect(store.readStream(s));
          expect(ids(read.slice(1))).toEqual(ids(winner));
          expect((await store.verifyStream(s)).ok).toBe(true);
        }));

      it('many concurrent "any" appends to one stream all land, in one unbroken chain', () =>
        use(async ({ store }) => {
          const s = uniqueStream('many');
          const batches = Array.from({ length: 12 }, () => events(2));
          await Promise.all(batches.map((batch) => store.appendToStream(s, batch)));
          const read = await collect(store.readStream(s));
          expect(revisions(read)).toEqual(Array.from({ length: 24 }, (_, i) => BigInt(i)));
          expect(new Set(ids(read))).toEqual(new Set(batches.flat().map((e) => e.id)));
          expect(await store.verifyStream(s)).toMatchObject({ ok: true, checked: 24 });
        }));
    });

    describe('reading a stream', () => {
      const setup = async (store: EventStore): Promise<{ s: string; batch: NewEvent[] }> => {
        const s = uniqueStream('read');
        const batch = events(10);
        await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
        return { s, batch };
      };

      it('forwards, from a revision, with a maximum count', () =>
        use(async ({ store }) => {
          const { s, batch } = await setup(store);
          expect(ids(await collect(store.readStream(s)))).toEqual(ids(batch));
          expect(ids(await collect(store.readStream(s, { fromRevision: 'start', maxCount: 3 })))).toEqual(
            ids(batch.slice(0, 3)),
          );
          expect(revisions(await collect(store.readStream(s, { fromRevision: 4n, maxCount: 3 })))).toEqual([
            4n,
            5n,
            6n,
          ]);
          expect(revisions(await collect(store.readStream(s, { fromRevision: 8n })))).toEqual([8n, 9n]);
          expect(await collect(store.readStream(s, { fromRevision: 10n }))).toEqual([]);
          expect(await collect(store.readStream(s, { fromRevision: 'end' }))).toEqual([]);
          expect(await collect(store.readStream(s, { maxCount: 0 }))).toEqual([]);
        }));

      it('backwards, from the end or a revision, with a maximum count', () =>
        use(async ({ store }) => {
          const { s, batch } = await setup(store);
          expect(ids(await collect(store.readStream(s, { direction: 'backwards' })))).toEqual(
            ids(batch).reverse(),
          );
          expect(
            revisions(await collect(store.readStream(s, { direction: 'backwards', maxCount: 2 }))),
          ).toEqual([9n, 8n]);
          expect(
            revisions(await collect(store.readStream(s, { direction: 'backwards', fromRevision: 3n }))),
          ).toEqual([3n, 2n, 1n, 0n]);
          expect(
            revisions(
              await collect(store.readStream(s, { direction: 'backwards', fromRevision: 5n, maxCount: 2 })),
            ),
          ).toEqual([5n, 4n]);
          expect(
            revisions(await collect(store.readStream(s, { direction: 'backwards', fromRevision: 'start' }))),
          ).toEqual([0n]);
        }));

      it('an unknown stream reads as empty both ways and has no head', () =>
        use(async ({ store }) => {
          const s = uniqueStream('unknown');
          expect(await collect(store.readStream(s))).toEqual([]);
          expect(await collect(store.readStream(s, { direction: 'backwards' }))).toEqual([]);
          expect(await store.streamHead(s)).toBeNull();
        }));

      it('reads streams longer than one page in order', () =>
        use(async ({ store }) => {
          const s = uniqueStream('long');
          const batch = events(1200);
          await store.appendToStream(s, batch.slice(0, 600));
          await store.appendToStream(s, batch.slice(600));
          expect(ids(await collect(store.readStream(s)))).toEqual(ids(batch));
          const back = await collect(store.readStream(s, { direction: 'backwards' }));
          expect(revisions(back)).toEqual(Array.from({ length: 1200 }, (_, i) => BigInt(1199 - i)));
          expect(await collect(store.readStream(s, { fromRevision: 550n, maxCount: 700 }))).toHaveLength(650);
        }));

      it('returns stored fields: type, data, metadata, recordedAt, bigint revisions and positions', () =>
        use(async ({ store }) => {
          const s = uniqueStream('fields');
          const event = newEvent(
            'BetPlaced',
            { amount: 2500, spot: 'banker', tags: ['a', null, true] },
            {
              commandId: 'c-1',
              correlationId: 'k-1',
              causationId: 'x-1',
              actor: 'dealer:d1',
            },
          );
          const result = await store.appendToStream(s, [event]);
          const [read] = await collect(store.readStream(s));
          expect(read).toMatchObject({
            id: event.id,
            type: 'BetPlaced',
            data: event.data,
            metadata: event.metadata,
            streamName: s,
          });
          expect(typeof read!.streamRevision).toBe('bigint');
          expect(typeof read!.globalPosition).toBe('bigint');
          expect(typeof result.position).toBe('bigint');
          expect(typeof result.nextExpectedRevision).toBe('bigint');
          expect(Number.isNaN(Date.parse(read!.recordedAt))).toBe(false);
          expect(new Date(read!.recordedAt).toISOString()).toBe(read!.recordedAt);
          const head = await store.streamHead(s);
          expect(head).toEqual({ revision: 0n, hash: read!.hash });
        }));
    });

    describe('reading all', () => {
      it('returns every event in global order; fromPosition is exclusive; maxCount bounds it', () =>
        use(async ({ store }) => {
          const [s1, s2, s3] = [uniqueStream('all-a'), uniqueStream('all-b'), uniqueStream('all-c')];
          const checkpoint = await marker(store);
          const first = await store.appendToStream(s1, events(1));
          const written = [first.position];
          for (let i = 0; i < 4; i++) {
            for (const s of [s2, s3, s1]) written.push((await store.appendToStream(s, events(1))).position);
          }
          const ours = new Set([s1, s2, s3]);
          const all = (await collect(store.readAll({ fromPosition: checkpoint }))).filter((e) =>
            ours.has(e.streamName),
          );
          expect(all.map((e) => e.globalPosition)).toEqual(written);
          for (let i = 1; i < all.length; i++)
            expect(all[i - 1]!.globalPosition < all[i]!.globalPosition).toBe(true);
          const after = await collect(store.readAll({ fromPosition: written[4]!, maxCount: 3 }));
          expect(after.map((e) => e.globalPosition)).toEqual(written.slice(5, 8));
          const later = await collect(store.readAll({ fromPosition: written[12]! }));
          expect(later.filter((e) => ours.has(e.streamName))).toEqual([]);
          expect(await collect(store.readAll({ fromPosition: checkpoint, maxCount: 0 }))).toEqual([]);
        }));
    });

    describe('reading all from a position the store returned', () => {
      it('with inclusive, the event at fromPosition is read first; without, it is not', () =>
        use(async ({ store }) => {
          const s = uniqueStream('inclusive');
          await store.appendToStream(s, events(3));
          const read = await collect(store.readStream(s));
          const from = read[1]!.globalPosition;
          const inclusive = await collect(
            store.readAll({ fromPosition: from, inclusive: true, maxCount: 2 }),
          );
          expect(ids(inclusive)).toEqual(ids(read.slice(1, 3)));
          expect(ids(await collect(store.readAll({ fromPosition: from, maxCount: 1 })))).toEqual([
            read[2]!.id,
          ]);
          const first = await collect(
            store.readAll({ fromPosition: read[0]!.globalPosition, inclusive: true, maxCount: 1 }),
          );
          expect(ids(first)).toEqual([read[0]!.id]);
        }));
    });

    describe('subscribeToAll', () => {
      it('catches up from a checkpoint, then goes live under concurrent writes: global order, no gap, no duplicate', () =>
        use(async ({ store }) => {
          const streams = Array.from({ length: 4 }, (_, i) => uniqueStream(`sub-${i}`));
          const ours = new Set(streams);
          const checkpoint = await marker(store);
          await store.appendToStream(streams[0]!, events(1));
          for (const s of streams) await store.appendToStream(s, events(10));
          const perWriter = 15;
          const total = 1 + 40 + streams.length * perWriter;

          const subscription = store.subscribeToAll({ fromPosition: checkpoint });
          const received: RecordedEvent[] = [];
          try {
            const consumer = (async () => {
              for await (const event of subscription) {
                if (ours.has(event.streamName)) received.push(event);
                if (received.length >= total) break;
              }
            })();
            const writers = streams.map(async (s) => {
              for (let i = 0; i < perWriter; i++) {
                await store.appendToStream(s, events(1));
                await new Promise((resolve) => setTimeout(resolve, i % 3));
              }
            });
            await Promise.all(writers);
            await withTimeout(consumer, 15_000, `subscription to deliver ${total} events`);
          } finally {
            await subscription.close();
          }

          const stored = (await collect(store.readAll({ fromPosition: checkpoint }))).filter((e) =>
            ours.has(e.streamName),
          );
          expect(stored).toHaveLength(total);
          expect(received.map((e) => e.globalPosition)).toEqual(stored.map((e) => e.globalPosition));
          expect(ids(received)).toEqual(ids(stored));
        }));

      it('several subscriptions at once, from different positions, each get every event in order under live writes', () =>
        use(async ({ store }) => {
          const s = uniqueStream('sub-many');
          const checkpoint = await marker(store);
          const first = await store.appendToStream(s, events(5));
          const total = 5 + 30;
          const froms = [checkpoint, checkpoint, first.position, first.position];
          const subscriptions = froms.map((fromPosition) => store.subscribeToAll({ fromPosition }));
          try {
            const consumers = subscriptions.map((sub, i) =>
              (async () => {
                const got: RecordedEvent[] = [];
                const want = i < 2 ? total : total - 5;
                for await (const event of sub) {
                  if (event.streamName === s) got.push(event);
                  if (got.length >= want) break;
                }
                return got;
              })(),
            );
            for (let i = 0; i < 30; i++) await store.appendToStream(s, events(1));
            const received = await withTimeout(Promise.all(consumers), 15_000, 'four subscriptions');
            const stored = await collect(store.readStream(s));
            expect(ids(received[0]!)).toEqual(ids(stored));
            expect(ids(received[1]!)).toEqual(ids(stored));
            expect(ids(received[2]!)).toEqual(ids(stored.slice(5)));
            expect(ids(received[3]!)).toEqual(ids(stored.slice(5)));
          } finally {
            await Promise.all(subscriptions.map((sub) => sub.close()));
          }
        }));

      it('delivers only events after fromPosition, and close() ends a pending iteration', () =>
        use(async ({ store }) => {
          const s = uniqueStream('sub-from');
          const first = await store.appendToStream(s, events(3));
          const subscription = store.subscribeToAll({ fromPosition: first.position });
          try {
            const iterator = subscription[Symbol.asyncIterator]();
            const pending = iterator.next();
            const second = await store.appendToStream(s, events(1));
            const delivered = await withTimeout(pending, 10_000, 'the live event');
            expect(delivered.done).toBe(false);
            expect(delivered.value).toMatchObject({
              streamName: s,
              streamRevision: 3n,
              globalPosition: second.position,
            });
            const waiting = iterator.next();
            await subscription.close();
            expect(await withTimeout(waiting, 5_000, 'close() to end the iteration')).toMatchObject({
              done: true,
            });
          } finally {
            await subscription.close();
          }
        }));

      it('closing the store ends its subscriptions', async () => {
        const fixture = await makeStore();
        try {
          const subscription = fixture.store.subscribeToAll();
          const consumer = collect(subscription);
          await new Promise((resolve) => setTimeout(resolve, 20));
          await fixture.store.close();
          await withTimeout(consumer, 5_000, 'store.close() to end the subscription');
        } finally {
          await fixture.cleanup();
        }
      });
    });

    describe('tamper-evident chain', () => {
      it('chains each event to the previous one from the genesis hash; verifyStream passes', () =>
        use(async ({ store }) => {
          const s = uniqueStream('chain');
          await store.appendToStream(s, events(3));
          await store.appendToStream(s, events(2));
          const read = await collect(store.readStream(s));
          expect(read[0]!.prevHash).toBe(GENESIS_HASH);
          read.forEach((e, i) => {
            expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
            expect(e.hash).toBe(rehash(e));
            if (i > 0) expect(e.prevHash).toBe(read[i - 1]!.hash);
          });
          expect(await store.verifyStream(s)).toEqual({ ok: true, checked: 5, headHash: read[4]!.hash });
          expect(await store.verifyStream(uniqueStream('none'))).toEqual({
            ok: true,
            checked: 0,
            headHash: null,
          });
        }));

      it('a head hash noted earlier still verifies after the stream grows', () =>
        use(async ({ store }) => {
          const s = uniqueStream('noted');
          await store.appendToStream(s, events(3));
          const noted = (await store.verifyStream(s)).headHash!;
          await store.appendToStream(s, events(2));
          expect((await store.verifyStream(s, { expectedHeadHash: noted })).ok).toBe(true);
          expect(
            (await store.verifyStream(s, { expectedHeadHash: noted, expectedHeadRevision: 2n })).ok,
          ).toBe(true);
          const wrong = await store.verifyStream(s, { expectedHeadHash: 'f'.repeat(64) });
          expect(wrong.ok).toBe(false);
          expect(wrong.reason).toMatch(/not in the chain/);
        }));

      (tamperable ? describe : describe.skip)('tampering with stored events behind the store', () => {
        const tamperCase = (
          title: string,
          run: (
            fixture: ContractFixture & { tamper: NonNullable<ContractFixture['tamper']> },
          ) => Promise<void>,
        ): void => {
          it(title, () =>
            use(async (fixture) => {
              if (!fixture.tamper)
                throw new Error(`${name} is declared tamperable but its fixture has no tamper hook`);
              await run({ ...fixture, tamper: fixture.tamper });
            }),
          );
        };

        for (const [field, patch] of [
          [
            'data',
            (e: RecordedEvent): TamperPatch => ({ data: canonicalJson({ ...(e.data as object), n: 99 }) }),
          ],
          [
            'data (one whitespace byte)',
            (e: RecordedEvent): TamperPatch => ({ data: canonicalJson(e.data).replace(':', ': ') }),
          ],
          [
            'metadata',
            (e: RecordedEvent): TamperPatch => ({
              metadata: canonicalJson({ ...e.metadata, actor: 'mallory' } as JsonValue),
            }),
          ],
          ['type', (): TamperPatch => ({ type: 'SomethingElse' })],
        ] as const) {
          if (field === 'data (one whitespace byte)' && !verifiesStoredBytes) {
            tamperCase(
              'a whitespace-only change of data keeps its meaning and the chain',
              async ({ store, tamper }) => {
                const s = uniqueStream('tamper');
                await store.appendToStream(s, events(4));
                const read = await collect(store.readStream(s));
                await tamper(s, 2n, patch(read[2]!));
                expect(await store.verifyStream(s)).toMatchObject({ ok: true, checked: 4 });
              },
            );
            continue;
          }
          tamperCase(`a changed ${field} is named by verifyStream`, async ({ store, tamper }) => {
            const s = uniqueStream('tamper');
            await store.appendToStream(s, events(4));
            const read = await collect(store.readStream(s));
            await tamper(s, 2n, patch(read[2]!));
            const result = await store.verifyStream(s);
            expect(result.ok).toBe(false);
            expect(result.firstBad).toEqual({
              streamRevision: 2n,
              globalPosition: read[2]!.globalPosition,
              reason: expect.stringMatching(/contents do not match/) as unknown as string,
            });
            expect(result.headHash).toBe(read[3]!.hash);
          });
        }

        tamperCase(
          'an event re-hashed after its change breaks the link to the next one',
          async ({ store, tamper }) => {
            const s = uniqueStream('rehash');
            await store.appendToStream(s, events(4));
            const read = await collect(store.readStream(s));
            const forged = { ...read[1]!, data: { n: 1000 } };
            await tamper(s, 1n, { data: canonicalJson(forged.data), hash: rehash(forged) });
            const result = await store.verifyStream(s);
            expect(result).toMatchObject({ ok: false, firstBad: { streamRevision: 2n } });
            expect(result.firstBad!.reason).toMatch(/prevHash/);
          },
        );

        tamperCase(
          'a chain rewritten from the start is caught by the head hash noted earlier',
          async ({ store, tamper }) => {
            const s = uniqueStream('rewrite');
            await store.appendToStream(s, events(4));
            const noted = await store.verifyStream(s);
            expect(noted.ok).toBe(true);
            const read = await collect(store.readStream(s));
            let prevHash = GENESIS_HASH;
            for (const e of read) {
              const forged = { ...e, data: { n: 7 }, prevHash };
              const hash = rehash(forged);
              await tamper(s, e.streamRevision, { data: canonicalJson(forged.data), prevHash, hash });
              prevHash = hash;
            }
            // Self-consistent, so the chain alone cannot tell ...
            expect((await store.verifyStream(s)).ok).toBe(true);
            // ... but the head hash kept outside the store can.
            const caught = await store.verifyStream(s, { expectedHeadHash: noted.headHash! });
            expect(caught.ok).toBe(false);
            expect(caught.reason).toMatch(/rewritten/);
            const named = await store.verifyStream(s, {
              expectedHeadHash: noted.headHash!,
              expectedHeadRevision: 3n,
            });
            expect(named).toMatchObject({ ok: false, firstBad: { streamRevision: 3n } });
          },
        );
      });
    });

    describe('bad input is refused with a clear error and nothing is written', () => {
      const cycle: Record<string, JsonValue> = {};
      cycle['self'] = cycle;
      const bad: Array<
        [
          string,
          (s: string) => [string, NewEvent[], { expectedRevision?: unknown }?],
          EventStoreInputError['code'],
        ]
      > = [
        ['an empty stream name', () => ['', [newEvent()]], 'INVALID_STREAM_NAME'],
        ['an over-long stream name', () => ['x'.repeat(201), [newEvent()]], 'INVALID_STREAM_NAME'],
        ['a $ system stream name', () => ['$all', [newEvent()]], 'INVALID_STREAM_NAME'],
        ['no events', (s) => [s, []], 'EMPTY_APPEND'],
        [
          'a missing id',
          (s) => [s, [{ ...newEvent(), id: undefined as unknown as string }]],
          'INVALID_EVENT',
        ],
        ['a non-UUID id', (s) => [s, [{ ...newEvent(), id: 'bet-1' }]], 'INVALID_EVENT'],
        [
          'the same id twice in one append',
          (s) => {
            const e = newEvent();
            return [s, [e, e]];
          },
          'INVALID_EVENT',
        ],
        ['an empty type', (s) => [s, [newEvent('')]], 'INVALID_EVENT'],
        [
          'a function in data',
          (s) => [s, [newEvent('T', { f: (() => 1) as unknown as JsonValue })]],
          'INVALID_EVENT',
        ],
        [
          'undefined in data',
          (s) => [s, [newEvent('T', { u: undefined as unknown as JsonValue })]],
          'INVALID_EVENT',
        ],
        ['NaN in data', (s) => [s, [newEvent('T', [1, Number.NaN])]], 'INVALID_EVENT'],
        ['Infinity in data', (s) => [s, [newEvent('T', { x: Number.POSITIVE_INFINITY })]], 'INVALID_EVENT'],
        ['a bigint in data', (s) => [s, [newEvent('T', { b: 1n as unknown as JsonValue })]], 'INVALID_EVENT'],
        ['a cycle in data', (s) => [s, [newEvent('T', cycle)]], 'INVALID_EVENT'],
        [
          'a Date in data',
          (s) => [s, [newEvent('T', { d: new Date(0) as unknown as JsonValue })]],
          'INVALID_EVENT',
        ],
        [
          'metadata without schemaVersion',
          (s) => [s, [{ ...newEvent(), metadata: {} as EventMetadata }]],
          'INVALID_EVENT',
        ],
        [
          'an oversized event',
          (s) => [s, [newEvent('T', { blob: 'x'.repeat(MAX_EVENT_BYTES) })]],
          'EVENT_TOO_LARGE',
        ],
        [
          'a negative expected revision',
          (s) => [s, [newEvent()], { expectedRevision: -1n }],
          'INVALID_OPTIONS',
        ],
      ];
      for (const [what, build, code] of bad) {
        it(`${what} -> ${code}`, () =>
          use(async ({ store }) => {
            const s = uniqueStream('bad');
            const existing = newEvent();
            await store.appendToStream(s, [existing]);
            const [stream, list, options] = build(s);
            await expectInputError(store.appendToStream(stream, list, options as never), code);
            expect(ids(await collect(store.readStream(s)))).toEqual([existing.id]);
          }));
      }
    });

    describe('upcasting', () => {
      const registry = (): UpcasterRegistry =>
        new UpcasterRegistry()
          .register('ChipsBought', 1, ({ data }) => ({
            data: { amountCents: (data as { dollars: number }).dollars * 100 },
          }))
          .register('ChipsBought', 2, ({ data, metadata }) => ({
            data: { ...(data as object), currency: 'USD' },
            metadata: { ...metadata, upcastFrom: metadata.schemaVersion },
          }));

      it('a stored v1 event is read as the current version everywhere; its stored form still verifies', () =>
        use(
          async ({ store }) => {
            const s = uniqueStream('upcast');
            const v1 = newEvent('ChipsBought', { dollars: 25 }, { schemaVersion: 1 });
            const v3 = newEvent('ChipsBought', { amountCents: 700, currency: 'EUR' }, { schemaVersion: 3 });
            const other = newEvent('Other', { dollars: 1 });
            const before = await marker(store);
            await store.appendToStream(s, [v1, v3, other]);
            const expected = [
              {
                type: 'ChipsBought',
                data: { amountCents: 2500, currency: 'USD' },
                metadata: { schemaVersion: 3, upcastFrom: 2 },
              },
              {
                type: 'ChipsBought',
                data: { amountCents: 700, currency: 'EUR' },
                metadata: { schemaVersion: 3 },
              },
              { type: 'Other', data: { dollars: 1 }, metadata: { schemaVersion: 1 } },
            ];
            const shape = (e: RecordedEvent): object => ({
              type: e.type,
              data: e.data,
              metadata: e.metadata,
            });
            expect((await collect(store.readStream(s))).map(shape)).toEqual(expected);
            const all = await collect(store.readAll({ fromPosition: before, maxCount: 3 }));
            expect(all.map(shape)).toEqual(expected);
            const subscription = store.subscribeToAll({ fromPosition: before });
            const first = await withTimeout(
              subscription[Symbol.asyncIterator]().next(),
              10_000,
              'the subscription',
            );
            await subscription.close();
            expect(first.value && shape(first.value)).toEqual(expected[0]);
            expect((await store.verifyStream(s)).ok).toBe(true);
          },
          { upcasters: registry() },
        ));
    });

    runSnapshotContract(makeStore);

    describe('lifecycle', () => {
      it('after close, appends reject with STORE_CLOSED', async () => {
        const fixture = await makeStore();
        try {
          await fixture.store.close();
          await fixture.store.close(); // idempotent
          const error = await fixture.store
            .appendToStream(uniqueStream('closed'), events(1))
            .catch((e: unknown) => e);
          expect(error).toBeInstanceOf(EventStoreUnavailableError);
          expect((error as EventStoreUnavailableError).code).toBe('STORE_CLOSED');
        } finally {
          await fixture.cleanup();
        }
      });
    });
  });
}
