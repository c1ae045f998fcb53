// The tamper-evident chain: canonical JSON and the per-stream SHA-256 hash chain.
import { createHash } from 'node:crypto';
import { EventStoreInputError } from './errors';
import type { JsonValue } from './types';

/** `prevHash` of a stream's first event. */
export const GENESIS_HASH = '0'.repeat(64);

const MAX_DEPTH = 256;

/**
 * Canonical JSON (RFC 8785 style): object keys sorted by UTF-16 code units, no whitespace, numbers and
 * strings as `JSON.stringify` writes them. Throws `EventStoreInputError('INVALID_EVENT')` naming the path
 * of anything that is not JSON: undefined, functions, symbols, bigint, NaN/Infinity, cycles, class
 * instances (Date, Map, ...), sparse arrays.
 */
export function canonicalJson(value: JsonValue, path = '$'): string {
  const out: string[] = [];
  write(value, path, out, new Set(), 0);
  return out.join('');
}

function write(value: unknown, path: string, out: string[], ancestors: Set<object>, depth: number): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw notJson(path, `is ${value} (not a finite number)`);
      out.push(JSON.stringify(value));
      return;
    case 'object':
      break;
    default:
      throw notJson(path, `is a ${typeof value}`);
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (ancestors.has(value)) throw notJson(path, 'is a cycle');
  if (depth >= MAX_DEPTH) throw notJson(path, `nests deeper than ${MAX_DEPTH} levels`);
  ancestors.add(value);
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw notJson(`${path}[${i}]`, 'is a hole in a sparse array');
      if (i > 0) out.push(',');
      write(value[i], `${path}[${i}]`, out, ancestors, depth + 1);
    }
    out.push(']');
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw notJson(
        path,
        `is a ${(value as object).constructor?.name ?? 'non-plain'} object, not plain JSON`,
      );
    }
    if (Object.getOwnPropertySymbols(value).length > 0) throw notJson(path, 'has symbol keys');
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    out.push('{');
    keys.forEach((key, i) => {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(key), ':');
      write(record[key], `${path}.${key}`, out, ancestors, depth + 1);
    });
    out.push('}');
  }
  ancestors.delete(value);
}

function notJson(path: string, what: string): EventStoreInputError {
  return new EventStoreInputError('INVALID_EVENT', `${path} ${what}: event data and metadata must be JSON`);
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
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
