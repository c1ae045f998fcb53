// The EventStoreDB adapter's reads: every read has a deadline (the client gives reads none, so a server that takes
// the call and never answers would hang it, and /health with it), reads that decide or confirm a write go to the
// leader (a follower may not have replicated the newest writes), and the client's errors become the port's.
import type * as Esdb from '@eventstore/db-client';
import type { ChainLink, StoredShape } from './core';
import { EventStoreUnavailableError } from './errors';
import { type EsdbRecordedLike, globalPositionOf, mapClientError, toChainLink } from './eventstoredb-mapping';

type Read = AsyncIterable<{ event?: unknown }> & { cancel(): Promise<void> };

/** The part of @eventstore/db-client's `EventStoreDBClient` this adapter uses. */
export interface EsdbClientLike {
  appendToStream(
    stream: string,
    events: Esdb.EventData[],
    options: { expectedRevision: Esdb.AppendExpectedRevision },
  ): Promise<unknown>;
  readStream(
    stream: string,
    options: {
      fromRevision: Esdb.ReadRevision;
      direction: Esdb.Direction;
      maxCount: bigint;
      requiresLeader?: boolean;
    },
  ): Read;
  readAll(options: { fromPosition: Esdb.ReadPosition; direction: Esdb.Direction; maxCount: bigint }): Read;
  subscribeToAll(options: { fromPosition: Esdb.ReadPosition; filter: Esdb.Filter }): AsyncIterable<{
    event?: unknown;
  }> & {
    unsubscribe(): Promise<void>;
  };
  dispose(): Promise<void>;
}

/** How often a read refused by a follower or cut by a dropped connection is sent again. */
const READ_RETRIES = 3;

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const errorType = (error: unknown): unknown => (error as { type?: unknown } | null)?.type;

/**
 * A client read whose every answer must come within `ms`: one that does not is cancelled and fails with
 * STORE_UNAVAILABLE. Only the waits for the server count, not the time the consumer spends on each event.
 */
export async function* withDeadline<T>(
  read: AsyncIterable<T> & { cancel(): Promise<void> },
  ms: number,
  what: string,
) {
  const iterator = read[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const next = iterator.next();
      const answer = await Promise.race([
        next,
        new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms))),
      ]).finally(() => clearTimeout(timer));
      if (answer === 'late') {
        next.catch(() => undefined);
        throw new EventStoreUnavailableError(
          'STORE_UNAVAILABLE',
          `EventStoreDB did not answer ${what} within ${ms} ms`,
        );
      }
      if (answer.done) return;
      yield answer.value;
    }
  } finally {
    await read.cancel().catch(() => undefined);
    await iterator.return?.().catch(() => undefined);
  }
}

/** Records a `$all` read asks for beyond the events its caller still wants: room for the system records it skips. */
export const ALL_READ_MARGIN = 100;

const after = (a: Esdb.Position, b: Esdb.Position, direction: Esdb.Direction): boolean => {
  const order = a.commit === b.commit ? a.prepare - b.prepare : a.commit - b.commit;
  return direction === 'backwards' ? order < 0n : order > 0n;
};

/**
 * The records of `$all` from `start` (forwards: the record there first; backwards: those before it), read in pages
 * that each ask the server for the events the caller still `wants` and ALL_READ_MARGIN more: a read without a count
 * makes the server stream the rest of `$all` until the client cancels. A page of system records only (which callers
 * skip) is followed by the next, from the last record seen; a page shorter than asked is the end of the log. Each
 * page has the deadline `ms`.
 */
export async function* allRecords(
  client: EsdbClientLike,
  start: Esdb.ReadPosition,
  direction: Esdb.Direction,
  wants: () => number,
  ms: number,
  what: string,
): AsyncGenerator<EsdbRecordedLike, void, undefined> {
  let from = start;
  let last: Esdb.Position | undefined;
  for (;;) {
    const ask = Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, wants()) + ALL_READ_MARGIN);
    const read = client.readAll({ fromPosition: from, direction, maxCount: BigInt(ask) });
    let received = 0;
    let moved = false;
    for await (const resolved of withDeadline(read, ms, what)) {
      received++;
      const event = resolved.event as EsdbRecordedLike | undefined;
      const at = event?.position;
      // A next page starts at the record the last one ended on (forwards reads are inclusive): skip it.
      if (at && last && !after(at, last, direction)) continue;
      if (at) {
        last = at;
        moved = true;
      }
      if (event) yield event;
    }
    if (received < ask || !moved || !last) return;
    from = last;
  }
}

/** Stream reads from the leader, each with a deadline. */
export class EsdbStreamReads {
  constructor(
    private readonly client: () => Promise<EsdbClientLike>,
    private readonly readTimeoutMs: number,
  ) {}

  /**
   * Stored events of a stream as the client returns them, read from the leader; an unknown (or soft-deleted)
   * stream is empty. A follower's refusal (NotLeader) is retried, as is a call cut by a dropped connection.
   */
  async *raw(
    stream: string,
    fromRevision: bigint | 'start' | 'end',
    direction: 'forwards' | 'backwards',
    maxCount: number,
  ): AsyncGenerator<EsdbRecordedLike, void, undefined> {
    const client = await this.client();
    for (let attempt = 0; ; attempt++) {
      const read = client.readStream(stream, {
        fromRevision,
        direction,
        maxCount: BigInt(maxCount),
        requiresLeader: true,
      });
      let yielded = false;
      try {
        for await (const resolved of withDeadline(read, this.readTimeoutMs, `a read of '${stream}'`)) {
          if (!resolved.event) continue;
          yielded = true;
          yield resolved.event as EsdbRecordedLike;
        }
        return;
      } catch (error) {
        const type = errorType(error);
        if (type === 'stream-not-found') return;
        // A follower's refusal, or a call on a connection that dropped: the client reconnects (to the leader) for
        // the next call. Reads are safe to send again.
        if ((type === 'not-leader' || type === 'unavailable') && !yielded && attempt < READ_RETRIES) {
          await pause(10 * (attempt + 1));
          continue;
        }
        throw mapClientError(error, stream, 'any');
      }
    }
  }

  /** The comparable shapes of up to `count` stored events from `from` forwards. */
  async shapes(stream: string, from: bigint, count: number): Promise<Array<StoredShape & ChainLink>> {
    const out: Array<StoredShape & ChainLink> = [];
    for await (const event of this.raw(stream, from, 'forwards', count)) out.push(shape(event));
    return out;
  }

  /** The last `count` stored events (or fewer), oldest first. */
  async tail(stream: string, count: number): Promise<Array<StoredShape & ChainLink>> {
    const out: Array<StoredShape & ChainLink> = [];
    for await (const event of this.raw(stream, 'end', 'backwards', count)) out.unshift(shape(event));
    return out;
  }

  /**
   * Whether the stream's metadata truncates it (`$tb`): a soft-deleted stream reads as empty while the server
   * numbers its next event after the deleted ones, so Coup cannot chain onto it.
   */
  async truncated(stream: string): Promise<boolean> {
    for await (const event of this.raw(`$$${stream}`, 'end', 'backwards', 1)) {
      const metadata = event.data as { $tb?: unknown } | null;
      return typeof metadata === 'object' && metadata !== null && metadata.$tb !== undefined;
    }
    return false;
  }
}

export function shape(event: EsdbRecordedLike): StoredShape & ChainLink {
  return { ...toChainLink(event), id: event.id, globalPosition: globalPositionOf(event) };
}
