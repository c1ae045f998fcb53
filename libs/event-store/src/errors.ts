import type { ExpectedRevision } from './types';

const show = (r: ExpectedRevision | bigint | 'no_stream'): string => (typeof r === 'bigint' ? `${r}` : r);

/** The stream was not at the expected revision: nothing was written. */
export class WrongExpectedVersionError extends Error {
  readonly code = 'WRONG_EXPECTED_VERSION' as const;
  override readonly name = 'WrongExpectedVersionError';

  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream '${stream}': expected revision ${show(expected)}, but the stream is at ${show(actual)}`);
  }

  toJSON(): Record<string, string> {
    return {
      code: this.code,
      message: this.message,
      stream: this.stream,
      expected: show(this.expected),
      actual: show(this.actual),
    };
  }
}

export type EventStoreInputErrorCode =
  | 'INVALID_STREAM_NAME'
  | 'INVALID_EVENT'
  | 'EVENT_TOO_LARGE'
  | 'EMPTY_APPEND'
  /** An event id is already recorded at another place, or at the same place with other contents. */
  | 'DUPLICATE_EVENT_ID'
  /** The events of one append are more than the store takes in one append (EventStoreDB's MaxAppendSize). */
  | 'APPEND_TOO_LARGE'
  | 'INVALID_OPTIONS';

/** Bad input: rejected before anything was written. */
export class EventStoreInputError extends Error {
  override readonly name = 'EventStoreInputError';

  constructor(
    readonly code: EventStoreInputErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): Record<string, string> {
    return { code: this.code, message: this.message };
  }
}

export type EventStoreUnavailableErrorCode =
  /** The store cannot be reached or an I/O error occurred; the operation did not complete. */
  | 'STORE_UNAVAILABLE'
  /** No space left (disk full or the database's page limit). */
  | 'STORE_FULL'
  /** The store is opened read-only or its file cannot be written. */
  | 'STORE_READ_ONLY'
  /** `close()` was called. */
  | 'STORE_CLOSED'
  /** The store's file is damaged or not a Coup event store. */
  | 'STORE_CORRUPT'
  /**
   * An append was sent, its answer was lost (a commit timeout, a dropped connection) and the store could not be
   * asked since whether it was written: it may or may not be recorded. Retry it with the same event ids (with the
   * service: the same Idempotency-Key), which the store recognizes if they were.
   */
  | 'STORE_OUTCOME_UNKNOWN';

/**
 * The store could not do what was asked: for an append, nothing was written (the promise rejects), except with
 * `STORE_OUTCOME_UNKNOWN`, where it may have been.
 */
export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';

  constructor(
    readonly code: EventStoreUnavailableErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toJSON(): Record<string, string> {
    return { code: this.code, message: this.message };
  }
}

/**
 * The stream was deleted in the store (EventStoreDB: soft-deleted, whose revisions would continue after the deleted
 * ones, or tombstoned): nothing was written, and it cannot be chained onto; restore it in the store, or use another.
 */
export class StreamDeletedError extends Error {
  readonly code = 'STREAM_DELETED' as const;
  override readonly name = 'StreamDeletedError';

  constructor(
    readonly stream: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toJSON(): Record<string, string> {
    return { code: this.code, message: this.message, stream: this.stream };
  }
}
