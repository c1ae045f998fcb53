// The append algorithm and chain verifier shared by the adapters. The memory and SQLite adapters run
// `appendCore` synchronously against their storage (for SQLite inside the group commit's transaction); the
// EventStoreDB adapter runs the same steps asynchronously with `matchReplay`/`chainRows`/`verifyChain`.
import { EventStoreInputError, WrongExpectedVersionError } from './errors';
import { GENESIS_HASH, hashCanonical } from './hash';
import type {
  AppendResult,
  ExpectedRevision,
  JsonValue,
  RecordedEvent,
  StreamVerification,
  VerifyStreamOptions,
} from './types';
import type { UpcasterRegistry } from './upcasting';
import type { PreparedEvent } from './validation';

/** One stored event as the memory and SQLite adapters keep it: data and metadata as canonical JSON text. */
export interface StoredRow {
  readonly globalPosition: bigint;
  readonly stream: string;
  readonly revision: bigint;
  readonly id: string;
  readonly type: string;
  readonly dataJson: string;
  readonly metadataJson: string;
  readonly recordedAt: string;
  readonly prevHash: string;
  readonly hash: string;
}

export type NewRow = Omit<StoredRow, 'globalPosition'>;

export interface Head {
  readonly revision: bigint;
  readonly hash: string;
}

/** Synchronous storage the append algorithm runs against (inside the caller's transaction, if any). */
export interface SyncBackend {
  head(stream: string): Head | null;
  /** At most `count` events of `stream` from `fromRevision` forwards. */
  range(stream: string, fromRevision: bigint, count: number): StoredRow[];
  locate(id: string): { stream: string; revision: bigint } | null;
  /** Inserts all rows or none: when an id is already stored, nothing is inserted and it is returned. */
  insert(rows: readonly NewRow[]): { lastPosition: bigint } | { duplicateId: string };
}

/** The last item of a list known to be non-empty (an append has at least one event). */
export function lastOf<T>(list: readonly T[]): T {
  const item = list[list.length - 1];
  if (item === undefined) throw new RangeError('expected a non-empty list');
  return item;
}

export function firstOf<T>(list: readonly T[]): T {
  const item = list[0];
  if (item === undefined) throw new RangeError('expected a non-empty list');
  return item;
}

export function expectedRevisionMatches(expected: ExpectedRevision, head: Head | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return head === null;
  if (expected === 'stream_exists') return head !== null;
  return head !== null && head.revision === expected;
}

/** Where a retried append with this expectation would have been written, when that is fixed by it. */
export function replayPlace(expected: ExpectedRevision): bigint | null {
  if (expected === 'no_stream') return 0n;
  if (typeof expected === 'bigint') return expected + 1n;
  return null;
}

/** The comparable shape of a stored event (from any adapter). */
export type StoredShape = Pick<
  StoredRow,
  'id' | 'type' | 'dataJson' | 'metadataJson' | 'revision' | 'globalPosition'
>;

/**
 * Is this append a retry of the events stored from the place onwards? `stored` are the events at the
 * place (at most `events.length`). Returns the original result when every id matches, null when the
 * first id is not there (not a retry), and throws DUPLICATE_EVENT_ID when it only partly matches or the
 * contents differ.
 */
export function matchReplay(
  stream: string,
  stored: readonly StoredShape[],
  events: readonly PreparedEvent[],
): AppendResult | null {
  const first = events[0];
  if (!first || stored[0]?.id !== first.id) return null;
  events.forEach((event, i) => {
    const at = stored[i];
    if (!at || at.id !== event.id) {
      throw new EventStoreInputError(
        'DUPLICATE_EVENT_ID',
        `Stream '${stream}': event ${first.id} is already recorded, but as part of a different append ` +
          `(event ${event.id} does not follow it): nothing was written`,
      );
    }
    if (at.type !== event.type || at.dataJson !== event.dataJson || at.metadataJson !== event.metadataJson) {
      throw new EventStoreInputError(
        'DUPLICATE_EVENT_ID',
        `Stream '${stream}': event ${event.id} is already recorded at revision ${at.revision} with different ` +
          `contents: nothing was written`,
      );
    }
  });
  const last = lastOf(stored.slice(0, events.length));
  return { nextExpectedRevision: last.revision, position: last.globalPosition };
}

export function duplicateIdError(
  id: string,
  where: { stream: string; revision: bigint } | null,
): EventStoreInputError {
  const at = where ? ` at '${where.stream}' revision ${where.revision}` : '';
  return new EventStoreInputError(
    'DUPLICATE_EVENT_ID',
    `Event id ${id} is already recorded${at}; event ids are unique: nothing was written`,
  );
}

/** The row of a prepared event at a stream revision, with its place in the stream's hash chain. */
export function rowOf(
  stream: string,
  revision: bigint,
  event: PreparedEvent,
  recordedAt: string,
  prevHash: string,
  hash: string,
): NewRow {
  return {
    stream,
    revision,
    id: event.id,
    type: event.type,
    dataJson: event.dataJson,
    metadataJson: event.metadataJson,
    recordedAt,
    prevHash,
    hash,
  };
}

/** The rows of an append, chained onto the stream's head. */
export function chainRows(
  stream: string,
  head: Head | null,
  events: readonly PreparedEvent[],
  recordedAt: string,
): NewRow[] {
  let prevHash = head?.hash ?? GENESIS_HASH;
  let revision = head ? head.revision + 1n : 0n;
  return events.map((event) => {
    const hash = hashCanonical(stream, revision, event.type, event.dataJson, event.metadataJson, prevHash);
    const row = rowOf(stream, revision, event, recordedAt, prevHash, hash);
    prevHash = hash;
    revision += 1n;
    return row;
  });
}

/**
 * The whole append against synchronous storage: expected-revision check, idempotent retry detection,
 * chaining and insert. Throws (with nothing inserted) on a wrong expected version or a reused id.
 */
export function appendCore(
  backend: SyncBackend,
  stream: string,
  events: readonly PreparedEvent[],
  expected: ExpectedRevision,
  recordedAt: string,
): AppendResult {
  const head = backend.head(stream);
  if (!expectedRevisionMatches(expected, head)) {
    const place = replayPlace(expected);
    if (place !== null) {
      const replay = matchReplay(stream, backend.range(stream, place, events.length), events);
      if (replay) return replay;
    }
    throw new WrongExpectedVersionError(stream, expected, head ? head.revision : 'no_stream');
  }
  const rows = chainRows(stream, head, events, recordedAt);
  const inserted = backend.insert(rows);
  if ('lastPosition' in inserted) {
    return { nextExpectedRevision: lastOf(rows).revision, position: inserted.lastPosition };
  }
  const first = backend.locate(firstOf(events).id);
  if ((expected === 'any' || expected === 'stream_exists') && first?.stream === stream) {
    const replay = matchReplay(stream, backend.range(stream, first.revision, events.length), events);
    if (replay) return replay;
  }
  throw duplicateIdError(inserted.duplicateId, backend.locate(inserted.duplicateId));
}

/** A stored row as the port's recorded event, upcast to the newest registered version. */
export function toRecorded(row: StoredRow, upcasters: UpcasterRegistry | undefined): RecordedEvent {
  const event: RecordedEvent = {
    id: row.id,
    type: row.type,
    data: JSON.parse(row.dataJson) as JsonValue,
    metadata: JSON.parse(row.metadataJson) as RecordedEvent['metadata'],
    streamName: row.stream,
    streamRevision: row.revision,
    globalPosition: row.globalPosition,
    recordedAt: row.recordedAt,
    prevHash: row.prevHash,
    hash: row.hash,
  };
  return upcasters ? upcasters.upcast(event) : event;
}

/** A stored event as the verifier sees it: its canonical data/metadata text as stored. */
export type ChainLink = Omit<StoredRow, 'id' | 'recordedAt'>;

/**
 * Walks a stream's stored events in revision order: revisions contiguous from 0, each `prevHash` equal to
 * the previous `hash` (genesis first), each `hash` recomputed from the stored bytes, global positions
 * increasing. Names the first event that fails; with `expectedHeadHash`, also fails when the hash noted
 * earlier is no longer in the chain (a chain rewritten from the start).
 */
export async function verifyChain(
  links: AsyncIterable<ChainLink> | Iterable<ChainLink>,
  options: VerifyStreamOptions = {},
): Promise<StreamVerification> {
  const { expectedHeadHash, expectedHeadRevision } = options;
  let expectedRevision = 0n;
  let prevHash = GENESIS_HASH;
  let lastPosition = -1n;
  let checked = 0;
  let headHash: string | null = null;
  let foundNoted = false;
  let firstBad: StreamVerification['firstBad'];
  for await (const link of links) {
    headHash = link.hash;
    if (firstBad) continue; // keep reading only to report the stored head
    checked += 1;
    const reason = checkLink(link, expectedRevision, prevHash, lastPosition, options);
    if (reason) {
      firstBad = { streamRevision: link.revision, globalPosition: link.globalPosition, reason };
      continue;
    }
    if (link.hash === expectedHeadHash) foundNoted = true;
    expectedRevision += 1n;
    prevHash = link.hash;
    lastPosition = link.globalPosition;
  }
  if (firstBad) return { ok: false, checked, headHash, firstBad };
  if (expectedHeadRevision !== undefined && expectedHeadRevision >= expectedRevision) {
    return {
      ok: false,
      checked,
      headHash,
      reason: `the stream ends before revision ${expectedHeadRevision}, where a head was noted: events were removed`,
    };
  }
  if (expectedHeadHash !== undefined && !foundNoted) {
    return {
      ok: false,
      checked,
      headHash,
      reason: `the head hash noted earlier (${expectedHeadHash}) is not in the chain: the stream was rewritten or truncated`,
    };
  }
  return { ok: true, checked, headHash };
}

function checkLink(
  link: ChainLink,
  expectedRevision: bigint,
  prevHash: string,
  lastPosition: bigint,
  options: VerifyStreamOptions,
): string | null {
  if (link.revision !== expectedRevision) {
    return `revision ${link.revision} found where ${expectedRevision} was expected: an event is missing`;
  }
  if (link.prevHash !== prevHash) return `prevHash does not match the hash of the previous event`;
  if (link.globalPosition <= lastPosition)
    return `global position ${link.globalPosition} is not after the previous event's`;
  const hash = hashCanonical(
    link.stream,
    link.revision,
    link.type,
    link.dataJson,
    link.metadataJson,
    link.prevHash,
  );
  if (hash !== link.hash) return `stored contents do not match the event's hash`;
  if (
    options.expectedHeadRevision === link.revision &&
    options.expectedHeadHash !== undefined &&
    link.hash !== options.expectedHeadHash
  ) {
    return `hash differs from the head hash noted earlier at this revision`;
  }
  return null;
}
