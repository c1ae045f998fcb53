/** Helpers of the HTTP edge tests (http-*.e2e.spec.ts, fuzz-openapi.e2e.spec.ts) and of the read side's. */
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { EventStoreHandle } from '../src/store/event-store.provider';
import type { Harness } from './harness';

/** Snapshots are a cache written after a command's answer: never counted as a command's events. */
const COUNT_EVENTS = "SELECT COUNT(*) FROM events WHERE stream NOT LIKE 'tablesnapshot-%'";

/**
 * How many events the store holds: the row count of the SQLite file (read on a connection of its own, so it sees
 * only what was committed), or the head position for other stores.
 */
export async function eventRows(h: Harness): Promise<number> {
  const store = h.config.eventStore;
  if (store.kind === 'sqlite') {
    const count = eventRowCounter(h);
    try {
      return count();
    } finally {
      count.close();
    }
  }
  return Number((await h.app.get(EventStoreHandle).store.headPosition()) ?? -1n) + 1;
}

/** A synchronous row counter on one read-only connection, for counting before and after each of many requests. */
export function eventRowCounter(h: Harness): (() => number) & { close(): void } {
  const store = h.config.eventStore;
  if (store.kind !== 'sqlite') throw new Error('eventRowCounter reads the SQLite store');
  const db = new Database(store.file, { readonly: true, fileMustExist: true });
  const statement = db.prepare(COUNT_EVENTS).pluck();
  return Object.assign(() => Number(statement.get()), { close: () => db.close() });
}

/** Opens an rng table with player p1 seated (chips given) and round 1 open for bets. */
export async function openRound(h: Harness, tableId: string, chips = 1_000_000): Promise<void> {
  const dealer = { token: h.token('dealer') };
  for (const [method, path, options] of [
    ['POST', '/api/tables', { body: { tableId, rules: { dealing: 'rng' } } }],
    ['POST', `/api/tables/${tableId}/players/p1/buy-in`, { body: { amount: chips } }],
    ['POST', `/api/tables/${tableId}/shoes`, dealer],
    ['POST', `/api/tables/${tableId}/rounds`, dealer],
  ] as const) {
    const r = await h.api(method, path, options);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** A request that must succeed: its body, or an error naming the request and the answer. */
export async function ok(
  h: Harness,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<unknown> {
  const res = await h.api(method, path, { ...(body ? { body } : {}), ...(token ? { token } : {}) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Until the read models have every event of the store (the projections' lag is 0 everywhere). */
export async function readModelsCaughtUp(h: Harness): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const status = (await h.api('GET', '/api/projections')).body as { projections: { lag: number }[] };
    if (status.projections.every((p) => p.lag === 0)) return;
    await sleep(20);
  }
  throw new Error('the read models did not catch up');
}
