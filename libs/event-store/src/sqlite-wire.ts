// Port errors as plain data, to cross between the SQLite store and its writer thread (a structured clone keeps no
// classes), and back as the port's typed errors.
import {
  EventStoreInputError,
  type EventStoreInputErrorCode,
  EventStoreUnavailableError,
  type EventStoreUnavailableErrorCode,
  WrongExpectedVersionError,
} from './errors';
import type { ExpectedRevision } from './types';

/** A port error as plain data, to cross from the writer thread (structured clone keeps no classes). */
export type WireError =
  | {
      readonly kind: 'wrong_expected_version';
      readonly stream: string;
      readonly expected: ExpectedRevision;
      readonly actual: bigint | 'no_stream';
    }
  | { readonly kind: 'input'; readonly code: EventStoreInputErrorCode; readonly message: string }
  | { readonly kind: 'unavailable'; readonly code: EventStoreUnavailableErrorCode; readonly message: string };

export function toWire(error: Error): WireError {
  if (error instanceof WrongExpectedVersionError)
    return {
      kind: 'wrong_expected_version',
      stream: error.stream,
      expected: error.expected,
      actual: error.actual,
    };
  if (error instanceof EventStoreInputError)
    return { kind: 'input', code: error.code, message: error.message };
  if (error instanceof EventStoreUnavailableError)
    return { kind: 'unavailable', code: error.code, message: error.message };
  return { kind: 'unavailable', code: 'STORE_UNAVAILABLE', message: error.message };
}

export function fromWire(wire: WireError): Error {
  switch (wire.kind) {
    case 'wrong_expected_version':
      return new WrongExpectedVersionError(wire.stream, wire.expected, wire.actual);
    case 'input':
      return new EventStoreInputError(wire.code, wire.message);
    case 'unavailable':
      return new EventStoreUnavailableError(wire.code, wire.message);
    default: {
      const unknown: never = wire;
      return new EventStoreUnavailableError(
        'STORE_UNAVAILABLE',
        `unknown writer error kind ${String((unknown as { kind?: unknown }).kind)}`,
      );
    }
  }
}
