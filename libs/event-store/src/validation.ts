// Input validation, done before anything is written: a rejected append leaves the store unchanged.
import { EventStoreInputError } from './errors';
import { canonicalJson } from './hash';
import type {
  EventMetadata,
  ExpectedRevision,
  JsonValue,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
} from './types';

export const MAX_STREAM_NAME_LENGTH = 200;
export const MAX_EVENT_TYPE_LENGTH = 200;
/** Encoded size limit of one event: canonical JSON of its data plus its metadata, in UTF-8 bytes. */
export const MAX_EVENT_BYTES = 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A validated event with its data and metadata in canonical JSON: what gets hashed and stored. */
export interface PreparedEvent {
  readonly id: string;
  readonly type: string;
  readonly dataJson: string;
  readonly metadataJson: string;
}

export function validateStreamName(stream: unknown): string {
  if (typeof stream !== 'string' || stream.length === 0) {
    throw new EventStoreInputError('INVALID_STREAM_NAME', 'A stream name must be a non-empty string');
  }
  if (stream.length > MAX_STREAM_NAME_LENGTH) {
    throw new EventStoreInputError(
      'INVALID_STREAM_NAME',
      `Stream name is ${stream.length} characters long; the limit is ${MAX_STREAM_NAME_LENGTH}`,
    );
  }
  if (stream.startsWith('$')) {
    throw new EventStoreInputError(
      'INVALID_STREAM_NAME',
      `Stream name '${stream}' starts with '$', which is reserved for system streams`,
    );
  }
  if (CONTROL.test(stream)) {
    throw new EventStoreInputError('INVALID_STREAM_NAME', 'A stream name may not contain control characters');
  }
  return stream;
}

export function validateExpectedRevision(expected: unknown): ExpectedRevision {
  if (expected === undefined) return 'any';
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return expected;
  if (typeof expected === 'bigint' && expected >= 0n) return expected;
  throw new EventStoreInputError(
    'INVALID_OPTIONS',
    `expectedRevision must be a bigint >= 0n, 'no_stream', 'stream_exists' or 'any' (got ${shown(expected)})`,
  );
}

/** Validates a whole append and encodes its events; throws `EventStoreInputError` on the first problem. */
export function prepareEvents(events: readonly NewEvent[]): PreparedEvent[] {
  if (!Array.isArray(events) || events.length === 0) {
    throw new EventStoreInputError('EMPTY_APPEND', 'An append needs at least one event');
  }
  const seen = new Set<string>();
  return events.map((event, index) => {
    const prepared = prepareEvent(event, `events[${index}]`);
    if (seen.has(prepared.id)) {
      throw new EventStoreInputError(
        'INVALID_EVENT',
        `events[${index}]: id ${prepared.id} appears twice in one append`,
      );
    }
    seen.add(prepared.id);
    return prepared;
  });
}

function prepareEvent(event: NewEvent, where: string): PreparedEvent {
  if (typeof event !== 'object' || event === null) {
    throw new EventStoreInputError('INVALID_EVENT', `${where} must be an object`);
  }
  const { id, type, data, metadata } = event;
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new EventStoreInputError('INVALID_EVENT', `${where}.id must be a UUID (got ${shown(id)})`);
  }
  if (typeof type !== 'string' || type.length === 0 || type.length > MAX_EVENT_TYPE_LENGTH) {
    throw new EventStoreInputError(
      'INVALID_EVENT',
      `${where}.type must be a non-empty string of at most ${MAX_EVENT_TYPE_LENGTH} characters`,
    );
  }
  if (type.startsWith('$') || CONTROL.test(type)) {
    throw new EventStoreInputError(
      'INVALID_EVENT',
      `${where}.type '${type}' may not start with '$' or hold control characters`,
    );
  }
  if (!('data' in event)) throw new EventStoreInputError('INVALID_EVENT', `${where}.data is missing`);
  const dataJson = canonicalJson(data, `${where}.data`);
  const metadataJson = canonicalJson(normalizeMetadata(metadata, `${where}.metadata`), `${where}.metadata`);
  const bytes = Buffer.byteLength(dataJson, 'utf8') + Buffer.byteLength(metadataJson, 'utf8');
  if (bytes > MAX_EVENT_BYTES) {
    throw new EventStoreInputError(
      'EVENT_TOO_LARGE',
      `${where} encodes to ${bytes} bytes; the limit is ${MAX_EVENT_BYTES} bytes`,
    );
  }
  return { id: id.toLowerCase(), type, dataJson, metadataJson };
}

/** Drops top-level `undefined` values and checks the well-known fields. */
export function normalizeMetadata(metadata: EventMetadata, where = 'metadata'): { [k: string]: JsonValue } {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new EventStoreInputError('INVALID_EVENT', `${where} must be an object`);
  }
  const out: { [k: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined) continue;
    if (key.startsWith('$')) {
      throw new EventStoreInputError('INVALID_EVENT', `${where}.${key}: keys starting with '$' are reserved`);
    }
    out[key] = value;
  }
  const version = out['schemaVersion'];
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw new EventStoreInputError(
      'INVALID_EVENT',
      `${where}.schemaVersion must be an integer >= 1 (got ${shown(version)})`,
    );
  }
  for (const key of ['commandId', 'correlationId', 'causationId', 'actor']) {
    if (key in out && typeof out[key] !== 'string') {
      throw new EventStoreInputError('INVALID_EVENT', `${where}.${key} must be a string`);
    }
  }
  return out;
}

export interface NormalizedReadStream {
  readonly fromRevision: bigint | 'start' | 'end';
  readonly direction: 'forwards' | 'backwards';
  readonly maxCount: number;
}

export function normalizeReadStreamOptions(options: ReadStreamOptions = {}): NormalizedReadStream {
  const direction = options.direction ?? 'forwards';
  if (direction !== 'forwards' && direction !== 'backwards') {
    throw new EventStoreInputError('INVALID_OPTIONS', `direction must be 'forwards' or 'backwards'`);
  }
  const fromRevision = options.fromRevision ?? (direction === 'forwards' ? 'start' : 'end');
  if (
    fromRevision !== 'start' &&
    fromRevision !== 'end' &&
    !(typeof fromRevision === 'bigint' && fromRevision >= 0n)
  ) {
    throw new EventStoreInputError(
      'INVALID_OPTIONS',
      `fromRevision must be a bigint >= 0n, 'start' or 'end'`,
    );
  }
  return { fromRevision, direction, maxCount: normalizeMaxCount(options.maxCount) };
}

export function normalizeReadAllOptions(options: ReadAllOptions = {}): {
  fromPosition: bigint;
  maxCount: number;
  inclusive: boolean;
} {
  if (options.inclusive !== undefined && typeof options.inclusive !== 'boolean') {
    throw new EventStoreInputError(
      'INVALID_OPTIONS',
      `inclusive must be a boolean (got ${shown(options.inclusive)})`,
    );
  }
  return {
    fromPosition: normalizePosition(options.fromPosition),
    maxCount: normalizeMaxCount(options.maxCount),
    inclusive: options.inclusive === true,
  };
}

/** Where an exclusive read starts in a store whose positions are consecutive integers (memory, SQLite). */
export function denseReadStart(options: { fromPosition: bigint; inclusive: boolean }): bigint {
  return options.inclusive && options.fromPosition > 0n ? options.fromPosition - 1n : options.fromPosition;
}

export function normalizePosition(position: unknown): bigint {
  if (position === undefined) return 0n;
  if (typeof position === 'bigint' && position >= 0n) return position;
  throw new EventStoreInputError(
    'INVALID_OPTIONS',
    `fromPosition must be a bigint >= 0n (got ${shown(position)})`,
  );
}

function normalizeMaxCount(maxCount: unknown): number {
  if (maxCount === undefined) return Number.MAX_SAFE_INTEGER;
  if (typeof maxCount === 'number' && Number.isSafeInteger(maxCount) && maxCount >= 0) return maxCount;
  throw new EventStoreInputError(
    'INVALID_OPTIONS',
    `maxCount must be a non-negative integer (got ${shown(maxCount)})`,
  );
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return String(value);
}
