import { randomBytes, randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { FakeEsdbClient } from './testing/fake-esdb-client';
import { EventStoreDbEventStore } from './eventstoredb';
import { computeEventHash } from './hash';
import { MemoryEventStore } from './memory';
import {
  FieldSealer,
  parseSealKeys,
  SEALED_PREFIX,
  SealedEventStore,
  type SealedFields,
  SealError,
  SealKeys,
} from './sealed';
import { collect, runEventStoreContract } from './testing/contract';
import type { JsonValue, NewEvent } from './types';

const FIELDS: SealedFields = {
  ShoeStarted: [['seed']],
  TableSnapshotTaken: [['state', 'shoe', 'seed']],
};
const keyA = Buffer.alloc(32, 0xa1);
const keyB = Buffer.alloc(32, 0xb2);
const sealer = (...keys: Buffer[]) => new FieldSealer(new SealKeys(keys, 'COUP_SEED_KEY'), FIELDS);

const SEED = 'c0ffee'.repeat(10) + 'beef';
const started = (seed: string | null = SEED, id = randomUUID()): NewEvent => ({
  id,
  type: 'ShoeStarted',
  data: { shoeNo: 1, commitment: 'ab'.repeat(32), seed },
  metadata: { schemaVersion: 1 },
});
const snapshot = (shoe: JsonValue): NewEvent => ({
  id: randomUUID(),
  type: 'TableSnapshotTaken',
  data: { revision: '7', state: { phase: 'ready', shoe } },
  metadata: { schemaVersion: 1 },
});

// The decorator changes nothing for events without sealed fields: the whole port contract holds through it (the
// tampering cases are the adapter's: the decorator hands verifyStream to it).
runEventStoreContract(
  'sealed (over memory)',
  async (options) => {
    const inner = new MemoryEventStore(options);
    return { store: new SealedEventStore(inner, sealer(keyA)), cleanup: () => inner.close() };
  },
  { tamperable: false },
);

describe('sealed fields', () => {
  it('stores a declared field sealed and reads it back plain, through every read', async () => {
    const inner = new MemoryEventStore();
    const store = new SealedEventStore(inner, sealer(keyA));
    const sub = store.subscribeToAll();
    const event = started();
    await store.appendToStream('table-T1', [event, snapshot({ seed: SEED, revealed: false })]);

    const raw = await collect(inner.readAll());
    const stored = JSON.stringify(raw.map((e) => e.data));
    expect(stored).not.toContain(SEED);
    expect(stored).not.toContain(Buffer.from(SEED, 'hex').toString('base64'));
    expect(stored).toContain('ab'.repeat(32)); // the commitment stays in clear
    expect((raw[0]!.data as { seed: string }).seed.startsWith(SEALED_PREFIX)).toBe(true);

    const read = await collect(store.readStream('table-T1'));
    expect(read.map((e) => e.data)).toEqual([
      event.data,
      { revision: '7', state: { phase: 'ready', shoe: { seed: SEED, revealed: false } } },
    ]);
    expect((await collect(store.readAll())).map((e) => e.data)).toEqual(read.map((e) => e.data));
    const live = [];
    for await (const e of sub) {
      live.push(e.data);
      if (live.length === 2) break;
    }
    await sub.close();
    expect(live).toEqual(read.map((e) => e.data));
    // the caller's events are not changed
    expect((event.data as { seed: string }).seed).toBe(SEED);
  });

  it('seals the same on EventStoreDB: the server gets only the sealed text', async () => {
    const client = new FakeEsdbClient();
    const esdb = new EventStoreDbEventStore({ connectionString: 'esdb://fake', createClient: () => client });
    const store = new SealedEventStore(esdb, sealer(keyA));
    await store.appendToStream('table-T1', [started()]);
    const sent = [];
    for await (const resolved of client.readStream('table-T1', {
      fromRevision: 'start',
      direction: 'forwards',
      maxCount: 10n,
    }))
      sent.push({ data: resolved.event?.data, metadata: resolved.event?.metadata });
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent)).toContain(SEALED_PREFIX);
    expect(JSON.stringify(sent)).not.toContain(SEED);
    expect((await collect(store.readStream('table-T1')))[0]!.data).toEqual(started().data);
    expect(await esdb.verifyStream('table-T1')).toMatchObject({ ok: true, checked: 1 });
    await store.close();
  });

  it('leaves null values, missing paths, other types and other fields as they are', () => {
    const s = sealer(keyA);
    const live = started(null);
    expect(s.seal(live)).toBe(live);
    const noShoe = snapshot(null);
    expect(s.seal(noShoe)).toBe(noShoe);
    const other: NewEvent = { ...started(), type: 'ShoeEnded' };
    expect(s.seal(other)).toBe(other);
    const sealed = s.seal(started()).data as Record<string, JsonValue>;
    expect(sealed['commitment']).toBe('ab'.repeat(32));
    expect(sealed['shoeNo']).toBe(1);
  });

  it('a chain covers the sealed text: it verifies without the key, and each stored hash matches the stored event', async () => {
    const inner = new MemoryEventStore();
    await new SealedEventStore(inner, sealer(keyA)).appendToStream('table-T1', [started(), started()]);
    expect(await inner.verifyStream('table-T1')).toMatchObject({ ok: true, checked: 2 });
    for (const e of await collect(inner.readStream('table-T1'))) {
      const { streamName, streamRevision, type, data, prevHash } = e;
      const metadata = e.metadata as JsonValue;
      expect(computeEventHash({ streamName, streamRevision, type, data, metadata, prevHash })).toBe(e.hash);
    }
  });

  it('sealing is deterministic, so re-appending the same events is the idempotent no-op it is without sealing', async () => {
    const store = new SealedEventStore(new MemoryEventStore(), sealer(keyA));
    const events = [started(), started()];
    const first = await store.appendToStream('table-T1', events, { expectedRevision: 'no_stream' });
    const again = await store.appendToStream('table-T1', events, { expectedRevision: 'no_stream' });
    expect(again).toEqual(first);
    expect(await collect(store.readStream('table-T1'))).toHaveLength(2);
    // the same seed in another event seals to another text
    const s = sealer(keyA);
    expect(s.seal(started(SEED)).data).not.toEqual(s.seal(started(SEED)).data);
  });

  it('a wrong key never opens a value: the error names the key ids and where the keys come from', async () => {
    const inner = new MemoryEventStore();
    await new SealedEventStore(inner, sealer(keyA)).appendToStream('table-T1', [started()]);
    const wrong = new SealedEventStore(inner, sealer(keyB));
    const error = await collect(wrong.readStream('table-T1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SealError);
    expect(error).toMatchObject({ code: 'SEAL_KEY_UNKNOWN' });
    expect((error as Error).message).toMatch(/COUP_SEED_KEY/);
    expect((error as Error).message).toContain(new SealKeys([keyA]).ids[0]);
    expect((error as Error).message).not.toContain(keyB.toString('hex'));
  });

  it('a changed or moved sealed value does not open', () => {
    const s = sealer(keyA);
    const sealed = s.seal(started());
    const text = (sealed.data as { seed: string }).seed;
    // one bit of the ciphertext flipped
    const body = Buffer.from(text.split(':')[3]!, 'base64url');
    body.writeUInt8(body.readUInt8(20) ^ 1, 20);
    const [p, v, id] = text.split(':');
    const flipped = {
      ...sealed,
      data: { ...(sealed.data as object), seed: `${p}:${v}:${id}:${body.toString('base64url')}` },
    };
    expect(() => s.open(flipped)).toThrow(expect.objectContaining({ code: 'SEAL_BROKEN' }));
    // the same sealed text in another event
    const moved = { ...sealed, id: randomUUID() };
    expect(() => s.open(moved)).toThrow(expect.objectContaining({ code: 'SEAL_BROKEN' }));
    // the id of the event compares in any case, as the store keeps ids lower-case
    expect(s.open({ ...sealed, id: sealed.id.toUpperCase() }).data).toEqual(started().data);
  });

  it('rotation: the first key seals, every key listed opens', async () => {
    const inner = new MemoryEventStore();
    await new SealedEventStore(inner, sealer(keyA)).appendToStream('table-T1', [started()]);
    const rotated = new SealedEventStore(inner, sealer(keyB, keyA));
    await rotated.appendToStream('table-T1', [started()]);
    expect(
      (await collect(rotated.readStream('table-T1'))).map((e) => (e.data as { seed: string }).seed),
    ).toEqual([SEED, SEED]);
    const ids = (await collect(inner.readStream('table-T1'))).map(
      (e) => (e.data as { seed: string }).seed.split(':')[2],
    );
    expect(ids).toEqual([new SealKeys([keyA]).ids[0], new SealKeys([keyB]).ids[0]]);
    // once the old key is gone, only what it sealed fails
    const newOnly = new SealedEventStore(inner, sealer(keyB));
    expect(
      (await collect(newOnly.readStream('table-T1', { fromRevision: 1n }))).map(
        (e) => (e.data as { seed: string }).seed,
      ),
    ).toEqual([SEED]);
  });

  it('values stored in clear before sealing existed read as they are', async () => {
    const inner = new MemoryEventStore();
    await inner.appendToStream('table-T1', [started()]);
    const read = await collect(new SealedEventStore(inner, sealer(keyA)).readStream('table-T1'));
    expect((read[0]!.data as { seed: string }).seed).toBe(SEED);
  });

  it('an ephemeral key seals and opens within its process', () => {
    const s = new FieldSealer(SealKeys.ephemeral(), FIELDS);
    const sealed = s.seal(started());
    expect(JSON.stringify(sealed.data)).not.toContain(SEED);
    expect(s.open(sealed).data).toEqual(started().data);
  });
});

describe('seal keys as text', () => {
  const key = randomBytes(32);
  it.each([
    ['hex', key.toString('hex')],
    ['upper-case hex', key.toString('hex').toUpperCase()],
    ['base64', key.toString('base64')],
    ['base64url', key.toString('base64url')],
    ['a line with a comment before it', `# the seed key\n${key.toString('hex')}\n`],
  ])('reads %s', (_, text) => {
    expect(parseSealKeys(text)).toEqual([key]);
  });
  it('reads several, by commas or lines, in order', () => {
    expect(parseSealKeys(`${keyB.toString('hex')}, ${keyA.toString('base64')}`)).toEqual([keyB, keyA]);
    expect(parseSealKeys(`${keyB.toString('hex')}\n${keyA.toString('hex')}\n`)).toEqual([keyB, keyA]);
  });
  it.each([
    ['nothing', ''],
    ['a comment only', '# nothing here'],
    ['31 bytes', randomBytes(31).toString('hex')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['not hex', 'z'.repeat(64)],
  ])('refuses %s without quoting it', (_, text) => {
    expect(() => parseSealKeys(text)).toThrow(RangeError);
    try {
      parseSealKeys(text);
    } catch (error) {
      if (text.length > 8) expect((error as Error).message).not.toContain(text);
    }
  });
  it('logged or serialized, keys show their ids, never key bytes', () => {
    const keys = new SealKeys([keyA, keyB], 'COUP_SEED_KEY');
    const shown = [JSON.stringify({ keys }), inspect({ keys }, { depth: 9, showHidden: true })];
    for (const text of shown) {
      expect(text).toContain(keys.ids[0]);
      expect(text).toContain('COUP_SEED_KEY');
      expect(text).not.toMatch(/Buffer|cipher|<Buffer|data/);
    }
  });
  it('key ids depend on the key only', () => {
    expect(new SealKeys([keyA]).ids).toEqual(new SealKeys([keyA, keyA]).ids);
    expect(new SealKeys([keyA]).ids[0]).toMatch(/^[0-9a-f]{8}$/);
    expect(new SealKeys([keyA]).ids).not.toEqual(new SealKeys([keyB]).ids);
  });
});
