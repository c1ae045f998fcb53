// The tamper-evident chain: canonical JSON and the per-stream SHA-256 hash chain.
import { hash as digest } from 'node:crypto';
import { EventStoreInputError } from './errors';
import type { JsonValue } from './types';

/** `prevHash` of a stream's first event. */
export const GENESIS_HASH = '0'.repeat(64);

const MAX_DEPTH = 256;

/**
 * Canonical JSON (RFC 8785 style): object keys sorted by UTF-16 code units, no whitespace, numbers and
 * strings as `JSON.stringify` writes them. Throws `EventStoreInputError('INVALID_EVENT')` naming the path
 * of anything that is not JSON: undefined, functions, symbols, bigint, NaN/Infinity, cycles, class
 * instances (Date, Map, ...), sparse arrays. (Symbol-keyed properties are ignored, as by JSON.stringify.)
 */
export function canonicalJson(value: JsonValue, path = '$'): string {
  const context: EncodeContext = { ancestors: [], keys: [] };
  try {
    return encode(value, context);
  } catch (error) {
    if (!(error instanceof NotJson)) throw error;
    const where = context.keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
    throw new EventStoreInputError(
      'INVALID_EVENT',
      `${path}${where} ${error.what}: event data and metadata must be JSON`,
    );
  }
}

/** The objects and keys from the root to the value being encoded (the path is only rendered on error). */
interface EncodeContext {
  readonly ancestors: object[];
  readonly keys: Array<string | number>;
}

class NotJson {
  constructor(readonly what: string) {}
}

function encode(value: unknown, context: EncodeContext): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new NotJson(`is ${value} (not a finite number)`);
      return String(value); // the same text as JSON.stringify for finite numbers (-0 is "0")
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      throw new NotJson(`is a ${typeof value}`);
  }
  const { ancestors, keys } = context;
  if (ancestors.includes(value)) throw new NotJson('is a cycle');
  if (ancestors.length >= MAX_DEPTH) throw new NotJson(`nests deeper than ${MAX_DEPTH} levels`);
  ancestors.push(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      keys.push(i);
      if (!(i in value)) throw new NotJson('is a hole in a sparse array');
      out += (i === 0 ? '' : ',') + encode(value[i], context);
      keys.pop();
    }
    out += ']';
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new NotJson(`is a ${(value as object).constructor?.name ?? 'non-plain'} object, not plain JSON`);
    }
    const record = value as Record<string, unknown>;
    out = '{';
    for (const key of Object.keys(record).sort()) {
      keys.push(key);
      out += (out.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + encode(record[key], context);
      keys.pop();
    }
    out += '}';
  }
  ancestors.pop();
  return out;
}

export interface EventHashInput {
  readonly streamName: string;
  readonly streamRevision: bigint;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: JsonValue;
  readonly prevHash: string;
}

/**
 * Hex SHA-256 of the canonical JSON of `{ data, metadata, prevHash, revision, stream, type }`, with the
 * revision as a decimal string (bigint-safe). `recordedAt`, the global position and the event id are not
 * covered, so every adapter computes the same chain for the same events.
 */
export function computeEventHash(input: EventHashInput): string {
  return hashCanonical(
    input.streamName,
    input.streamRevision,
    input.type,
    canonicalJson(input.data),
    canonicalJson(input.metadata),
    input.prevHash,
  );
}

/**
 * `computeEventHash` from data and metadata already in canonical JSON (as stored): the hashed text is the
 * canonical JSON of the whole input object, built by concatenation (keys are in sorted order).
 */
export function hashCanonical(
  streamName: string,
  streamRevision: bigint,
  type: string,
  dataJson: string,
  metadataJson: string,
  prevHash: string,
): string {
  const text =
    `{"data":${dataJson},"metadata":${metadataJson},"prevHash":${JSON.stringify(prevHash)},` +
    `"revision":"${streamRevision}","stream":${JSON.stringify(streamName)},"type":${JSON.stringify(type)}}`;
  return digest('sha256', text, 'hex');
}
