// The EventStoreDB (and KurrentDB) adapter over @eventstore/db-client 6. The client is loaded on first use
// (it pulls in gRPC), so processes on the SQLite store never pay for it.
//
// Chain: to append, the adapter reads the stream's head, chains the new events onto its hash, and appends
// with that exact revision as the expected revision; when another writer got there first (the server
// answers WrongExpectedVersion) it re-reads and retries a bounded number of times, so the chain never forks.
import type * as Esdb from '@eventstore/db-client';
import {
  type ChainLink,
  chainRows,
  expectedRevisionMatches,
  type Head,
  lastOf,
  matchReplay,
  replayPlace,
  type StoredShape,
  verifyChain,
} from './core';
import {
  concreteExpectedRevision,
  type EsdbRecordedLike,
  globalPositionOf,
  isSystemEvent,
  mapClientError,
  packMetadata,
  readPositionFor,
  toChainLink,
  toRecordedEvent,
} from './eventstoredb-mapping';
import { EventStoreUnavailableError, WrongExpectedVersionError } from './errors';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  JsonValue,
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
  type PreparedEvent,
  prepareEvents,
  validateExpectedRevision,
  validateStreamName,
} from './validation';

export interface EventStoreDbConfig {
  /** e.g. `esdb://localhost:2113?tls=false` (single node) or `esdb+discover://...` (cluster). */
  connectionString: string;
  upcasters?: UpcasterRegistry;
  /** How often an append re-reads the head after losing a race (default 8). */
  maxAppendAttempts?: number;
  /** Makes the client (tests pass a fake); default `EventStoreDBClient.connectionString`. */
  createClient?: (connectionString: string) => EsdbClientLike;
}

type Read = AsyncIterable<{ event?: unknown }>;

/** The part of @eventstore/db-client's `EventStoreDBClient` this adapter uses. */
export interface EsdbClientLike {
  appendToStream(
    stream: string,
    events: Esdb.EventData[],
    options: { expectedRevision: Esdb.AppendExpectedRevision },
  ): Promise<unknown>;
  readStream(
    stream: string,
    options: { fromRevision: Esdb.ReadRevision; direction: Esdb.Direction; maxCount: bigint },
  ): Read & { cancel(): Promise<void> };
  readAll(options: {
    fromPosition: Esdb.ReadPosition;
    direction: Esdb.Direction;
  }): Read & { cancel(): Promise<void> };
  subscribeToAll(options: { fromPosition: Esdb.ReadPosition; filter: Esdb.Filter }): Read & {
    unsubscribe(): Promise<void>;
  };
  dispose(): Promise<void>;
}

type Client = EsdbClientLike;
interface LiveState {
  closed: boolean;
  upstream: { unsubscribe(): Promise<void> } | null;
}
type Lib = typeof Esdb;

export class EventStoreDbEventStore implements EventStore {
  private libPromise: Promise<Lib> | null = null;
  private clientPromise: Promise<Client> | null = null;
  private readonly subscriptions = new Set<Subscription>();
  /** The last append queued per stream: this process's appends to a stream run one at a time. */
  private readonly streamTurns = new Map<string, Promise<unknown>>();
  private closed = false;

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
    // another process is retried below.
    return this.exclusive(stream, () => this.appendChained(stream, prepared, expected));
  }

  private async appendChained(
    stream: string,
    prepared: PreparedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const { client, lib } = await this.connect();
    const attempts = Math.max(1, this.config.maxAppendAttempts ?? 8);
    let head: Head | null = null;
    for (let attempt = 0; attempt < attempts; attempt++) {
      // One read gives the head and, for 'any'/'stream_exists', the tail a retried append would match.
      const tail = await this.tail(stream, prepared.length);
      const newest = tail[tail.length - 1];
      head = newest ? { revision: newest.revision, hash: newest.hash } : null;
      if (!expectedRevisionMatches(expected, head)) {
        const place = replayPlace(expected);
        if (place !== null) {
          const replay = matchReplay(stream, await this.shapes(stream, place, prepared.length), prepared);
          if (replay) return replay;
        }
        throw new WrongExpectedVersionError(stream, expected, head ? head.revision : 'no_stream');
      }
      if ((expected === 'any' || expected === 'stream_exists') && tail.length === prepared.length) {
        const replay = matchReplay(stream, tail, prepared); // a retry of the stream's latest append: no-op
        if (replay) return replay;
      }
      const rows = chainRows(stream, head, prepared, '');
      const toWrite = rows.map((row) =>
        lib.jsonEvent({
          id: row.id,
          type: row.type,
          data: JSON.parse(row.dataJson) as Esdb.JSONType,
          metadata: packMetadata(
            JSON.parse(row.metadataJson) as { [k: string]: JsonValue },
            row.prevHash,
            row.hash,
          ),
        }),
      );
      try {
        await client.appendToStream(stream, toWrite, { expectedRevision: concreteExpectedRevision(head) });
      } catch (error) {
        if ((error as { type?: unknown }).type === 'wrong-expected-version') {
          // Another process appended first: back off a little, re-read the head and try again.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
          continue;
        }
        throw mapClientError(error, stream, expected);
      }
      const last = lastOf(rows);
      const [written] = await this.shapes(stream, last.revision, 1);
      if (!written)
        throw new EventStoreUnavailableError(
          'STORE_UNAVAILABLE',
          `Appended to '${stream}' but cannot read it back`,
        );
      return { nextExpectedRevision: last.revision, position: written.globalPosition };
    }
    throw new WrongExpectedVersionError(stream, expected, head ? head.revision : 'no_stream');
  }

  async *readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    validateStreamName(stream);
    const { fromRevision, direction, maxCount } = normalizeReadStreamOptions(options);
    if (maxCount === 0) return;
    for await (const event of this.rawStream(stream, fromRevision, direction, maxCount)) {
      yield this.upcast(toRecordedEvent(event));
    }
  }

  async *readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    const { fromPosition, maxCount } = normalizeReadAllOptions(options);
    if (maxCount === 0) return;
    const { client } = await this.connect();
    let delivered = 0;
    const read = client.readAll({ fromPosition: readPositionFor(fromPosition), direction: 'forwards' });
    try {
      for await (const resolved of read) {
        const event = resolved.event as EsdbRecordedLike | undefined;
        if (!event || isSystemEvent(event) || !event.isJson) continue;
        const recorded = toRecordedEvent(event);
        if (recorded.globalPosition <= fromPosition) continue; // the client's start position is inclusive
        yield this.upcast(recorded);
        if (++delivered >= maxCount) return;
      }
    } catch (error) {
      throw mapClientError(error, null, 'any');
    } finally {
      await read.cancel().catch(() => undefined);
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
      if (!state.closed) throw mapClientError(error, null, 'any');
    } finally {
      await upstream.unsubscribe().catch(() => undefined);
    }
  }

  async streamHead(stream: string): Promise<StreamHead | null> {
    validateStreamName(stream);
    return this.head(stream);
  }

  async headPosition(): Promise<bigint | null> {
    const { client } = await this.connect();
    const read = client.readAll({ fromPosition: 'end' as Esdb.ReadPosition, direction: 'backwards' });
    try {
      for await (const resolved of read) {
        const event = resolved.event as EsdbRecordedLike | undefined;
        if (!event || isSystemEvent(event) || !event.isJson) continue;
        return toRecordedEvent(event).globalPosition;
      }
      return null;
    } finally {
      await read.cancel();
    }
  }

  async verifyStream(stream: string, options?: VerifyStreamOptions): Promise<StreamVerification> {
    validateStreamName(stream);
    const links = (async function* (raw: AsyncIterable<EsdbRecordedLike>) {
      for await (const event of raw) yield toChainLink(event);
    })(this.rawStream(stream, 'start', 'forwards', Number.MAX_SAFE_INTEGER));
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

  private async head(stream: string): Promise<Head | null> {
    const [newest] = await this.tail(stream, 1);
    return newest ? { revision: newest.revision, hash: newest.hash } : null;
  }

  /** The comparable shapes of up to `count` stored events from `from` forwards. */
  private async shapes(stream: string, from: bigint, count: number): Promise<Array<StoredShape & ChainLink>> {
    const out: Array<StoredShape & ChainLink> = [];
    for await (const event of this.rawStream(stream, from, 'forwards', count)) out.push(this.shape(event));
    return out;
  }

  /** The last `count` stored events (or fewer), oldest first. */
  private async tail(stream: string, count: number): Promise<Array<StoredShape & ChainLink>> {
    const out: Array<StoredShape & ChainLink> = [];
    for await (const event of this.rawStream(stream, 'end', 'backwards', count))
      out.unshift(this.shape(event));
    return out;
  }

  private shape(event: EsdbRecordedLike): StoredShape & ChainLink {
    return { ...toChainLink(event), id: event.id, globalPosition: globalPositionOf(event) };
  }

  /** Stored events of a stream as the client returns them; an unknown stream is empty. */
  private async *rawStream(
    stream: string,
    fromRevision: bigint | 'start' | 'end',
    direction: 'forwards' | 'backwards',
    maxCount: number,
  ): AsyncGenerator<EsdbRecordedLike, void, undefined> {
    const { client } = await this.connect();
    const read = client.readStream(stream, { fromRevision, direction, maxCount: BigInt(maxCount) });
    try {
      for await (const resolved of read) {
        if (resolved.event) yield resolved.event as EsdbRecordedLike;
      }
    } catch (error) {
      if ((error as { type?: unknown }).type === 'stream-not-found') return;
      throw mapClientError(error, stream, 'any');
    } finally {
      await read.cancel().catch(() => undefined);
    }
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
