/**
 * Work of unbounded size leaves the request thread or comes in slices (ADR-25): the key index's log is
 * checkpointed by a thread of its own, expired keys are pruned a chunk per turn of the event loop, and a long
 * catch-up or index fill folds a slice per turn, while the index stays complete under its watermark.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEventStore, type EventStore } from '@coup/event-store';
import { evolve, initialState, tableStream, type TableCommand, type TableEvent } from '@coup/table';
import { Metrics } from '../common/metrics';
import { SqliteKeyIndex, type KeyIndex } from './idempotency';
import { KeyPruner, PRUNE_CHUNK, completeKeys } from './key-index-fill';
import { TableProcessor } from './table-processor';
import { CATCH_UP_PER_TURN, TableSession } from './table-session';

const AT = '2030-01-01T12:00:00.000Z';
const cmd = (type: TableCommand['type'], data: object, role = 'admin', id = `${role}-1`) =>
  ({ type, data, meta: { actor: { id, role }, at: AT } }) as TableCommand;

/** Counts turns of the event loop (one per check phase) until stopped. */
function turns(): { readonly count: () => number; readonly stop: () => void } {
  let count = 0;
  let on = true;
  const tick = () => {
    count++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  return { count: () => count, stop: () => void (on = false) };
}

/** A table whose stream holds `bets` keyed bets (key `k<i>`), written by a processor of its own. */
async function keyedTable(store: EventStore, tableId: string, bets: number): Promise<bigint> {
  const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1_000_000 });
  await p.execute(tableId, cmd('OpenTable', { tableId, rules: { dealing: 'rng' } }));
  await p.execute(tableId, cmd('BuyIn', { playerId: 'p1', amount: 1_000_000_000 }));
  await p.execute(tableId, cmd('StartShoe', { seed: 'ab'.repeat(32) }, 'dealer'));
  await p.execute(tableId, cmd('OpenBetting', {}, 'dealer'));
  const bet = cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 100 }, 'player', 'p1');
  for (let i = 0; i < bets; i += 500)
    await Promise.all(
      Array.from({ length: Math.min(500, bets - i) }, (_, j) => p.execute(tableId, bet, `k${i + j}`)),
    );
  await p.shutdown();
  return (await store.streamHead(tableStream(tableId)))!.revision;
}

describe('the key index file', () => {
  it('given keys written to it, then its connection never checkpoints, and its own thread does', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'coup-ckpt-')), 'idempotency.sqlite');
    const index = new SqliteKeyIndex(file, { checkpointEveryMs: 10 });
    const reply = { ok: true };
    for (let i = 0; i < 50; i++)
      index.record('T', [{ key: `k${i}`, hash: 'h', reply, revision: BigInt(i), recordedAt: AT }], BigInt(i));
    const db = (index as unknown as { db: Database.Database }).db;
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0n);
    while (index.checkpoints === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(index.get('T', 'k49')).toEqual({ hash: 'h', reply });
    index.close();
    // What it holds is in the file.
    const again = new SqliteKeyIndex(file);
    expect(again.watermark('T')).toBe(49n);
    again.close();
  });
});

describe('keys recorded on the request thread', () => {
  it('given 50 batches of keys, then they answer at once and are written together, each watermark never before its keys', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'coup-held-')), 'idempotency.sqlite');
    const index = new SqliteKeyIndex(file, { writeBehindMs: 60_000 });
    const other = new Database(file, { readonly: true });
    const written = () => other.prepare('SELECT count(*) FROM idempotency_keys').pluck().get() as number;
    const mark = () =>
      other.prepare('SELECT revision FROM idempotency_watermarks WHERE table_id = ?').pluck().get('T');
    for (let i = 0; i < 50; i++)
      index.record(
        'T',
        [{ key: `k${i}`, hash: 'h', reply: { i }, revision: BigInt(i), recordedAt: AT }],
        BigInt(i),
      );
    // Held: answered here, nothing in the file yet (neither the keys nor the watermark that covers them).
    expect(index.get('T', 'k49')).toEqual({ hash: 'h', reply: { i: 49 } });
    expect(index.watermark('T')).toBe(49n);
    expect([written(), mark()]).toEqual([0, undefined]);
    index.flush();
    expect([written(), mark()]).toEqual([50, 49]);
    expect(index.get('T', 'k0')).toEqual({ hash: 'h', reply: { i: 0 } });
    other.close();
    index.close();
  });
});

describe('pruning expired keys', () => {
  it('given 2.4 chunks of expired keys and some kept, then they go a chunk per turn of the event loop, the kept ones stay', async () => {
    const inner = new SqliteKeyIndex(':memory:');
    const old = '2000-01-01T00:00:00.000Z';
    const expired = Math.floor(PRUNE_CHUNK * 2.4);
    const entry = (key: string, recordedAt: string) => ({
      key,
      hash: 'h',
      reply: {},
      revision: 1n,
      recordedAt,
    });
    inner.record(
      'T',
      Array.from({ length: expired }, (_, i) => entry(`old-${i}`, old)),
      5n,
    );
    inner.record('T', [entry('kept', new Date().toISOString())], 6n);
    const loop = turns();
    const calls: number[] = [];
    const index = Object.create(inner) as KeyIndex;
    index.prune = (before, limit) => {
      calls.push(loop.count());
      return inner.prune(before, limit);
    };
    const pruner = new KeyPruner(index, 7, (error) => {
      throw error;
    });
    await pruner.prune(); // the one the pruner started at once
    await pruner.stop();
    loop.stop();
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < calls.length; i++) expect(calls[i]!).toBeGreaterThan(calls[i - 1]!);
    expect(inner.get('T', 'old-0')).toBeUndefined();
    expect(inner.get('T', `old-${expired - 1}`)).toBeUndefined();
    expect(inner.get('T', 'kept')).toBeDefined();
    expect(inner.watermark('T')).toBe(6n);
    inner.close();
  });
});

describe('long folds come in slices', () => {
  jest.setTimeout(60_000);
  const bets = 2 * CATCH_UP_PER_TURN + 300;

  it('given a tail of 2,300 events, when a session catches up, then it yields to the event loop between slices and folds them all', async () => {
    const store = createEventStore({ kind: 'memory' });
    const head = await keyedTable(store, 'C1', bets);
    const session = new TableSession('C1');
    const keys = new SqliteKeyIndex(':memory:');
    const loop = turns();
    const folded = await session.catchUp(store, keys);
    loop.stop();
    expect(folded).toBe(Number(head) + 1);
    expect(loop.count()).toBeGreaterThanOrEqual(2);
    let state = initialState;
    for await (const e of store.readStream(tableStream('C1')))
      state = evolve(state, { type: e.type, data: e.data } as TableEvent);
    expect(session.at).toEqual({ state, revision: head });
  });

  it('given an empty index and 2,300 keyed events, when it is filled, then it yields between slices and holds every key under its watermark', async () => {
    const store = createEventStore({ kind: 'memory' });
    const head = await keyedTable(store, 'C2', bets);
    const session = new TableSession('C2');
    const keys = new SqliteKeyIndex(':memory:');
    await session.catchUp(store, keys); // keys not complete yet: nothing is indexed
    expect(keys.watermark('C2')).toBe(-1n);
    const loop = turns();
    await completeKeys(store, keys, session, 7);
    loop.stop();
    expect(loop.count()).toBeGreaterThanOrEqual(1);
    expect(keys.watermark('C2')).toBe(head);
    for (let i = 0; i < bets; i++) expect([i, keys.get('C2', `k${i}`) !== undefined]).toEqual([i, true]);
  });
});
