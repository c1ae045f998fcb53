import { STATE_VERSION, snapshotStream, tableStream, type TableState } from '@coup/table';
import type { EventStore, NewEvent } from '@coup/event-store';
import { uuidv7 } from './idempotency';

/**
 * Snapshots (ADR-7, ADR-14, ADR-25): a cache of a table's acknowledged state at a revision, with the hash of the
 * stream's event at that revision. Loading trusts one only when the stream still has that event with that hash;
 * otherwise it is discarded and logged, and an older one (or the whole stream) is folded instead.
 *
 * The state is stored as JSON text (`stateJson`), written a slice at a time between turns of the event loop, so a
 * busy table's snapshot (its whole state, a thousand players and more) never holds the request thread: the store
 * then encodes one string, not thousands of objects. The shoe's seed is kept apart (`seed`), sealed at rest
 * (store/seal.ts), and `stateJson` holds null in its place.
 */

export const SNAPSHOT_TYPE = 'TableSnapshotTaken';
/** Version of the snapshot's own shape (2: the state as an object, with the hash of the event it was taken at; 3: the state as JSON text, the seed apart). */
export const SNAPSHOT_VERSION = 3;
/** Older snapshot versions still read. */
const READABLE_VERSIONS: readonly unknown[] = [2, SNAPSHOT_VERSION];
/** Array elements written per turn of the event loop while a state is turned into JSON text. */
export const SNAPSHOT_SLICE = 250;
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

/** The state with its shoe's seed taken out (null), and the seed. */
function withoutSeed(state: TableState): { readonly rest: TableState; readonly seed: string | null } {
  const seed = state.shoe?.seed ?? null;
  return { rest: state.shoe ? { ...state, shoe: { ...state.shoe, seed: null } } : state, seed };
}

function eventOf(stateJson: string, seed: string | null, revision: bigint, hash: string): NewEvent {
  return {
    id: uuidv7(),
    type: SNAPSHOT_TYPE,
    data: {
      snapshotVersion: SNAPSHOT_VERSION,
      stateVersion: STATE_VERSION,
      revision: revision.toString(),
      hash,
      seed,
      stateJson,
    },
    metadata: { schemaVersion: SNAPSHOT_VERSION },
  };
}

/** The snapshot event of a table's acknowledged state at `revision`, whose stream event has hash `hash`. */
export function snapshotEvent(state: TableState, revision: bigint, hash: string): NewEvent {
  const { rest, seed } = withoutSeed(state);
  return eventOf(JSON.stringify(rest), seed, revision, hash);
}

/** The same event as `snapshotEvent`, its JSON text written SNAPSHOT_SLICE array elements per turn of the loop. */
export async function snapshotEventInSlices(
  state: TableState,
  revision: bigint,
  hash: string,
  pause: () => Promise<void> = nextTurn,
): Promise<NewEvent> {
  const { rest, seed } = withoutSeed(state);
  return eventOf(await jsonInSlices(rest, pause), seed, revision, hash);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `JSON.stringify(value)`, written in slices: objects key by key, arrays SNAPSHOT_SLICE elements at a time (each
 * element by `JSON.stringify`), with `pause()` between slices. For plain JSON data (a table state: no `toJSON`).
 */
export async function jsonInSlices(value: unknown, pause: () => Promise<void>): Promise<string> {
  if (Array.isArray(value)) {
    if (value.length <= SNAPSHOT_SLICE) return JSON.stringify(value);
    const parts: string[] = [];
    for (let i = 0; i < value.length; i += SNAPSHOT_SLICE) {
      if (i > 0) await pause();
      for (const item of value.slice(i, i + SNAPSHOT_SLICE)) parts.push(JSON.stringify(item) ?? 'null');
    }
    return `[${parts.join(',')}]`;
  }
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const parts: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    const text =
      typeof field === 'object' && field !== null ? await jsonInSlices(field, pause) : JSON.stringify(field);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

interface SnapshotData {
  readonly snapshotVersion?: unknown;
  readonly stateVersion?: unknown;
  readonly revision?: unknown;
  readonly hash?: unknown;
  /** Version 2. */
  readonly state?: unknown;
  /** Version 3. */
  readonly stateJson?: unknown;
  readonly seed?: unknown;
}

/**
 * The state a snapshot's data holds (version 3: its JSON text with the seed put back; version 2: the object), as
 * stored (a seed read through the sealing store is opened, else sealed), or null when it holds none.
 */
export function snapshotState(data: unknown): TableState | null {
  const d = (data ?? {}) as SnapshotData;
  if (typeof d.stateJson === 'string') {
    const state = JSON.parse(d.stateJson) as TableState | null;
    if (typeof state !== 'object' || state === null) return null;
    const seed = typeof d.seed === 'string' ? d.seed : null;
    return state.shoe ? { ...state, shoe: { ...state.shoe, seed } } : state;
  }
  return typeof d.state === 'object' && d.state !== null ? (d.state as TableState) : null;
}

export interface LoadedSnapshot {
  readonly state: TableState;
  readonly revision: bigint;
}

/** Why a snapshot was not used (for the log), or null when it matches its stream. */
async function mismatch(store: EventStore, tableId: string, data: SnapshotData): Promise<string | null> {
  if (!READABLE_VERSIONS.includes(data.snapshotVersion)) return 'an older snapshot format';
  if (data.stateVersion !== STATE_VERSION) return `state version ${String(data.stateVersion)}`;
  if (typeof data.revision !== 'string' || !/^\d{1,18}$/.test(data.revision)) return 'no revision';
  const hasState =
    data.snapshotVersion === SNAPSHOT_VERSION
      ? typeof data.stateJson === 'string'
      : typeof data.state === 'object' && data.state !== null;
  if (typeof data.hash !== 'string' || !hasState) return 'no hash or state';
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
      const state = why === null ? snapshotState(data) : null;
      if (state !== null) return { state, revision: BigInt(data.revision as string) };
      discarded(why ?? 'no state', data.revision);
    }
  } catch (error) {
    // A snapshot that cannot be read (e.g. its sealed seed was sealed with a key no longer configured) is a cache
    // miss: the stream is folded instead, and says itself whether it can be.
    discarded(`unreadable: ${(error as Error).message}`, undefined);
  }
  return null;
}

/**
 * Appends a snapshot of the table's acknowledged `state` at `revision`, with the hash of the stream's event there;
 * the state's JSON text is written a slice per turn of the event loop (the state is immutable meanwhile).
 */
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
  await store.appendToStream(snapshotStream(tableId), [await snapshotEventInSlices(state, revision, hash)], {
    expectedRevision: 'any',
  });
}
