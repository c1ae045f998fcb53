// Pure mapping between the port and @eventstore/db-client 6 (no connection needed: unit-tested alone).
// The chain fields travel in the event's metadata under reserved `$coup.*` keys and are stripped on read.
import {
  EventStoreInputError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from './errors';
import { canonicalJson } from './hash';
import type { ChainLink } from './core';
import type { EventMetadata, ExpectedRevision, JsonValue, RecordedEvent } from './types';

export const PREV_HASH_KEY = '$coup.prevHash';
export const HASH_KEY = '$coup.hash';

/** The client's `Position`: a `$all` position. Coup's global position is its commit part. */
export interface EsdbPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

/** The fields of the client's `RecordedEvent` this adapter reads. */
export interface EsdbRecordedLike {
  readonly streamId: string;
  readonly id: string;
  readonly revision: bigint;
  readonly type: string;
  readonly isJson: boolean;
  readonly created: Date;
  readonly data: unknown;
  readonly metadata?: unknown;
  readonly position?: EsdbPosition;
}

/** The stored metadata: the event's own (canonical) metadata plus the chain fields. */
export function packMetadata(
  metadata: { [k: string]: JsonValue },
  prevHash: string,
  hash: string,
): { [k: string]: JsonValue } {
  return { ...metadata, [PREV_HASH_KEY]: prevHash, [HASH_KEY]: hash };
}

/** Splits stored metadata into the event's own metadata and the chain fields ('' when absent). */
export function unpackMetadata(stored: unknown): {
  metadata: { [k: string]: JsonValue };
  prevHash: string;
  hash: string;
} {
  const metadata: { [k: string]: JsonValue } = {};
  let prevHash = '';
  let hash = '';
  if (
    typeof stored === 'object' &&
    stored !== null &&
    !Array.isArray(stored) &&
    !(stored instanceof Uint8Array)
  ) {
    for (const [key, value] of Object.entries(stored as Record<string, JsonValue>)) {
      if (key === PREV_HASH_KEY) prevHash = typeof value === 'string' ? value : '';
      else if (key === HASH_KEY) hash = typeof value === 'string' ? value : '';
      else metadata[key] = value;
    }
  }
  return { metadata, prevHash, hash };
}

/** `$all` carries system events (`$`-prefixed streams and types): Coup's reads skip them. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

/**
 * What a server sends for a position it does not have: ulong.MaxValue. Servers before 22.6 answer stream reads so,
 * and the client turns it into a position like any other.
 */
export const NO_POSITION = 18_446_744_073_709_551_615n;

/** Coup's global position of an event read from ESDB (its `$all` commit position). */
export function globalPositionOf(event: EsdbRecordedLike, fallback?: bigint): bigint {
  const commit = event.position?.commit;
  if (commit !== undefined && commit !== NO_POSITION) return commit;
  if (fallback !== undefined) return fallback;
  throw new EventStoreUnavailableError(
    'STORE_UNAVAILABLE',
    `EventStoreDB returned event ${event.id} of '${event.streamId}' without its $all position: the server is ` +
      `older than 22.6, which Coup needs (upgrade EventStoreDB)`,
  );
}

/** The server's measure of an append for its MaxAppendSize: data, metadata and twice the type's length, per event. */
export function appendSize(
  events: readonly { type: string; dataJson: string; metadataJson: string }[],
): number {
  let size = 0;
  for (const e of events)
    size += Buffer.byteLength(e.dataJson) + Buffer.byteLength(e.metadataJson) + e.type.length * 2;
  return size;
}

/** The client's error for a read of `$all` from where no record starts (UNKNOWN for reads, INVALID_ARGUMENT for subscriptions). */
export function isInvalidPosition(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /invalid ?position/i.test(message);
}

/** The `$all` position to read from for an exclusive Coup position (0n = from the start). */
export function readPositionFor(after: bigint): 'start' | EsdbPosition {
  return after === 0n ? 'start' : { commit: after, prepare: after };
}

/** What to send as the client's expected revision once the head has been read. */
export function concreteExpectedRevision(head: { revision: bigint } | null): bigint | 'no_stream' {
  return head ? head.revision : 'no_stream';
}

/** A stored ESDB event as a chain link for the verifier (data and metadata re-encoded canonically). */
export function toChainLink(event: EsdbRecordedLike): ChainLink {
  const { metadata, prevHash, hash } = unpackMetadata(event.metadata);
  return {
    stream: event.streamId,
    revision: event.revision,
    globalPosition: globalPositionOf(event, event.revision),
    type: event.type,
    dataJson: encodeStored(event.data),
    metadataJson: encodeStored(metadata),
    prevHash,
    hash,
  };
}

/** A stored ESDB event as a port event (before upcasting). */
export function toRecordedEvent(event: EsdbRecordedLike, fallbackPosition?: bigint): RecordedEvent {
  const { metadata, prevHash, hash } = unpackMetadata(event.metadata);
  return {
    id: event.id,
    type: event.type,
    data: (event.isJson ? event.data : null) as JsonValue,
    metadata: metadata as unknown as EventMetadata,
    streamName: event.streamId,
    streamRevision: event.revision,
    globalPosition: globalPositionOf(event, fallbackPosition),
    recordedAt: event.created.toISOString(),
    prevHash,
    hash,
  };
}

/** Canonical JSON of a stored value; something that is not JSON encodes to a marker that fails the hash. */
function encodeStored(value: unknown): string {
  try {
    return canonicalJson(value as JsonValue);
  } catch {
    return '"<not JSON>"';
  }
}

/** Errors from the client (matched on their `type`) as the port's typed errors. */
export function mapClientError(error: unknown, stream: string | null, expected: ExpectedRevision): Error {
  if (
    error instanceof WrongExpectedVersionError ||
    error instanceof EventStoreInputError ||
    error instanceof EventStoreUnavailableError ||
    error instanceof StreamDeletedError
  ) {
    return error;
  }
  const e = error as { type?: unknown; message?: unknown; actualVersion?: unknown; maxAppendSize?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  switch (e?.type) {
    case 'wrong-expected-version': {
      const actual = typeof e.actualVersion === 'bigint' ? e.actualVersion : 'no_stream';
      return new WrongExpectedVersionError(stream ?? '', expected, actual);
    }
    case 'maximum-append-size-exceeded':
      return new EventStoreInputError(
        'APPEND_TOO_LARGE',
        `EventStoreDB refused the append as larger than its maximum append size` +
          (typeof e.maxAppendSize === 'number' ? ` of ${e.maxAppendSize} bytes` : '') +
          `: nothing was written`,
      );
    case 'access-denied':
      return new EventStoreUnavailableError(
        'STORE_UNAVAILABLE',
        `EventStoreDB denied access (check the connection string's credentials): ${message}`,
        { cause: error },
      );
    case 'stream-deleted':
      return new StreamDeletedError(
        stream ?? '',
        `Stream '${stream}' was deleted (tombstoned) in EventStoreDB and can never be written again: ${message}`,
        { cause: error },
      );
    case 'not-leader':
      return new EventStoreUnavailableError(
        'STORE_UNAVAILABLE',
        `EventStoreDB node is not the leader (use nodePreference=leader): ${message}`,
        { cause: error },
      );
    default:
      // KurrentDB's per-event limit (MaxAppendEventSize) is an error @eventstore/db-client 6 does not know.
      if (/MaximumAppendEventSize|Maximum Append Event Size/i.test(message))
        return new EventStoreInputError(
          'EVENT_TOO_LARGE',
          `EventStoreDB refused an event as larger than its maximum event size: nothing was written (${message})`,
        );
      return new EventStoreUnavailableError(
        'STORE_UNAVAILABLE',
        `EventStoreDB: ${message || String(e?.type)}`,
        {
          cause: error,
        },
      );
  }
}
