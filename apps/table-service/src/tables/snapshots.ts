import { STATE_VERSION, snapshotStream, tableStream, type TableState } from '@coup/table';
import {
  appendSnapshot,
  type EventStore,
  type NewEvent,
  type ReadSnapshot,
  readSnapshots,
  type Snapshot,
  snapshotEventsSync,
  type SnapshotWriteOptions,
} from '@coup/event-store';

/**
 * Snapshots (ADR-7, ADR-14, ADR-25, ADR-30): a cache of a table's acknowledged state at a revision, with the hash of
 * the stream's event at that revision. Loading trusts one only when the stream still has that event with that hash;
 * otherwise it is discarded and logged, and an older one (or the whole stream) is folded instead.
 *
 * The state is written as JSON text a slice at a time between turns of the event loop, so a busy table's snapshot
 * (its whole state, a thousand players and more) never holds the request thread. The store's snapshot parts
 * (`@coup/event-store` snapshot-parts) compress that text off the thread and split it into as many events as it
 * needs, so a state of any size fits the 1 MiB an event or an EventStoreDB append may hold. The shoe's seed is kept
 * apart in the header (`seed`, sealed at rest by store/seal.ts) and the text holds null in its place.
 */

export const SNAPSHOT_TYPE = 'TableSnapshotTaken';
/**
 * Version of the snapshot's own shape (2: the state as an object, with the hash of the event it was taken at; 3: the
 * state as JSON text, the seed apart; 4: that text compressed in the store's snapshot parts).
 */
export const SNAPSHOT_VERSION = 4;
/** Older snapshot versions still read. */
const READABLE_VERSIONS: readonly unknown[] = [2, 3, SNAPSHOT_VERSION];
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

function snapshotWith(stateJson: string, seed: string | null, revision: bigint, hash: string): Snapshot {
  return {
    type: SNAPSHOT_TYPE,
    header: {
      snapshotVersion: SNAPSHOT_VERSION,
      stateVersion: STATE_VERSION,
      revision: revision.toString(),
      hash,
      seed,
    },
    body: stateJson,
    metadata: { schemaVersion: SNAPSHOT_VERSION },
  };
}

/** The snapshot of a table's acknowledged state at `revision`, whose stream event has hash `hash`. */
export function snapshotOf(state: TableState, revision: bigint, hash: string): Snapshot {
  const { rest, seed } = withoutSeed(state);
  return snapshotWith(JSON.stringify(rest), seed, revision, hash);
}

/** The same snapshot as `snapshotOf`, its JSON text written SNAPSHOT_SLICE array elements per turn of the loop. */
export async function snapshotInSlices(
  state: TableState,
  revision: bigint,
  hash: string,
  pause: () => Promise<void> = nextTurn,
): Promise<Snapshot> {
  const { rest, seed } = withoutSeed(state);
  return snapshotWith(await jsonInSlices(rest, pause), seed, revision, hash);
}

/**
 * The snapshot as the one event that stores it, compressed on this thread: for tests and tools that write a
 * snapshot by hand (a state too large for one event throws).
 */
export function snapshotEvent(state: TableState, revision: bigint, hash: string): NewEvent {
  const [event, ...more] = snapshotEventsSync(snapshotOf(state, revision, hash));
  if (!event || more.length > 0) throw new RangeError('this snapshot takes more than one event');
  return event;
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

/** A snapshot's fields: its header with its state (version 4: the store's body as `stateJson`), or its event's data. */
export interface SnapshotData {
  readonly snapshotVersion?: unknown;
  readonly stateVersion?: unknown;
  readonly revision?: unknown;
  readonly hash?: unknown;
  /** Version 2. */
  readonly state?: unknown;
  /** Versions 3 and 4. */
  readonly stateJson?: unknown;
  readonly seed?: unknown;
}

/** A snapshot read back as its fields, or null when the store discarded it (its parts incomplete or broken). */
export function snapshotData(read: ReadSnapshot): SnapshotData | null {
  if (!read.ok) return null;
  return read.body === null ? read.header : { ...read.header, stateJson: read.body };
}

/**
 * The state a snapshot's fields hold (versions 3 and 4: its JSON text with the seed put back; version 2: the
 * object), as stored (a seed read through the sealing store is opened, else sealed), or null when they hold none.
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
    data.snapshotVersion === 2
      ? typeof data.state === 'object' && data.state !== null
      : typeof data.stateJson === 'string';
  if (typeof data.hash !== 'string' || !hasState) return 'no hash or state';
  const revision = BigInt(data.revision);
  for await (const e of store.readStream(tableStream(tableId), { fromRevision: revision, maxCount: 1 })) {
    if (e.streamRevision !== revision) break;
    return e.hash === data.hash ? null : `the stream's event ${revision} has another hash`;
  }
  return `revision ${revision} is past the stream's head`;
}

/**
 * The newest snapshot of the table that matches its stream, or null (fold from the start). Each one discarded (its
 * parts incomplete, mismatched or out of order, or not matching the stream) is reported through `discarded`.
 */
export async function loadSnapshot(
  store: EventStore,
  tableId: string,
  discarded: (reason: string, snapshotRevision: unknown) => void,
): Promise<LoadedSnapshot | null> {
  try {
    for await (const read of readSnapshots(store, snapshotStream(tableId), { tries: SNAPSHOTS_TRIED })) {
      const data = snapshotData(read);
      if (data === null) {
        discarded(read.ok ? 'no state' : read.reason, read.header?.['revision']);
        continue;
      }
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
 * the state's JSON text is written a slice per turn of the event loop (the state is immutable meanwhile), then
 * compressed off the thread and appended in as many parts as it needs (`options.partChars` sets their size).
 */
export async function writeSnapshot(
  store: EventStore,
  tableId: string,
  state: TableState,
  revision: bigint,
  options: SnapshotWriteOptions = {},
): Promise<void> {
  let hash: string | null = null;
  for await (const e of store.readStream(tableStream(tableId), { fromRevision: revision, maxCount: 1 }))
    if (e.streamRevision === revision) hash = e.hash;
  if (hash === null) throw new Error(`the stream has no event ${revision}`);
  await appendSnapshot(
    store,
    snapshotStream(tableId),
    await snapshotInSlices(state, revision, hash),
    options,
  );
}
