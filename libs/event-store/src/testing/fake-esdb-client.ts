// An in-memory stand-in for @eventstore/db-client's EventStoreDBClient, for testing the EventStoreDB
// adapter's own logic (chaining, expected revisions, retries, filtering, mapping) without a server. It models
// what the adapter relies on, strictly where that is cheap:
// - appendToStream: expected revision 'any' | 'no_stream' | 'stream_exists' | bigint, WrongExpectedVersionError;
//   events are stored as JSON text and come back parsed, as over the wire;
// - readStream: StreamNotFoundError on iteration for a missing stream; START/END/bigint, both directions;
// - readAll: from 'start' or a record's exact position (inclusive), and refuses a position where no record starts;
// - subscribeToAll: from 'start' or a record's exact position (exclusive), catch-up then live, honouring the
//   event-type regex filter; system events ($-prefixed) are mixed into $all as on a real server.
// It is NOT the server: the contract suite runs through the real client over gRPC against the stand-in
// (tools/esdb-standin), or a real server when EVENTSTORE_CONNECTION_STRING is set (eventstoredb.int.spec.ts).
import {
  type AppendExpectedRevision,
  type AppendResult,
  type EventData,
  type Position,
  StreamNotFoundError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type { EsdbClientLike } from '../eventstoredb';

interface Stored {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: string;
  metadata: string;
  created: Date;
  position: Position;
}

type ReadFrom = 'start' | 'end' | Position;

interface LiveState {
  index: number;
  typeFilter: RegExp | null;
  stopped: boolean;
  wake: (() => void) | null;
}

export class FakeEsdbClient implements EsdbClientLike {
  private readonly all: Stored[] = [];
  private readonly streams = new Map<string, Stored[]>();
  private readonly listeners = new Set<() => void>();
  private nextPosition = 1_000n;
  disposed = false;

  constructor() {
    this.write('$stats-127.0.0.1:2113', [
      { id: crypto.randomUUID(), type: '$statsCollected', data: {}, metadata: {} },
    ]);
  }

  async appendToStream(
    streamName: string,
    events: EventData | EventData[],
    options: { expectedRevision?: AppendExpectedRevision } = {},
  ): Promise<AppendResult> {
    const list = Array.isArray(events) ? events : [events];
    await Promise.resolve(); // a network round trip's worth of interleaving; the check and write below are atomic
    const expected = options.expectedRevision ?? 'any';
    const current = this.streams.get(streamName);
    const actual = current && current.length > 0 ? BigInt(current.length - 1) : 'no_stream';
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && actual === 'no_stream') ||
      (expected === 'stream_exists' && actual !== 'no_stream') ||
      (typeof expected === 'bigint' && actual === expected);
    if (!ok) throw new WrongExpectedVersionError(undefined, { streamName, expected, current: actual });
    const written = this.write(
      streamName,
      list.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
    );
    const last = written[written.length - 1];
    // Mixed in as on a live server: a system event between appends.
    if (this.all.length % 7 === 0)
      this.write('$stats-127.0.0.1:2113', [
        { id: crypto.randomUUID(), type: '$statsCollected', data: {}, metadata: {} },
      ]);
    return { success: true, nextExpectedRevision: last ? last.revision : -1n, position: last?.position };
  }

  readStream(
    streamName: string,
    options: {
      fromRevision?: 'start' | 'end' | bigint;
      direction?: 'forwards' | 'backwards';
      maxCount?: number | bigint;
    } = {},
  ) {
    return readable(this.streamEvents(streamName, options));
  }

  readAll(
    options: {
      fromPosition?: ReadFrom;
      direction?: 'forwards' | 'backwards';
      maxCount?: number | bigint;
    } = {},
  ) {
    if (options.direction === 'backwards') {
      if ((options.fromPosition ?? 'end') !== 'end')
        throw new Error('fake: backwards $all reads start at the end');
      return readable(this.allEventsBackwards(Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)));
    }
    const start = this.startIndex(options.fromPosition ?? 'start', true);
    return readable(this.allEvents(start, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)));
  }

  subscribeToAll(options: { fromPosition?: ReadFrom; filter?: { regex?: string; filterOn?: string } } = {}) {
    const { regex, filterOn } = options.filter ?? {};
    const state: LiveState = {
      index: this.startIndex(options.fromPosition ?? 'start', false),
      typeFilter: regex && filterOn === 'eventType' ? new RegExp(regex) : null,
      stopped: false,
      wake: null,
    };
    const iterator = this.liveEvents(state);
    return {
      [Symbol.asyncIterator]: () => iterator,
      unsubscribe: async () => {
        state.stopped = true;
        state.wake?.();
        await iterator.return(undefined);
      },
    };
  }

  private async *streamEvents(
    streamName: string,
    options: {
      fromRevision?: 'start' | 'end' | bigint;
      direction?: 'forwards' | 'backwards';
      maxCount?: number | bigint;
    },
  ) {
    const rows = this.streams.get(streamName);
    if (!rows) throw new StreamNotFoundError(undefined, streamName);
    const from = options.fromRevision ?? 'start';
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    let selected: Stored[];
    if ((options.direction ?? 'forwards') === 'forwards') {
      const start = from === 'start' ? 0 : from === 'end' ? rows.length : Number(from);
      selected = rows.slice(start, start + max);
    } else {
      const top =
        from === 'end' ? rows.length - 1 : from === 'start' ? 0 : Math.min(Number(from), rows.length - 1);
      selected = rows.slice(Math.max(0, top + 1 - max), top + 1).reverse();
    }
    for (const row of selected) yield { event: this.toEvent(row) };
  }

  private async *allEventsBackwards(max: number) {
    for (const row of this.all.slice(-max).reverse()) {
      yield { event: this.toEvent(row), commitPosition: row.position.commit };
    }
  }

  private async *allEvents(start: number, max: number) {
    for (const row of this.all.slice(start, start + max)) {
      yield { event: this.toEvent(row), commitPosition: row.position.commit };
    }
  }

  private async *liveEvents(state: LiveState) {
    const listener = (): void => state.wake?.();
    this.listeners.add(listener);
    try {
      while (!state.stopped) {
        const row = this.all[state.index];
        if (!row) {
          await new Promise<void>((resolve) => (state.wake = resolve));
          state.wake = null;
          continue;
        }
        state.index += 1;
        if (state.typeFilter && !state.typeFilter.test(row.type)) continue;
        yield { event: this.toEvent(row), commitPosition: row.position.commit };
      }
    } finally {
      this.listeners.delete(listener);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  private write(
    streamName: string,
    events: Array<{ id: string; type: string; data: unknown; metadata: unknown }>,
  ): Stored[] {
    let stream = this.streams.get(streamName);
    if (!stream) {
      stream = [];
      this.streams.set(streamName, stream);
    }
    const written: Stored[] = [];
    for (const e of events) {
      const data = JSON.stringify(e.data);
      const metadata = JSON.stringify(e.metadata ?? {});
      const row: Stored = {
        streamId: streamName,
        id: e.id,
        revision: BigInt(stream.length),
        type: e.type,
        data,
        metadata,
        created: new Date(),
        position: { commit: this.nextPosition, prepare: this.nextPosition },
      };
      this.nextPosition += 100n + BigInt(data.length + metadata.length); // positions are log offsets: sparse
      stream.push(row);
      this.all.push(row);
      written.push(row);
    }
    for (const listener of this.listeners) listener();
    return written;
  }

  private startIndex(from: ReadFrom, inclusive: boolean): number {
    if (from === 'start') return 0;
    if (from === 'end') return this.all.length;
    const index = this.all.findIndex(
      (row) => row.position.commit === from.commit && row.position.prepare === from.prepare,
    );
    if (index < 0)
      throw new UnknownError(undefined, `fake: no record starts at position ${from.commit}/${from.prepare}`);
    return inclusive ? index : index + 1;
  }

  private toEvent(row: Stored) {
    return {
      streamId: row.streamId,
      id: row.id,
      revision: row.revision,
      type: row.type,
      isJson: true as const,
      created: row.created,
      data: JSON.parse(row.data) as unknown,
      metadata: JSON.parse(row.metadata) as unknown,
      position: row.position,
    };
  }
}

/** An async iterable with the client's `cancel()`. */
function readable<T>(iterator: AsyncGenerator<T>): AsyncIterable<T> & { cancel(): Promise<void> } {
  return {
    [Symbol.asyncIterator]: () => iterator,
    cancel: async () => {
      await iterator.return(undefined);
    },
  };
}
