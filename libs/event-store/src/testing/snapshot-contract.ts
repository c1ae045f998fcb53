/* eslint-disable @typescript-eslint/no-non-null-assertion -- test code: indexes into lists the test just built, as in specs */
// The contract's snapshot cases (snapshot-parts.ts): a snapshot larger than the 1 MiB an event (and EventStoreDB's
// append, which the stand-in enforces as the server does) may hold is stored in parts and read back whole, on every
// adapter; one whose parts are incomplete, mismatched or out of order is discarded with why, and the one before it
// read. Test-only (Jest globals), registered by runEventStoreContract.
import { randomBytes, randomUUID } from 'node:crypto';
import { WrongExpectedVersionError } from '../errors';
import {
  appendSnapshot,
  type ReadSnapshot,
  readSnapshots,
  type Snapshot,
  SNAPSHOT_PART_KEY,
  snapshotEvents,
} from '../snapshot-parts';
import type { EventStore, JsonValue, NewEvent, RecordedEvent } from '../types';
import { MAX_EVENT_BYTES } from '../validation';
import type { ContractFixture, MakeStore } from './contract';

const ONE_MIB = 1024 * 1024;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const stream = (label: string): string => `snap-${label}-${randomUUID().slice(0, 8)}`;

const snapshot = (body: string, n: number): Snapshot => ({
  type: 'ThingSnapshotted',
  header: { n, revision: String(n) },
  body,
  metadata: { schemaVersion: 1 },
});

/** What a read snapshot says, in short: its header's n and its body, or why it was discarded. */
const shown = (r: ReadSnapshot): unknown =>
  r.ok ? { n: r.header['n'], body: r.body } : { discarded: r.reason };

/** The bytes of a stored event's data and metadata as JSON. */
const sizeOf = (e: RecordedEvent): number =>
  Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata));

type PartData = { part: { chunk: string; id: string; digest: string } } & Record<string, JsonValue>;
const withPart = (e: NewEvent, change: (part: PartData['part']) => PartData['part']): NewEvent => {
  const data = e.data as PartData;
  return { ...e, id: randomUUID(), data: { ...data, [SNAPSHOT_PART_KEY]: change(data.part) } };
};

export function runSnapshotContract(makeStore: MakeStore): void {
  async function use(run: (fixture: ContractFixture) => Promise<void>): Promise<void> {
    const fixture = await makeStore();
    try {
      await run(fixture);
    } finally {
      await fixture.cleanup();
    }
  }

  const append = (store: EventStore, s: string, parts: readonly NewEvent[]) =>
    parts.reduce<Promise<unknown>>((p, e) => p.then(() => store.appendToStream(s, [e])), Promise.resolve());

  describe('snapshots larger than one event may be', () => {
    it('a snapshot over the maximum append size that compresses little is stored in parts, each within it, and read back whole', () =>
      use(async ({ store }) => {
        const s = stream('parts');
        const body = randomBytes(1_200_000).toString('base64'); // 1.6 MB of text, 1.2 MB gzipped
        expect(body.length).toBeGreaterThan(ONE_MIB);
        await appendSnapshot(store, s, snapshot(body, 1));
        const stored = await collect(store.readStream(s));
        expect(stored.length).toBeGreaterThanOrEqual(3);
        for (const e of stored) expect(sizeOf(e)).toBeLessThan(ONE_MIB / 2 + 4096);
        expect(stored.map((e) => 'n' in (e.data as object))).toEqual(
          stored.map((_, i) => i === stored.length - 1),
        );
        const [read] = await collect(readSnapshots(store, s, { tries: 1 }));
        expect(read).toMatchObject({
          ok: true,
          header: { n: 1, revision: '1' },
          revision: BigInt(stored.length - 1),
        });
        expect(read!.ok && read!.body === body).toBe(true);
        expect((await store.verifyStream(s)).ok).toBe(true);
      }));

    it('a snapshot over the maximum append size that compresses well takes one event', () =>
      use(async ({ store }) => {
        const s = stream('compressed');
        const players = Array.from({ length: 15_000 }, (_, i) => ({
          playerId: `player-${i}`,
          chips: 100_000,
          commissionOwed: 0,
          bets: null,
          lastBets: null,
        }));
        const body = JSON.stringify({ players });
        expect(body.length).toBeGreaterThan(MAX_EVENT_BYTES);
        await appendSnapshot(store, s, snapshot(body, 2));
        expect(await collect(store.readStream(s))).toHaveLength(1);
        expect((await collect(readSnapshots(store, s))).map(shown)).toEqual([{ n: 2, body }]);
      }));

    it('an event written before snapshots came in parts is read as its header, with no body', () =>
      use(async ({ store }) => {
        const s = stream('legacy');
        await store.appendToStream(s, [
          { id: randomUUID(), type: 'Old', data: { n: 0, stateJson: '{}' }, metadata: { schemaVersion: 1 } },
        ]);
        expect(await collect(readSnapshots(store, s))).toEqual([
          { ok: true, header: { n: 0, stateJson: '{}' }, body: null, revision: 0n },
        ]);
      }));
  });

  describe('a snapshot whose parts do not make it whole is discarded, and the one before it is read', () => {
    const body = (n: number) => JSON.stringify({ n, filler: randomBytes(600).toString('hex') });
    const partsOf = (n: number) => snapshotEvents(snapshot(body(n), n), { partChars: 200 });

    const broken: [string, (parts: NewEvent[]) => Promise<NewEvent[]>, RegExp][] = [
      ['a part missing', async (p) => p.filter((_, i) => i !== 1), /^incomplete: \d+ of its \d+ parts$/],
      ['its last part missing', async (p) => p.slice(0, -1), /^incomplete: its last part/],
      ['two parts swapped', async (p) => [p[1]!, p[0]!, ...p.slice(2)], /^parts out of order$/],
      [
        "a part of another snapshot's in its place",
        async (p) => {
          const other = await partsOf(8);
          return [
            p[0]!,
            withPart(other[1]!, (part) => ({ ...part, id: (p[0]!.data as PartData).part.id })),
            ...p.slice(2),
          ];
        },
        /^mismatched parts$/,
      ],
      [
        'a part changed',
        async (p) => [
          p[0]!,
          withPart(p[1]!, (part) => ({
            ...part,
            chunk: part.chunk.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
          })),
          ...p.slice(2),
        ],
        /^its parts do not match its digest$/,
      ],
    ];
    it(`given ${broken.map(([what]) => what).join(', ')}: each is discarded with why`, () =>
      use(async ({ store }) => {
        const seen: Record<string, unknown[]> = {};
        const expected: Record<string, unknown[]> = {};
        for (const [what, spoil, reason] of broken) {
          const s = stream('broken');
          const one = body(1);
          await appendSnapshot(store, s, snapshot(one, 1), { partChars: 200 });
          const parts = await partsOf(2);
          expect(parts.length).toBeGreaterThanOrEqual(4);
          await append(store, s, await spoil(parts));
          seen[what] = (await collect(readSnapshots(store, s))).map(shown);
          expected[what] = [{ discarded: expect.stringMatching(reason) }, { n: 1, body: one }];
        }
        expect(seen).toEqual(expected);
      }));

    it('given another writer between its parts, the writer is refused and readers skip what it wrote', () =>
      use(async ({ store }) => {
        const s = stream('race');
        await appendSnapshot(store, s, snapshot(body(1), 1), { partChars: 200 });
        // A store through which another writer's snapshot lands right after this writer's first part.
        let interloped = false;
        const racing = Object.create(store) as EventStore;
        racing.appendToStream = async (name, events, options) => {
          const result = await store.appendToStream(name, events, options);
          if (!interloped) {
            interloped = true;
            await appendSnapshot(store, s, snapshot(body(3), 3));
          }
          return result;
        };
        const error = await appendSnapshot(racing, s, snapshot(body(2), 2), { partChars: 200 }).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        const read = await collect(readSnapshots(store, s));
        expect(read.map((r) => (r.ok ? r.header['n'] : r.reason))).toEqual([
          3,
          expect.stringMatching(/^incomplete: its last part/),
          1,
        ]);
      }));
  });
}
