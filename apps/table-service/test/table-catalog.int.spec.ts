/**
 * The table list (`GET /api/tables`) resumes from its own file: a start reads only the events appended since
 * the last run (by any process), never the whole history, and answers exactly what a full fold of the log
 * answers. Tables opened by another writer on the same store appear while it follows; a file left from another
 * store is not trusted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore, type EventStore } from '@coup/event-store';
import * as testing from '@coup/projections/testing';
import { TableCatalog, type CatalogEntry } from '../src/tables/table-catalog';

jest.setTimeout(60_000);

const ADMIN = { id: 'admin-1', role: 'admin' } as const;

let dir: string;
let eventsFile: string;
let indexFile: string;
let store: EventStore;
const drivers = new Map<string, InstanceType<typeof testing.TableDriver>>();

/** The store, counting the events it hands out through readAll (what a catalog start reads). */
function counting(inner: EventStore): { store: EventStore; read: () => number } {
  let read = 0;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'readAll')
        return async function* (options?: Parameters<EventStore['readAll']>[0]) {
          for await (const e of target.readAll(options)) {
            read += 1;
            yield e;
          }
        };
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, read: () => read };
}

async function open(s: EventStore, tableId: string, rounds: number, rules: Record<string, unknown> = {}) {
  const d = new testing.TableDriver({ tableId, rules, players: 3, seed: tableId.length });
  drivers.set(tableId, d);
  await testing.appendTable(s, tableId, d.open());
  for (let i = 0; i < rounds; i++) await testing.appendTable(s, tableId, d.playRound());
}

async function play(s: EventStore, tableId: string, rounds: number) {
  const d = drivers.get(tableId)!;
  for (let i = 0; i < rounds; i++) await testing.appendTable(s, tableId, d.playRound());
}

async function close(s: EventStore, tableId: string) {
  await testing.appendTable(s, tableId, drivers.get(tableId)!.execute('CloseTable', { cashOutAll: true }, ADMIN));
}

/** What folding the whole log answers (the catalog without a file). */
async function fullFold(s: EventStore): Promise<CatalogEntry[]> {
  const c = new TableCatalog(s);
  await c.start();
  const list = c.list();
  await c.stop();
  return list;
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-catalog-'));
  eventsFile = join(dir, 'events.sqlite');
  indexFile = join(dir, 'catalog.sqlite');
  store = createEventStore({ kind: 'sqlite', file: eventsFile });
  drivers.clear();
  await open(store, 'A1', 20, { dealing: 'live' });
  await open(store, 'B2', 20);
  await close(store, 'B2');
  await open(store, 'C3', 10);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('TableCatalog', () => {
  it('a restart reads only the events appended since the last run and answers as a full fold', async () => {
    const history = Number(await store.headPosition());
    const first = counting(store);
    const a = new TableCatalog(first.store, { indexFile });
    await a.start();
    expect(first.read()).toBe(history);
    expect(a.list()).toEqual(await fullFold(store));
    expect(a.list().map((t) => [t.tableId, t.status, t.dealing])).toEqual([
      ['A1', 'open', 'live'],
      ['B2', 'closed', 'rng'],
      ['C3', 'open', 'rng'],
    ]);
    await a.stop();

    // while it is down: more coups, a table closed, a table opened
    const before = Number(await store.headPosition());
    await play(store, 'A1', 5);
    await close(store, 'C3');
    await open(store, 'D4', 2);
    const since = Number(await store.headPosition()) - before;

    const second = counting(store);
    const b = new TableCatalog(second.store, { indexFile });
    await b.start();
    // the saved position's event (checked to be the same store), then only the new events
    expect(second.read()).toBe(1 + since);
    expect(b.startStats).toEqual({ resumedFrom: BigInt(before), eventsRead: since });
    expect(b.list()).toEqual(await fullFold(store));
    expect(b.openTableIds()).toEqual(['A1', 'D4']);
    await b.stop();
  });

  it('saves the position reached while following, so coups alone are not read again', async () => {
    const a = new TableCatalog(store, { indexFile, saveEveryMs: 20 });
    await a.start();
    await play(store, 'A1', 10);
    const head = await store.headPosition();
    await eventually(() => a.position === head, 'the catalog following to the head');
    // a is still running: a second catalog resumes from what a saved, within a few save intervals
    let b = new TableCatalog(store, { indexFile });
    for (let i = 0; i < 100; i++) {
      await b.start();
      if (b.startStats.resumedFrom === head) break;
      await b.stop();
      await new Promise((r) => setTimeout(r, 20));
      b = new TableCatalog(store, { indexFile });
    }
    expect(b.startStats).toEqual({ resumedFrom: head, eventsRead: 0 });
    expect(b.list()).toEqual(await fullFold(store));
    await a.stop();
    await b.stop();
  });

  it('lists tables opened and closed by another writer on the same store while it follows', async () => {
    const a = new TableCatalog(store, { indexFile });
    await a.start();
    const other = createEventStore({ kind: 'sqlite', file: eventsFile });
    try {
      await open(other, 'E5', 1);
      await close(other, 'A1');
      await eventually(() => a.list().some((t) => t.tableId === 'E5'), 'E5');
      await eventually(() => a.list().find((t) => t.tableId === 'A1')?.status === 'closed', 'A1 closed');
      expect(a.list()).toEqual(await fullFold(store));
    } finally {
      await other.close();
    }
    await a.stop();
    const b = new TableCatalog(store, { indexFile });
    await b.start();
    expect(b.list()).toEqual(await fullFold(store));
    await b.stop();
  });

  it('two catalogs on one file: a third resumes with both runs saved', async () => {
    const a = new TableCatalog(store, { indexFile, saveEveryMs: 10 });
    const b = new TableCatalog(store, { indexFile, saveEveryMs: 10 });
    await a.start();
    await b.start();
    await open(store, 'F6', 3);
    await close(store, 'A1');
    const head = await store.headPosition();
    await eventually(
      () => [a, b].every((c) => c.list().find((t) => t.tableId === 'A1')?.status === 'closed'),
      'both catalogs',
    );
    await a.stop();
    await b.stop();
    const c = new TableCatalog(store, { indexFile });
    await c.start();
    expect(c.startStats).toEqual({ resumedFrom: head, eventsRead: 0 });
    expect(c.list()).toEqual(await fullFold(store));
    await c.stop();
  });

  it('a file saved for another store is not trusted: the list is folded from this store', async () => {
    const a = new TableCatalog(store, { indexFile });
    await a.start();
    await a.stop();
    // a new store in place of the old one, with a different history of the same length or longer
    await store.close();
    rmSync(eventsFile);
    rmSync(`${eventsFile}-wal`, { force: true });
    rmSync(`${eventsFile}-shm`, { force: true });
    store = createEventStore({ kind: 'sqlite', file: eventsFile });
    drivers.clear();
    await open(store, 'Z9', 60);
    const b = new TableCatalog(store, { indexFile });
    await b.start();
    expect(b.startStats.resumedFrom).toBeNull();
    expect(b.list().map((t) => t.tableId)).toEqual(['Z9']);
    expect(b.list()).toEqual(await fullFold(store));
    await b.stop();
  });

  it('without a file it folds the whole log, as before', async () => {
    const counted = counting(store);
    const c = new TableCatalog(counted.store);
    await c.start();
    expect(counted.read()).toBe(Number(await store.headPosition()));
    await c.stop();
  });
});
