// The EventStoreDB (and KurrentDB) adapter over @eventstore/db-client 6. The client is loaded on first use
// (it pulls in gRPC), so processes on the SQLite store never pay for it.
//
// Chain: to append, the adapter reads the stream's head from the leader, chains the new events onto its hash, and
// appends with that exact revision as the expected revision; when another writer got there first (the server
// answers WrongExpectedVersion) it re-reads and retries a bounded number of times, so the chain never forks. An
// append whose answer is lost is found out before it is answered (eventstoredb-append.ts); every read has a
// deadline, and those that decide a write go to the leader (eventstoredb-reads.ts).
import type * as Esdb from '@eventstore/db-client';
import { verifyChain } from './core';
import { EventStoreInputError, EventStoreUnavailableError } from './errors';
import { chained, EsdbAppender } from './eventstoredb-append';
import {
  type EsdbRecordedLike,
  isInvalidPosition,
  isSystemEvent,
  mapClientError,
  readPositionFor,
  toChainLink,
  toRecordedEvent,
} from './eventstoredb-mapping';
import { allRecords, type EsdbClientLike, EsdbStreamReads } from './eventstoredb-reads';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamHead,
  StreamVerification,
  SubscribeToAllOptions,
  Subscription,
  VerifyStreamOptions,
} from './types';
import type { UpcasterRegistry } from './upcasting';
import {
  normalizePosition,
  normalizeReadAllOptions,
  normalizeReadStreamOptions,
  prepareEvents,
  validateExpectedRevision,
  validateStreamName,
} from './validation';

export type { EsdbClientLike };

export interface EventStoreDbConfig {
  /** e.g. `esdb://localhost:2113?tls=false` (single node) or `esdb+discover://...` (cluster). */
  connectionString: string;
  upcasters?: UpcasterRegistry;
  /** How often an append re-reads the head after losing a race (default 8). */
  maxAppendAttempts?: number;
  /** A read the server does not answer for this long fails with STORE_UNAVAILABLE (default 10,000 ms). */
  readTimeoutMs?: number;
  /** An append the server does not answer in this long has an unknown outcome, found out then (default 10,000 ms). */
  appendTimeoutMs?: number;
  /**
   * The server's MaxAppendSize in bytes (EventStoreDB's default is 1 MiB), when known: a larger append, measured as
   * the server measures it, is refused before it is sent (APPEND_TOO_LARGE). Default: unknown until the server's
   * first refusal, which names it; so a server whose limit was raised needs no setting here.
   */
  maxAppendSize?: number;
  /** How often an append whose answer was lost is looked for and sent again (default 3). */
  outcomeAttempts?: number;
  /** Makes the client (tests pass a fake); default `EventStoreDBClient.connectionString`. */
  createClient?: (connectionString: string) => EsdbClientLike;
}

type Client = EsdbClientLike;
interface LiveState {
  closed: boolean;
  upstream: { unsubscribe(): Promise<void> } | null;
}
type Lib = typeof Esdb;

export const DEFAULT_ESDB_READ_TIMEOUT_MS = 10_000;

export class EventStoreDbEventStore implements EventStore {
  private libPromise: Promise<Lib> | null = null;
  private clientPromise: Promise<Client> | null = null;
  private readonly subscriptions = new Set<Subscription>();
  /** The last append queued per stream: this process's appends to a stream run one at a time. */
  private readonly streamTurns = new Map<string, Promise<unknown>>();
  private closed = false;
  private readonly readTimeoutMs: number;
  private readonly reads: EsdbStreamReads;
  private readonly appender: EsdbAppender;

  constructor(private readonly config: EventStoreDbConfig) {
    if (
      typeof config.connectionString !== 'string' ||
      !/^esdb(\+discover)?:\/\//.test(config.connectionString)
    ) {
      throw new EventStoreUnavailableError(
        'STORE_UNAVAILABLE',
        'EVENTSTORE_CONNECTION_STRING must be an esdb:// or esdb+discover:// connection string',
      );
    }
    this.readTimeoutMs = config.readTimeoutMs ?? DEFAULT_ESDB_READ_TIMEOUT_MS;
    this.reads = new EsdbStreamReads(async () => (await this.connect()).client, this.readTimeoutMs);
    this.appender = new EsdbAppender(
      this.reads,
      {
        maxAppendAttempts: Math.max(1, config.maxAppendAttempts ?? 8),
        appendTimeoutMs: config.appendTimeoutMs ?? DEFAULT_ESDB_READ_TIMEOUT_MS,
        outcomeAttempts: Math.max(1, config.outcomeAttempts ?? 3),
      },
      config.maxAppendSize ?? null,
    );
  }

  /**
   * The size of appending `events` to `stream` as EventStoreDB counts it against its MaxAppendSize (data, metadata
   * with the chain's fields, twice the type's length): what this adapter checks before it sends an append.
   */
  static appendSize(stream: string, events: readonly NewEvent[]): number {
    return chained(validateStreamName(stream), null, prepareEvents(events)).size;
  }

  async appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    validateStreamName(stream);
    const expected = validateExpectedRevision(options.expectedRevision);
    const prepared = prepareEvents(events);
    // Appends to one stream from this process take turns, so they never race each other; a race with
    // another process is retried by the appender.
    return this.exclusive(stream, async () => {
      const { client, lib } = await this.connect();
      return this.appender.append(client, lib, stream, prepared, expected);
    });
  }

  async *readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    validateStreamName(stream);
    const { fromRevision, direction, maxCount } = normalizeReadStreamOptions(options);
    if (maxCount === 0) return;
    for await (const event of this.reads.raw(stream, fromRevision, direction, maxCount)) {
      yield this.upcast(toRecordedEvent(event));
    }
  }

  async *readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    const { fromPosition, maxCount, inclusive } = normalizeReadAllOptions(options);
    if (maxCount === 0) return;
    const { client } = await this.connect();
    let delivered = 0;
    const read = allRecords(
      client,
      readPositionFor(fromPosition),
      'forwards',
      () => maxCount - delivered,
      this.readTimeoutMs,
      'a read of $all',
    );
    try {
      for await (const event of read) {
        if (isSystemEvent(event) || !event.isJson) continue;
        const recorded = toRecordedEvent(event);
        // The server reads from a position inclusively: the event there is the caller's only with `inclusive`.
        if (
          recorded.globalPosition < fromPosition ||
          (!inclusive && recorded.globalPosition === fromPosition)
        )
          continue;
        yield this.upcast(recorded);
        if (++delivered >= maxCount) return;
      }
    } catch (error) {
      throw readAllError(error, fromPosition);
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    const state: LiveState = { closed: false, upstream: null };
    const iterator = this.live(normalizePosition(options.fromPosition), state);
    const subscription: Subscription = {
      [Symbol.asyncIterator]: () => iterator,
      close: async () => {
        if (state.closed) return;
        state.closed = true;
        this.subscriptions.delete(subscription);
        await state.upstream?.unsubscribe().catch(() => undefined);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private async *live(from: bigint, state: LiveState): AsyncGenerator<RecordedEvent, void, undefined> {
    if (state.closed) return;
    const { client, lib } = await this.connect();
    if (state.closed) return;
    const upstream = client.subscribeToAll({
      fromPosition: readPositionFor(from),
      filter: lib.excludeSystemEvents(),
    });
    state.upstream = upstream;
    let last = from;
    try {
      for await (const resolved of upstream) {
        if (state.closed) return;
        const event = resolved.event as EsdbRecordedLike | undefined;
        if (!event || isSystemEvent(event) || !event.isJson) continue;
        const recorded = toRecordedEvent(event);
        if (recorded.globalPosition <= last) continue; // never deliver twice across a reconnect
        last = recorded.globalPosition;
        yield this.upcast(recorded);
      }
    } catch (error) {
      if (!state.closed) throw readAllError(error, from);
    } finally {
      await upstream.unsubscribe().catch(() => undefined);
    }
  }

  async streamHead(stream: string): Promise<StreamHead | null> {
    validateStreamName(stream);
    const [newest] = await this.reads.tail(stream, 1);
    return newest ? { revision: newest.revision, hash: newest.hash } : null;
  }

  async headPosition(): Promise<bigint | null> {
    const { client } = await this.connect();
    const end = 'end' as Esdb.ReadPosition;
    const read = allRecords(
      client,
      end,
      'backwards',
      () => 1,
      this.readTimeoutMs,
      'a read of the end of $all',
    );
    try {
      for await (const event of read) {
        if (isSystemEvent(event) || !event.isJson) continue;
        return toRecordedEvent(event).globalPosition;
      }
      return null;
    } catch (error) {
      throw mapClientError(error, null, 'any');
    }
  }

  async verifyStream(stream: string, options?: VerifyStreamOptions): Promise<StreamVerification> {
    validateStreamName(stream);
    const links = (async function* (raw: AsyncIterable<EsdbRecordedLike>) {
      for await (const event of raw) yield toChainLink(event);
    })(this.reads.raw(stream, 'start', 'forwards', Number.MAX_SAFE_INTEGER));
    return verifyChain(links, options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    if (this.clientPromise) {
      const client = await this.clientPromise.catch(() => null);
      await client?.dispose();
    }
  }

  private exclusive<T>(stream: string, run: () => Promise<T>): Promise<T> {
    const previous = this.streamTurns.get(stream) ?? Promise.resolve();
    const current = previous.then(run);
    const turn = current.catch(() => undefined);
    this.streamTurns.set(stream, turn);
    void turn.then(() => {
      if (this.streamTurns.get(stream) === turn) this.streamTurns.delete(stream);
    });
    return current;
  }

  private upcast(event: RecordedEvent): RecordedEvent {
    return this.config.upcasters ? this.config.upcasters.upcast(event) : event;
  }

  private async connect(): Promise<{ client: Client; lib: Lib }> {
    this.assertOpen();
    this.libPromise ??= import('@eventstore/db-client');
    const lib = await this.libPromise;
    const { connectionString, createClient } = this.config;
    this.clientPromise ??= Promise.resolve().then(() =>
      createClient
        ? createClient(connectionString)
        : lib.EventStoreDBClient.connectionString(connectionString),
    );
    try {
      return { client: await this.clientPromise, lib };
    } catch (error) {
      this.clientPromise = null;
      throw new EventStoreUnavailableError(
        'STORE_UNAVAILABLE',
        `Cannot use EVENTSTORE_CONNECTION_STRING: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreUnavailableError('STORE_CLOSED', 'The event store is closed');
  }
}

/** A `$all` read's error: a position where no event starts is the caller's mistake, anything else the store's. */
function readAllError(error: unknown, from: bigint): Error {
  if (isInvalidPosition(error))
    return new EventStoreInputError(
      'INVALID_OPTIONS',
      `fromPosition ${from} is not the position of an event in this EventStoreDB (it reads $all only from where ` +
        `a record starts): pass a globalPosition the store returned, never a computed one`,
    );
  return mapClientError(error, null, 'any');
}
