// The event-store port: what the service writes through and projections read from. Every adapter
// (memory, SQLite, EventStoreDB) implements `EventStore` and passes the one contract suite in
// `src/testing/contract.ts`.

/** What the caller expects the stream's last revision to be before the append. */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export interface EventMetadata {
  /** Version of the event's `data` shape (1, 2, ...); upcasters turn older versions into the current one. */
  readonly schemaVersion: number;
  readonly commandId?: string;
  readonly correlationId?: string;
  readonly causationId?: string;
  readonly actor?: string;
  /** Top-level keys whose value is `undefined` are dropped; keys starting with `$` are reserved. */
  readonly [key: string]: JsonValue | undefined;
}

export interface NewEvent {
  /** A UUID (any version, either case; stored lower-case). Re-appending the same ids at the same place is a no-op. */
  readonly id: string;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  readonly streamName: string;
  /** 0n for the first event of a stream. */
  readonly streamRevision: bigint;
  /** Strictly increasing in global (`readAll`) order. */
  readonly globalPosition: bigint;
  /** ISO-8601 time the store recorded the event (not covered by the hash). */
  readonly recordedAt: string;
  /** `hash` of the previous event of the stream, or `GENESIS_HASH` for revision 0. */
  readonly prevHash: string;
  /** `computeEventHash` of the stored event: hex SHA-256. */
  readonly hash: string;
}

export interface AppendResult {
  /** The stream's revision after the append: pass it as `expectedRevision` next time. */
  readonly nextExpectedRevision: bigint;
  /** Global position of the last event of the append. */
  readonly position: bigint;
}

export interface AppendOptions {
  /** Defaults to `'any'`. */
  expectedRevision?: ExpectedRevision;
}

export interface ReadStreamOptions {
  /** Defaults to `'start'` forwards and `'end'` backwards. Inclusive. */
  fromRevision?: bigint | 'start' | 'end';
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface ReadAllOptions {
  /**
   * Exclusive: events AFTER this position; omit (or 0n) to read from the start. Otherwise it must be the
   * `globalPosition` of an event this store returned: positions are not contiguous in every store (EventStoreDB's
   * are byte offsets, and it reads `$all` only from where a record starts), so never compute one (`position - 1n`).
   * A position that is not an event's is refused (`INVALID_OPTIONS`) where the store can tell.
   */
  fromPosition?: bigint;
  /** Read the event at `fromPosition` too, first (e.g. to check that a position noted earlier is still that event's). */
  inclusive?: boolean;
  maxCount?: number;
}

export interface SubscribeToAllOptions {
  /**
   * Exclusive checkpoint: the subscription delivers events AFTER this position; omit for the start. As for
   * `readAll`, the position of an event the store returned, never a computed one.
   */
  fromPosition?: bigint;
}

export interface Subscription extends AsyncIterable<RecordedEvent> {
  /** Ends the iteration (a pending `next()` resolves as done) and releases timers/connections. */
  close(): Promise<void>;
}

export interface StreamVerification {
  readonly ok: boolean;
  /** Events whose chain links were checked. */
  readonly checked: number;
  /** Hash of the last stored event, or null for an empty stream. Keep it outside the store to catch rewrites. */
  readonly headHash: string | null;
  readonly firstBad?: {
    readonly streamRevision: bigint;
    readonly globalPosition: bigint;
    readonly reason: string;
  };
  /** Why verification failed when no single event can be named (e.g. a noted head hash is not in the chain). */
  readonly reason?: string;
}

export interface VerifyStreamOptions {
  /** A head hash noted earlier (e.g. printed by `verify`): it must still be in the chain. */
  expectedHeadHash?: string;
  /** The revision that head hash was noted at; when given, the event at that revision must carry it. */
  expectedHeadRevision?: bigint;
}

export interface StreamHead {
  revision: bigint;
  hash: string;
}

export interface EventStore {
  appendToStream(stream: string, events: readonly NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  /** An unknown stream reads as empty. */
  readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>;
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>;
  /** Catches up from the checkpoint, then goes live: global order, no gap, no duplicate. */
  subscribeToAll(options?: SubscribeToAllOptions): Subscription;
  streamHead(stream: string): Promise<StreamHead | null>;
  /** The global position of the newest event in the store (null when empty): where a live-only reader starts. */
  headPosition(): Promise<bigint | null>;
  /** Walks the stored (not upcast) chain and names the first event that does not match. */
  verifyStream(stream: string, options?: VerifyStreamOptions): Promise<StreamVerification>;
  close(): Promise<void>;
}
