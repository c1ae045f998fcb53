import { STATE_VERSION, snapshotStream, tableStream, type TableState } from '@coup/table';
import type { EventStore, NewEvent } from '@coup/event-store';
import { uuidv7 } from './idempotency';

/**
 * Snapshots (ADR-7, ADR-14): a cache of a table's acknowledged state at a revision, with the hash of the stream's
 * event at that revision. Loading trusts one only when the stream still has that event with that hash; otherwise it
 * is discarded and logged, and an older one (or the whole stream) is folded instead.
 */

export const SNAPSHOT_TYPE = 'TableSnapshotTaken';
/** Version of the snapshot's own shape (2: with the hash of the event it was taken at, no answers). */
export const SNAPSHOT_VERSION = 2;
/** Snapshots tried, newest first, before folding the whole stream. */
const SNAPSHOTS_TRIED = 3;

/** Under load, a table is snapshotted at most this often, unless its tail grows past SNAPSHOT_TAIL_LIMIT. */
export const SNAPSHOT_MIN_INTERVAL_MS = 1_000;
/** However busy the table, a snapshot is taken once this many times `snapshotEvery` events have followed the last. */
export const SNAPSHOT_TAIL_LIMIT = 20;

/**
 * Is a snapshot of the table due? After `every` events, but on a busy table (thousands of bets a second, each
 * snapshot the whole state) not more than once a second: the tail a load reads stays bounded (at most a second of
 * events, and never more than SNAPSHOT_TAIL_LIMIT x `every`), whatever the history.
 */
export function snapshotDue(
  session: { readonly eventsSinceSnapshot: number; readonly lastSnapshotAt: number },
  every: number,
  now: number,
): boolean {
  if (session.eventsSinceSnapshot < every) return false;
  return (
    now - session.lastSnapshotAt >= SNAPSHOT_MIN_INTERVAL_MS ||
    session.eventsSinceSnapshot >= every * SNAPSHOT_TAIL_LIMIT
  );
}

/** The snapshot event of a table's acknowledged state at `revision`, whose stream event has hash `hash`. */
export function snapshotEvent(state: TableState, revision: bigint, hash: string): NewEvent {
  return {
    id: uuidv7(),
    type: SNAPSHOT_TYPE,
    data: {
      snapshotVersion: SNAPSHOT_VERSION,
      stateVersion: STATE_VERSION,
      revision: revision.toString(),
      hash,
      state: state as never,
    },
    metadata: { schemaVersion: SNAPSHOT_VERSION },
  };
}

interface SnapshotData {
  readonly snapshotVersion?: unknown;
  readonly stateVersion?: unknown;
  readonly revision?: unknown;
  readonly hash?: unknown;
  readonly state?: unknown;
}

export interface LoadedSnapshot {
  readonly state: TableState;
  readonly revision: bigint;
}

/** Why a snapshot was not used (for the log), or null when it matches its stream. */
async function mismatch(store: EventStore, tableId: string, data: SnapshotData): Promise<string | null> {
  if (data.snapshotVersion !== SNAPSHOT_VERSION) return 'an older snapshot format';
  if (data.stateVersion !== STATE_VERSION) return `state version ${String(data.stateVersion)}`;
  if (typeof data.revision !== 'string' || !/^\d{1,18}$/.test(data.revision)) return 'no revision';
  if (typeof data.hash !== 'string' || typeof data.state !== 'object' || data.state === null)
    return 'no hash or state';
  const revision = BigInt(data.revision);
  for await (const e of store.readStream(tableStream(tableId), { fromRevision: revision, maxCount: 1 })) {
    if (e.streamRevision !== revision) break;
    return e.hash === data.hash ? null : `the stream's event ${revision} has another hash`;
  }
  return `revision ${revision} is past the stream's head`;
}

/**
 * The newest snapshot of the table that matches its stream, or null (fold from the start). Each one discarded is
 * reported through `discarded`.
 */
export async function loadSnapshot(
  store: EventStore,
  tableId: string,
  discarded: (reason: string, snapshotRevision: unknown) => void,
): Promise<LoadedSnapshot | null> {
  try {
    for await (const snap of store.readStream(snapshotStream(tableId), {
      direction: 'backwards',
      fromRevision: 'end',
      maxCount: SNAPSHOTS_TRIED,
    })) {
      const data = snap.data as SnapshotData;
      const why = await mismatch(store, tableId, data);
      if (why === null) return { state: data.state as TableState, revision: BigInt(data.revision as string) };
      discarded(why, data.revision);
    }
  } catch (error) {
    // A snapshot that cannot be read (e.g. its sealed seed was sealed with a key no longer configured) is a cache
    // miss: the stream is folded instead, and says itself whether it can be.
    discarded(`unreadable: ${(error as Error).message}`, undefined);
  }
  return null;
}

/** Appends a snapshot of the table's acknowledged `state` at `revision`, with the hash of the stream's event there. */
export async function writeSnapshot(
  store: EventStore,
  tableId: string,
  state: TableState,
  revision: bigint,
): Promise<void> {
  let hash: string | null = null;
  for await (const e of store.readStream(tableStream(tableId), { fromRevision: revision, maxCount: 1 }))
    if (e.streamRevision === revision) hash = e.hash;
  if (hash === null) throw new Error(`the stream has no event ${revision}`);
  await store.appendToStream(snapshotStream(tableId), [snapshotEvent(state, revision, hash)], {
    expectedRevision: 'any',
  });
}
