// Snapshots of any size, over any adapter (the port decides, so memory, SQLite and EventStoreDB store them alike). A
// snapshot is a small header (what its reader checks before trusting it) and a body text as large as the state it
// holds. One event may not be over 1 MiB (MAX_EVENT_BYTES here, EventStoreDB's MaxAppendSize per append there), and
// a busy table's state is more: so the body is compressed (gzip, then base64, since events are JSON) and, when still
// too large, split into parts of at most SNAPSHOT_PART_CHARS characters, one event each, appended one after another.
//
// Every part carries `part: { id, index, count, encoding, digest, chunk }`: the snapshot's id, its place, how many
// there are, the digest (SHA-256) of the whole compressed body, and its slice of it. The last part also carries the
// header's fields, so a snapshot is complete only once its last part is written. Parts after the first are appended
// at the exact revision after the previous one, so another writer's event between them stops the write (the
// snapshot stays incomplete) instead of interleaving. A reader walks the stream backwards, a snapshot at a time, and
// trusts one only when all its parts are there, in order, of one snapshot, and their body matches its digest;
// otherwise it reports the snapshot discarded, with why, and goes on to the one before.
import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip, gzipSync } from 'node:zlib';
import { EventStoreInputError } from './errors';
import type { AppendResult, EventMetadata, EventStore, JsonValue, NewEvent, RecordedEvent } from './types';

/** Characters of compressed body (base64) per part: half of EventStoreDB's default maximum append size. */
export const SNAPSHOT_PART_CHARS = 512 * 1024;
/** A snapshot is at most this many parts (32 MiB compressed at the default part size). */
export const MAX_SNAPSHOT_PARTS = 64;
/** The field of every part's data that holds the part. */
export const SNAPSHOT_PART_KEY = 'part';
const ENCODING = 'gzip+base64';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

type Header = { readonly [key: string]: JsonValue };

export interface Snapshot {
  /** The type of each part's event. */
  readonly type: string;
  /** Stored as is in the last part's data (small: what a reader checks before using the body). */
  readonly header: Header;
  /** Compressed and split as needed. */
  readonly body: string;
  readonly metadata: EventMetadata;
}

export interface SnapshotWriteOptions {
  /** Characters of compressed body per part (default SNAPSHOT_PART_CHARS). */
  readonly partChars?: number;
}

/** A snapshot read back: its header and body, or why it was discarded. `revision`: its newest event's. */
export type ReadSnapshot =
  | {
      readonly ok: true;
      readonly header: Header;
      /** Null for an event written before snapshots came in parts: its data is all in `header`. */
      readonly body: string | null;
      readonly revision: bigint;
    }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly header: Header | null;
      readonly revision: bigint;
    };

interface Part {
  readonly id: string;
  readonly index: number;
  readonly count: number;
  readonly encoding: string;
  readonly digest: string;
  readonly chunk: string;
}

const digestOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The events of a snapshot whose body compressed to `compressed`. */
function partsOf(snapshot: Snapshot, compressed: Buffer, options: SnapshotWriteOptions): NewEvent[] {
  const partChars = options.partChars ?? SNAPSHOT_PART_CHARS;
  if (!Number.isSafeInteger(partChars) || partChars < 1)
    throw new EventStoreInputError(
      'INVALID_OPTIONS',
      `partChars must be a positive integer (got ${partChars})`,
    );
  if (Object.hasOwn(snapshot.header, SNAPSHOT_PART_KEY))
    throw new EventStoreInputError(
      'INVALID_EVENT',
      `a snapshot's header may not have a '${SNAPSHOT_PART_KEY}' field`,
    );
  const text = compressed.toString('base64');
  const count = Math.max(1, Math.ceil(text.length / partChars));
  if (count > MAX_SNAPSHOT_PARTS)
    throw new EventStoreInputError(
      'APPEND_TOO_LARGE',
      `A snapshot of ${compressed.length} bytes compressed would be ${count} parts of ${partChars} characters; ` +
        `at most ${MAX_SNAPSHOT_PARTS}: nothing was written`,
    );
  const id = randomUUID();
  const digest = digestOf(compressed);
  return Array.from({ length: count }, (_, index): NewEvent => {
    const part = {
      id,
      index,
      count,
      encoding: ENCODING,
      digest,
      chunk: text.slice(index * partChars, (index + 1) * partChars),
    };
    const data =
      index === count - 1 ? { ...snapshot.header, [SNAPSHOT_PART_KEY]: part } : { [SNAPSHOT_PART_KEY]: part };
    return { id: randomUUID(), type: snapshot.type, data, metadata: snapshot.metadata };
  });
}

/** The events that store a snapshot, in order (its body compressed off the calling thread). */
export async function snapshotEvents(
  snapshot: Snapshot,
  options: SnapshotWriteOptions = {},
): Promise<NewEvent[]> {
  return partsOf(snapshot, await gzipAsync(snapshot.body), options);
}

/** The same events as `snapshotEvents`, compressed on this thread (for tests and tools). */
export function snapshotEventsSync(snapshot: Snapshot, options: SnapshotWriteOptions = {}): NewEvent[] {
  return partsOf(snapshot, gzipSync(snapshot.body), options);
}

/**
 * Appends a snapshot to `stream`, a part per append; each part after the first at the revision after the one before
 * (WRONG_EXPECTED_VERSION when another writer appended between them: the snapshot is left incomplete, which readers
 * skip). Returns the last part's result.
 */
export async function appendSnapshot(
  store: EventStore,
  stream: string,
  snapshot: Snapshot,
  options: SnapshotWriteOptions = {},
): Promise<AppendResult> {
  let result: AppendResult | null = null;
  for (const event of await snapshotEvents(snapshot, options))
    result = await store.appendToStream(stream, [event], {
      expectedRevision: result ? result.nextExpectedRevision : 'any',
    });
  if (result === null) throw new RangeError('a snapshot has at least one part');
  return result;
}

const isObject = (v: unknown): v is { [key: string]: JsonValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The part an event holds; null when it holds none (an event of the single-event format); 'bad' when unreadable. */
function partIn(event: RecordedEvent): Part | null | 'bad' {
  if (!isObject(event.data)) return 'bad';
  const p = event.data[SNAPSHOT_PART_KEY];
  if (p === undefined) return null;
  if (!isObject(p)) return 'bad';
  const { id, index, count, encoding, digest, chunk } = p;
  if (
    typeof id !== 'string' ||
    typeof encoding !== 'string' ||
    typeof digest !== 'string' ||
    typeof chunk !== 'string' ||
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(count) ||
    (count as number) < 1 ||
    (count as number) > MAX_SNAPSHOT_PARTS ||
    (index as number) < 0 ||
    (index as number) >= (count as number)
  )
    return 'bad';
  return { id, index: index as number, count: count as number, encoding, digest, chunk };
}

function headerOf(event: RecordedEvent): Header {
  const { [SNAPSHOT_PART_KEY]: _part, ...header } = event.data as { [key: string]: JsonValue };
  return header;
}

/** At most `count` events of the stream from `from` backwards (none before revision 0). */
async function readBackwards(
  store: EventStore,
  stream: string,
  from: bigint | 'end',
  count: number,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  if (count > 0 && (from === 'end' || from >= 0n))
    for await (const e of store.readStream(stream, {
      direction: 'backwards',
      fromRevision: from,
      maxCount: count,
    }))
      out.push(e);
  return out;
}

/** Why the parts (newest first, all of one snapshot id) are not a whole snapshot, or null when they are. */
function incomplete(top: Part, parts: readonly Part[]): string | null {
  if (top.index !== top.count - 1)
    return `incomplete: its last part (${top.count} of ${top.count}) is missing`;
  if (parts.length < top.count) return `incomplete: ${parts.length} of its ${top.count} parts`;
  for (const [k, p] of parts.entries()) {
    if (p.count !== top.count || p.digest !== top.digest || p.encoding !== top.encoding)
      return 'mismatched parts';
    if (p.index !== top.count - 1 - k) return 'parts out of order';
  }
  return null;
}

/** The body of a whole snapshot's parts (newest first), or why it cannot be had. */
async function bodyOf(top: Part, parts: readonly Part[]): Promise<{ body: string } | { reason: string }> {
  if (top.encoding !== ENCODING) return { reason: `an unknown encoding (${top.encoding})` };
  const text = parts
    .map((p) => p.chunk)
    .reverse()
    .join('');
  const compressed = Buffer.from(text, 'base64');
  if (digestOf(compressed) !== top.digest) return { reason: 'its parts do not match its digest' };
  try {
    return { body: (await gunzipAsync(compressed)).toString('utf8') };
  } catch (error) {
    return { reason: `its body does not decompress (${(error as Error).message})` };
  }
}

/** The snapshot whose newest event is `top` (a part), read back with the parts before it; where the next one ends. */
async function snapshotAt(
  store: EventStore,
  stream: string,
  top: RecordedEvent,
  part: Part,
): Promise<{ readonly read: ReadSnapshot; readonly next: bigint }> {
  // The parts before it: as many as its index says, while they are of the same snapshot.
  const parts: Part[] = [part];
  let lowest = top.streamRevision;
  for (const e of await readBackwards(store, stream, top.streamRevision - 1n, part.index)) {
    const p = partIn(e);
    if (p === null || p === 'bad' || p.id !== part.id) break;
    parts.push(p);
    lowest = e.streamRevision;
  }
  const revision = top.streamRevision;
  const why = incomplete(part, parts);
  if (why !== null) {
    const header = part.index === part.count - 1 ? headerOf(top) : null;
    return { read: { ok: false, reason: why, header, revision }, next: lowest - 1n };
  }
  const body = await bodyOf(part, parts);
  const read: ReadSnapshot =
    'body' in body
      ? { ok: true, header: headerOf(top), body: body.body, revision }
      : { ok: false, reason: body.reason, header: headerOf(top), revision };
  return { read, next: lowest - 1n };
}

/**
 * The snapshots of `stream`, newest first, at most `tries` of them (whole or discarded). Each is read when asked
 * for (its last part, then the parts before it), so a consumer that stops at the first it can use reads no more.
 */
export async function* readSnapshots(
  store: EventStore,
  stream: string,
  options: { readonly tries?: number } = {},
): AsyncGenerator<ReadSnapshot, void, undefined> {
  const tries = options.tries ?? Number.POSITIVE_INFINITY;
  let from: bigint | 'end' = 'end';
  for (let tried = 0; tried < tries; tried++) {
    const [top] = await readBackwards(store, stream, from, 1);
    if (!top) return;
    const part = partIn(top);
    const revision = top.streamRevision;
    from = revision - 1n;
    if (part === null) yield { ok: true, header: top.data as Header, body: null, revision };
    else if (part === 'bad')
      yield { ok: false, reason: 'a part that cannot be read', header: null, revision };
    else {
      const { read, next } = await snapshotAt(store, stream, top, part);
      from = next;
      yield read;
    }
  }
}
