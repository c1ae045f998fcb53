/**
 * A table whose state is larger than EventStoreDB's maximum append size (1 MiB by default): 8,000 players bought in. The service on EventStoreDB (the stand-in, or a real server with
 * EVENTSTORE_CONNECTION_STRING) snapshots it, and a restarted service loads it from that snapshot and the tail after
 * it, not from the whole stream (ADR-7, ADR-30).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore, ReadStreamOptions } from '@coup/event-store';
import { snapshotStream, tableStream, type TableCommand } from '@coup/table';
import { Metrics } from '../src/common/metrics';
import { loadConfig } from '../src/config/config';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { loadSnapshot } from '../src/tables/snapshots';
import { TableProcessor } from '../src/tables/table-processor';
import { esdbForTests, type EsdbForTests } from './esdb-standin';
import { SECRET, SEED_KEY, startService } from './harness';

jest.setTimeout(60_000);

const PLAYERS = 8_000;
/** COUP_SNAPSHOT_EVERY: the table's history is 8,001 events, so it is snapshotted once, at its last batches. */
const EVERY = 8_000;

let esdb: EsdbForTests;
let dir: string;
beforeAll(async () => {
  esdb = await esdbForTests();
  dir = mkdtempSync(join(tmpdir(), 'coup-large-snapshot-'));
});
afterAll(async () => {
  await esdb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env: () => Record<string, string> = () => ({
  COUP_EVENT_STORE: 'eventstoredb',
  EVENTSTORE_CONNECTION_STRING: esdb.connectionString,
  COUP_PROJECTIONS: 'off',
  COUP_SNAPSHOT_EVERY: String(EVERY),
});

/** The service's store as it opens it, its table processor's reads counted per stream and its failed appends kept. */
function observedHandle() {
  const config = loadConfig({
    COUP_DATA_DIR: dir,
    COUP_JWT_SECRET: SECRET,
    COUP_SEED_KEY: SEED_KEY,
    ...env(),
  });
  const handle = EventStoreHandle.open(config);
  const inner = handle.processorStore;
  const read = new Map<string, number>();
  const failedAppends: string[] = [];
  const store = Object.create(inner) as EventStore;
  store.readStream = (stream: string, options?: ReadStreamOptions) =>
    (async function* () {
      for await (const e of inner.readStream(stream, options)) {
        read.set(stream, (read.get(stream) ?? 0) + 1);
        yield e;
      }
    })();
  store.appendToStream = (stream, events, options) =>
    inner.appendToStream(stream, events, options).catch((error: unknown) => {
      failedAppends.push(`${stream}: ${(error as Error).message}`);
      throw error;
    });
  return { handle: new EventStoreHandle(handle.store, handle.kind, store), read, failedAppends };
}

const cmd = (type: TableCommand['type'], data: object, role = 'admin') =>
  ({
    type,
    data,
    meta: { actor: { id: `${role}-1`, role }, at: '2026-12-01T12:00:00.000Z' },
  }) as TableCommand;

/** 8,000 players bought in, their ids as long as ids may be (a casino's account ids can be). */
async function busyTable(p: TableProcessor, tableId: string): Promise<void> {
  const players = Array.from({ length: PLAYERS }, () => `${randomUUID()}:${randomUUID()}`.slice(0, 64));
  await p.execute(tableId, cmd('OpenTable', { tableId, rules: { dealing: 'rng' } }));
  await Promise.all(
    players.map((playerId) => p.execute(tableId, cmd('BuyIn', { playerId, amount: 100_000 }))),
  );
}

/** Polls `check` every 20 ms until it answers true (at most `ms`). */
async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('given a table whose state is over the maximum append size, when the service snapshots it and restarts, then it loads from the snapshot', async () => {
  const tableId = `BIG${randomUUID().slice(0, 6)}`;
  // A service that snapshots a table once 8,000 events have been appended: at the table's last batches.
  const first = observedHandle();
  let head: { revision: bigint } | null = null;
  let snapshot: { revision: bigint } | null = null;
  const a = await startService(env(), { store: first.handle }, dir);
  try {
    const tables = a.app.get(TableProcessor);
    await busyTable(tables, tableId);
    const { state } = await tables.read(tableId);
    expect(state.players).toHaveLength(PLAYERS);
    expect(Buffer.byteLength(JSON.stringify(state))).toBeGreaterThan(1024 * 1024);
    await until('the snapshot, or its failure', async () => {
      snapshot = await loadSnapshot(first.handle.processorStore, tableId, () => undefined);
      return first.failedAppends.length > 0 || snapshot !== null;
    });
    expect(first.failedAppends).toEqual([]);
    if (esdb.standin) expect(esdb.standin.refusedAppends).toEqual([]);
    head = (await first.handle.store.streamHead(tableStream(tableId)))!;
  } finally {
    await a.close();
  }
  expect(snapshot!.revision).toBeGreaterThanOrEqual(BigInt(EVERY - 1));

  // Restarted: the table loads from the snapshot and the tail after it.
  const second = observedHandle();
  const metrics = new Metrics(false);
  const b = await startService(env(), { store: second.handle, metrics }, dir);
  try {
    const view = await b.api('GET', `/api/tables/${tableId}`);
    expect(view.status).toBe(200);
    expect(view.body.revision).toBe(Number(head!.revision));
    expect(view.body.players).toHaveLength(PLAYERS);
    expect(second.read.get(snapshotStream(tableId))).toBeGreaterThan(0);
    // The snapshot's own event (its hash check) and the tail after it, not the 8,001 events of the history.
    expect(second.read.get(tableStream(tableId))).toBe(Number(head!.revision - snapshot!.revision) + 1);
    expect((await metrics.snapshotsDiscarded.get()).values[0]?.value ?? 0).toBe(0);
  } finally {
    await b.close();
  }
});
