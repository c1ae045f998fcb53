import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FieldSealer, SealKeys } from '@coup/event-store';
import {
  decide,
  evolve,
  initialState,
  type TableCommand,
  type TableEvent,
  type TableState,
} from '@coup/table';
import { loadConfig } from '../config/config';
import { snapshotEvent, snapshotOf } from '../tables/snapshots';
import { EventStoreHandle } from './event-store.provider';
import { SEED_FIELDS } from './seal';

const sealer = new FieldSealer(new SealKeys([Buffer.alloc(32, 7)]), SEED_FIELDS);
const at = '2030-01-01T12:00:00.000Z';
const admin = { id: 'boss', role: 'admin' } as const;
const dealer = { id: 'd1', role: 'dealer' } as const;

/** Decides the commands in order from no table: the events and the state after them. */
function play(...commands: [TableCommand['type'], unknown, typeof admin | typeof dealer][]) {
  let state: TableState = initialState;
  const events: TableEvent[] = [];
  for (const [type, data, actor] of commands) {
    const decision = decide({ type, data, meta: { actor, at } } as TableCommand, state);
    if (!decision.ok) throw new Error(`${type}: ${decision.error.code}`);
    for (const e of decision.events) {
      events.push(e);
      state = evolve(state, e);
    }
  }
  return { events, state };
}

const asNew = (e: { type: string; data: unknown }) => ({
  id: randomUUID(),
  type: e.type,
  data: e.data as never,
  metadata: { schemaVersion: 1 },
});

describe('the seed fields the service seals', () => {
  const seed = 'a1'.repeat(32);
  const next = 'b2'.repeat(32);

  it('seal every unrevealed seed the decider writes: a shoe, an every-coup shoe, a next shoe committed in advance', () => {
    const shoe = play(
      ['OpenTable', { tableId: 'T1', rules: { dealing: 'rng' } }, admin],
      ['StartShoe', { seed }, dealer],
    );
    const everyCoup = play(
      ['OpenTable', { tableId: 'E1', rules: { dealing: 'rng', shuffle: 'every-coup' } }, admin],
      ['OpenBetting', { seed }, dealer],
      ['CloseBetting', { roundNo: 1 }, dealer],
      ['Deal', { roundNo: 1, nextSeed: next }, dealer],
    );
    const texts = [...shoe.events, ...everyCoup.events].map((e) =>
      JSON.stringify(sealer.seal(asNew(e)).data),
    );
    // the next shoe's seed was committed with the deal, unrevealed
    expect(everyCoup.events.map((e) => e.type)).toContain('ShoeEnded');
    expect(everyCoup.state.shoe).toMatchObject({ seed: next, revealed: false });
    expect(texts.filter((t) => t.includes(next))).toEqual([]);
    // the first seed only where the shoe ended and revealed it
    expect(
      [...shoe.events, ...everyCoup.events].filter((e, i) => texts[i]!.includes(seed)).map((e) => e.type),
    ).toEqual(['ShoeEnded']);
  });

  it('seal the shoe seed in the snapshot of a table state, which opens to the same state', () => {
    const { state } = play(
      ['OpenTable', { tableId: 'T1', rules: { dealing: 'rng' } }, admin],
      ['StartShoe', { seed }, dealer],
    );
    // The state's text (compressed in the event) holds no seed: the seed is in the header, sealed.
    expect(snapshotOf(state, 1n, 'f'.repeat(64)).body).not.toContain(seed);
    const snapshot = snapshotEvent(state, 1n, 'f'.repeat(64));
    const sealed = sealer.seal(snapshot);
    expect(JSON.stringify(sealed.data)).not.toContain(seed);
    expect(sealer.open(sealed).data).toEqual(JSON.parse(JSON.stringify(snapshot.data)));
    expect((sealer.open(sealed).data as { seed: string }).seed).toBe(seed);
  });

  it('the table processor appends and reads through the sealing store; every other reader sees what is stored', async () => {
    const config = loadConfig({
      COUP_DATA_DIR: mkdtempSync(join(tmpdir(), 'coup-seal-')),
      COUP_EVENT_STORE: 'memory',
    });
    const handle = EventStoreHandle.open(config);
    const { events } = play(
      ['OpenTable', { tableId: 'T1', rules: { dealing: 'rng' } }, admin],
      ['StartShoe', { seed }, dealer],
    );
    await handle.processorStore.appendToStream('table-T1', events.map(asNew));
    const stored = [];
    for await (const e of handle.store.readStream('table-T1')) stored.push(e.data);
    expect(JSON.stringify(stored)).not.toContain(seed);
    const opened = [];
    for await (const e of handle.processorStore.readStream('table-T1')) opened.push(e.data);
    expect(opened).toEqual(events.map((e) => e.data));
    await handle.store.close();
  });
});
