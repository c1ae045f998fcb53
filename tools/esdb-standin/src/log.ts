/* eslint-disable @typescript-eslint/no-non-null-assertion -- protobuf getters and indexed reads are typed optional; each is read after its oneof case, presence or bounds are checked */
// The stand-in's data: one transaction log in memory, with EventStoreDB's write and read semantics.
// A STAND-IN FOR TESTS, never a store: nothing is persisted, there is no replication, no scavenge, no ACLs.
//
// Each rule names the EventStoreDB documentation page it follows and, where the page is silent, the server source
// it was read from (github.com/EventStore/EventStore at tag v24.10.4; paths below are relative to its `src/`).
import { TextEncoder } from 'node:util';

/** Where a record starts in the transaction file: commit and prepare positions (equal for every event here). */
export interface LogPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export interface StoredEvent {
  /** Byte offset of the event's record in the log: its commit and prepare position. */
  readonly position: bigint;
  readonly streamId: string;
  readonly revision: bigint;
  /** Lower-case UUID. */
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly metadata: Uint8Array;
  /** Ticks (100 ns) since the Unix epoch, as the server sends `created`. */
  readonly created: bigint;
}

export interface ProposedEvent {
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly metadata: Uint8Array;
}

/** An expected revision as the server gets it: a number, or one of the three states. */
export type Expected = bigint | 'any' | 'no_stream' | 'stream_exists';

export type AppendOutcome =
  | { readonly kind: 'success'; readonly lastRevision: bigint; readonly position: bigint }
  /** `current`: the stream's last revision, -1n for no stream. */
  | { readonly kind: 'wrong-expected-version'; readonly current: bigint }
  | { readonly kind: 'stream-deleted' };

export type StreamRead =
  | { readonly kind: 'events'; readonly events: readonly StoredEvent[] }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'deleted' };

/** A read of `$all` from a position where no record starts (the server: `ReadAllResult.InvalidPosition`). */
export class InvalidPositionError extends Error {
  constructor(readonly position: bigint) {
    super(`Trying to read from an invalid position (${position}).`);
  }
}

/** What `$all` filters on, as a subscription or a filtered read asks (`ReadReq.Options.FilterOptions`). */
export interface EventFilter {
  readonly on: 'eventType' | 'streamName';
  readonly regex: RegExp | null;
  readonly prefixes: readonly string[];
}

export function filterAllows(filter: EventFilter | null, event: StoredEvent): boolean {
  if (!filter) return true;
  const value = filter.on === 'eventType' ? event.type : event.streamId;
  if (filter.regex) return filter.regex.test(value);
  return filter.prefixes.some((p) => value.startsWith(p));
}

/** `long.MaxValue`: the event number of a tombstone and the `$tb` of a soft-deleted stream. */
export const DELETED_STREAM = 9_223_372_036_854_775_807n;

interface Stream {
  /** Every event ever written, in revision order (a soft delete hides them from reads, it removes none). */
  readonly events: StoredEvent[];
  /** Revision of the last event; -1n: none. */
  lastRevision: bigint;
  /** Events below this revision are not read (`$tb`): DELETED_STREAM while soft-deleted. */
  truncateBefore: bigint | null;
  tombstoned: boolean;
}

const utf8 = new TextEncoder();

/** A length-prefixed string in a record (BinaryWriter: a 7-bit encoded length, then UTF-8). */
function stringSize(value: string): number {
  const bytes = utf8.encode(value).length;
  let prefix = 1;
  for (let n = bytes >> 7; n > 0; n >>= 7) prefix += 1;
  return prefix + bytes;
}

/**
 * The size of a LogV2 prepare record (Core/TransactionLog/LogRecords/PrepareLogRecord.cs): 4 length bytes before and
 * after; type, version, log position; flags, transaction position and offset, expected version; stream; event and
 * correlation ids; timestamp; event type; data and metadata with their lengths. Positions are these byte offsets,
 * so they are sparse and grow with the events' sizes, as on a real server.
 */
export function recordSize(streamId: string, type: string, data: Uint8Array, metadata: Uint8Array): number {
  return 8 + 10 + 22 + 40 + 8 + stringSize(streamId) + stringSize(type) + data.length + metadata.length;
}

/** The server's measure of an event for its maximum append size (Core/Data/Event.cs `SizeOnDisk`). */
export function sizeOnDisk(event: { type: string; data: Uint8Array; metadata: Uint8Array }): number {
  return event.data.length + event.metadata.length + event.type.length * 2;
}

export interface StandinLogOptions {
  /** A `$statsCollected` event is written to `$stats-<node>` after every this many appends (0: never). */
  statsEvery?: number;
  /** Ticks since the epoch for `created` (tests may fix time). */
  now?: () => bigint;
}

type Listener = (event: StoredEvent) => void;

/**
 * The log: every record in position order, the streams, and an index of event ids. Appends are checked and written
 * atomically (the server's single writer thread), and listeners (live subscriptions) hear every new record.
 */
export class StandinLog {
  private readonly records: StoredEvent[] = [];
  private readonly streams = new Map<string, Stream>();
  /** Event id -> where it was first written (the server's committed-events cache; here it forgets nothing). */
  private readonly ids = new Map<string, StoredEvent>();
  private readonly listeners = new Set<Listener>();
  /** The position the next record is written at: the log's end. */
  private end = 0n;
  private appends = 0;
  private readonly statsEvery: number;
  private readonly now: () => bigint;

  constructor(options: StandinLogOptions = {}) {
    this.statsEvery = options.statsEvery ?? 10;
    this.now = options.now ?? (() => BigInt(Date.now()) * 10_000n);
    // A fresh server writes system events before any client does: `$all` never starts with a client's event
    // (server docs, features/streams.md "System events and streams": streams and events starting with `$`).
    this.writeSystem('$settings', '$settings', '{"$userStreamAcl":{"$r":"$all"}}');
    this.writeSystem('$stats-127.0.0.1:2113', '$statsCollected', '{"proc":{"startTime":0}}');
  }

  /** The position after the last record: where the next one starts. */
  get endPosition(): bigint {
    return this.end;
  }

  /** The position of the last record (null: empty log). */
  get lastPosition(): bigint | null {
    return this.records.at(-1)?.position ?? null;
  }

  get recordCount(): number {
    return this.records.length;
  }

  onAppend(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * An append with EventStoreDB's optimistic concurrency check and idempotence (client docs, "Appending events":
   * https://developers.eventstore.com/clients/grpc/appending-events.html, "Handling concurrency"; the exact rules are
   * Core/Services/Storage/ReaderIndex/IndexWriter.cs `CheckCommit`, answered as in StorageWriterService.cs):
   * - a tombstoned stream refuses everything (stream deleted);
   * - `stream_exists` refuses a soft-deleted stream (stream deleted) and a stream without events (wrong version);
   * - `any` and `stream_exists`: when the first event id is already in this stream, the append is a retry: every
   *   id recorded in order answers the first result and writes nothing, a partial match is a wrong version;
   * - a number below the stream's revision (and `no_stream` on an existing stream): the ids recorded right after
   *   that revision answer the first result, else wrong version; `no_stream` on a soft-deleted stream writes;
   * - a number above it: wrong version; equal: written. A soft-deleted stream written to is undeleted and numbers on
   *   from its last revision + 1 (server docs, features/streams.md "Soft delete and TruncateBefore").
   */
  append(streamId: string, expected: Expected, events: readonly ProposedEvent[]): AppendOutcome {
    const stream = this.streams.get(streamId);
    const current = stream?.lastRevision ?? -1n;
    const softDeleted = stream?.truncateBefore === DELETED_STREAM;
    if (stream?.tombstoned) return { kind: 'stream-deleted' };
    if (expected === 'stream_exists') {
      if (softDeleted) return { kind: 'stream-deleted' };
      if (current < 0n && !this.streams.has(`$$${streamId}`)) return this.wrong(current);
    }
    if (expected === 'any' || expected === 'stream_exists') {
      const replay = this.replayAnywhere(streamId, events);
      if (replay) return replay;
    } else {
      const after = expected === 'no_stream' ? -1n : expected;
      if (after < current) {
        const replay = this.replayAt(stream!, after, events);
        if (replay === 'not-a-retry') {
          if (!(expected === 'no_stream' && softDeleted)) return this.wrong(current);
        } else {
          return replay;
        }
      } else if (after > current) {
        return this.wrong(current);
      }
    }
    return this.write(streamId, events);
  }

  /**
   * Soft delete (server docs, features/streams.md "Soft delete and TruncateBefore"): `$tb` set to long.MaxValue in
   * the stream's metadata stream, so the stream reads as not found while its events stay in `$all`; appending to it
   * again numbers on. The expected revision is checked as for an append (Streams.Delete.cs).
   */
  softDelete(streamId: string, expected: Expected): AppendOutcome {
    const stream = this.streams.get(streamId);
    if (stream?.tombstoned) return { kind: 'stream-deleted' };
    const current = stream?.lastRevision ?? -1n;
    if (!this.deleteExpectationHolds(expected, current)) return this.wrong(current);
    const written = this.writeSystem(`$$${streamId}`, '$metadata', `{"$tb":${DELETED_STREAM}}`);
    if (stream) stream.truncateBefore = DELETED_STREAM;
    return { kind: 'success', lastRevision: current, position: written.position };
  }

  /** Hard delete: a `$streamDeleted` tombstone at revision long.MaxValue; the stream can never be written again. */
  tombstone(streamId: string, expected: Expected): AppendOutcome {
    const stream = this.streams.get(streamId);
    if (stream?.tombstoned) return { kind: 'stream-deleted' };
    const current = stream?.lastRevision ?? -1n;
    if (!this.deleteExpectationHolds(expected, current)) return this.wrong(current);
    const target = this.streamOf(streamId);
    const record = this.record(streamId, DELETED_STREAM, {
      id: crypto.randomUUID(),
      type: '$streamDeleted',
      contentType: 'application/octet-stream',
      data: new Uint8Array(),
      metadata: new Uint8Array(),
    });
    target.tombstoned = true;
    this.emit([record]);
    return { kind: 'success', lastRevision: current, position: record.position };
  }

  /**
   * A stream read (client docs, "Reading events": https://developers.eventstore.com/clients/grpc/reading-events.html):
   * forwards from a revision (inclusive) or backwards from one (inclusive), at most `count`; a stream with no events,
   * or soft-deleted, is not found; a tombstoned one is deleted. Events below `$tb` are not read. `visibleEnd` hides
   * records at or after it (a follower that has not replicated them).
   */
  readStream(
    streamId: string,
    from: bigint | 'start' | 'end',
    direction: 'forwards' | 'backwards',
    count: bigint,
    visibleEnd: bigint = this.end,
  ): StreamRead {
    const stream = this.streams.get(streamId);
    if (stream?.tombstoned) return { kind: 'deleted' };
    const events = (stream?.events ?? []).filter(
      (e) => e.position < visibleEnd && e.revision >= (stream?.truncateBefore ?? 0n),
    );
    if (!stream || events.length === 0 || stream.truncateBefore === DELETED_STREAM)
      return { kind: 'not-found' };
    let selected: StoredEvent[];
    if (direction === 'forwards') {
      const start = from === 'start' ? -1n : from === 'end' ? DELETED_STREAM : from - 1n;
      selected = events.filter((e) => e.revision > start);
    } else {
      const top = from === 'end' ? DELETED_STREAM : from === 'start' ? 0n : from;
      selected = events.filter((e) => e.revision <= top).reverse();
    }
    return {
      kind: 'events',
      events: selected.slice(0, Number(count > 1_000_000_000n ? 1_000_000_000n : count)),
    };
  }

  /**
   * A read of `$all` (client docs, "Reading events", "Reading from the $all stream"): forwards from a position
   * (inclusive: the event there is read first) or backwards from one (events before it), at most `count`, system
   * events included. A position must be where a record starts (or the end): anything else is refused, as
   * Core/Services/Storage/StorageReaderWorker.cs does when the chunk reader meets no record there.
   */
  readAll(
    from: LogPosition | 'start' | 'end',
    direction: 'forwards' | 'backwards',
    count: bigint,
    filter: EventFilter | null = null,
    visibleEnd: bigint = this.end,
  ): StoredEvent[] {
    const visible = this.visible(visibleEnd);
    const limit = Number(count > 1_000_000_000n ? 1_000_000_000n : count);
    const out: StoredEvent[] = [];
    if (direction === 'forwards') {
      let index = from === 'start' ? 0 : from === 'end' ? visible.length : this.indexAt(from.commit, visible);
      for (; index < visible.length && out.length < limit; index++) {
        if (filterAllows(filter, visible[index]!)) out.push(visible[index]!);
      }
    } else {
      let index =
        from === 'end' ? visible.length - 1 : from === 'start' ? -1 : this.indexAt(from.commit, visible) - 1;
      for (; index >= 0 && out.length < limit; index--) {
        if (filterAllows(filter, visible[index]!)) out.push(visible[index]!);
      }
    }
    return out;
  }

  /**
   * Overwrites a stored event's bytes behind the server, as someone with access to its files could (tests of
   * tamper evidence). Its position, revision and id stay.
   */
  tamper(
    streamId: string,
    revision: bigint,
    patch: { type?: string; data?: Uint8Array; metadata?: Uint8Array },
  ): void {
    const stream = this.streams.get(streamId);
    const index = stream?.events.findIndex((e) => e.revision === revision) ?? -1;
    if (!stream || index < 0) throw new Error(`stand-in: no event ${streamId}@${revision} to tamper with`);
    const before = stream.events[index]!;
    const after: StoredEvent = { ...before, ...patch };
    stream.events[index] = after;
    this.records[this.records.indexOf(before)] = after;
  }

  /** The raw stored event (tests read what the client wrote, e.g. its metadata bytes). */
  stored(streamId: string, revision: bigint): StoredEvent | undefined {
    return this.streams.get(streamId)?.events.find((e) => e.revision === revision);
  }

  /** Records after `position` (exclusive; -1n: from the start) up to `visibleEnd`, at most `count`. */
  after(position: bigint, count: number, visibleEnd: bigint = this.end): StoredEvent[] {
    const visible = this.visible(visibleEnd);
    let lo = 0;
    let hi = visible.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (visible[mid]!.position <= position) lo = mid + 1;
      else hi = mid;
    }
    return visible.slice(lo, lo + count);
  }

  /** Records before `visibleEnd` (a stale follower sees a prefix of the log). */
  private visible(visibleEnd: bigint): readonly StoredEvent[] {
    if (visibleEnd >= this.end) return this.records;
    let n = this.records.length;
    while (n > 0 && this.records[n - 1]!.position >= visibleEnd) n--;
    return this.records.slice(0, n);
  }

  /** The index of the record starting at `position`; the end of the visible log is valid too. */
  private indexAt(position: bigint, visible: readonly StoredEvent[]): number {
    const end = visible === this.records ? this.end : (this.records[visible.length]?.position ?? this.end);
    if (position >= end) return visible.length;
    let lo = 0;
    let hi = visible.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = visible[mid]!.position;
      if (at === position) return mid;
      if (at < position) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new InvalidPositionError(position);
  }

  private deleteExpectationHolds(expected: Expected, current: bigint): boolean {
    if (expected === 'any') return true;
    if (expected === 'no_stream') return current < 0n;
    if (expected === 'stream_exists') return current >= 0n;
    return expected === current;
  }

  private wrong(current: bigint): AppendOutcome {
    return { kind: 'wrong-expected-version', current };
  }

  /** `any`/`stream_exists`: is this append a retry of events already in this stream (its first id there)? */
  private replayAnywhere(streamId: string, events: readonly ProposedEvent[]): AppendOutcome | null {
    const first = this.ids.get(events[0]!.id);
    if (!first || first.streamId !== streamId) return null;
    const stream = this.streams.get(streamId)!;
    let last = first;
    for (const [i, e] of events.entries()) {
      const at = stream.events.find((s) => s.revision === first.revision + BigInt(i));
      if (!at || at.id !== e.id) return this.wrong(stream.lastRevision);
      last = at;
    }
    return { kind: 'success', lastRevision: last.revision, position: last.position };
  }

  /** A numbered expectation below the head: the ids right after `after`, or not a retry at all. */
  private replayAt(
    stream: Stream,
    after: bigint,
    events: readonly ProposedEvent[],
  ): AppendOutcome | 'not-a-retry' {
    let last: StoredEvent | undefined;
    for (const [i, e] of events.entries()) {
      const at = stream.events.find((s) => s.revision === after + 1n + BigInt(i));
      if (!at || at.id !== e.id) return i === 0 ? 'not-a-retry' : this.wrong(stream.lastRevision);
      last = at;
    }
    return { kind: 'success', lastRevision: last!.revision, position: last!.position };
  }

  private streamOf(streamId: string): Stream {
    let stream = this.streams.get(streamId);
    if (!stream) {
      stream = { events: [], lastRevision: -1n, truncateBefore: null, tombstoned: false };
      this.streams.set(streamId, stream);
    }
    return stream;
  }

  private write(streamId: string, events: readonly ProposedEvent[]): AppendOutcome {
    const stream = this.streamOf(streamId);
    const undelete = stream.truncateBefore === DELETED_STREAM;
    const written = events.map((e) => this.record(streamId, stream.lastRevision + 1n, e));
    if (undelete) {
      // The metadata is rewritten with $tb at the first new event (StorageWriterService.cs `SoftUndeleteStream`).
      stream.truncateBefore = written[0]!.revision;
      written.push(this.recordSystem(`$$${streamId}`, '$metadata', `{"$tb":${written[0]!.revision}}`));
    }
    this.appends += 1;
    if (this.statsEvery > 0 && this.appends % this.statsEvery === 0)
      written.push(
        this.recordSystem('$stats-127.0.0.1:2113', '$statsCollected', `{"appends":${this.appends}}`),
      );
    this.emit(written);
    const last = written.filter((e) => e.streamId === streamId).at(-1)!;
    return { kind: 'success', lastRevision: last.revision, position: last.position };
  }

  /** A system event with its JSON data (as text: `$tb` is a 64-bit number). */
  private writeSystem(streamId: string, type: string, json: string): StoredEvent {
    const record = this.recordSystem(streamId, type, json);
    this.emit([record]);
    return record;
  }

  private recordSystem(streamId: string, type: string, json: string): StoredEvent {
    const stream = this.streamOf(streamId);
    return this.record(streamId, stream.lastRevision + 1n, {
      id: crypto.randomUUID(),
      type,
      contentType: 'application/json',
      data: utf8.encode(json),
      metadata: new Uint8Array(),
    });
  }

  private record(streamId: string, revision: bigint, e: ProposedEvent): StoredEvent {
    const stream = this.streamOf(streamId);
    const record: StoredEvent = {
      position: this.end,
      streamId,
      revision,
      id: e.id.toLowerCase(),
      type: e.type,
      contentType: e.contentType,
      data: e.data,
      metadata: e.metadata,
      created: this.now(),
    };
    this.end += BigInt(recordSize(streamId, e.type, e.data, e.metadata));
    this.records.push(record);
    stream.events.push(record);
    if (revision !== DELETED_STREAM) stream.lastRevision = revision;
    if (!this.ids.has(record.id)) this.ids.set(record.id, record);
    return record;
  }

  private emit(records: readonly StoredEvent[]): void {
    for (const record of records) for (const listener of this.listeners) listener(record);
  }
}
