/**
 * Typed errors and results. The engine never throws strings: every failure is an {@link EngineError} with a
 * stable {@link EngineErrorCode} and machine-readable `details`, either thrown (functions that return a plain
 * value) or returned in a {@link Result} (functions whose failure is an expected answer, such as a dealt card the
 * shoe cannot hold).
 */

/** The stable codes of every error the engine produces. */
export type EngineErrorCode =
  | 'INVALID_CARD'
  | 'NOT_ENOUGH_CARDS'
  | 'COUP_COMPLETE'
  | 'CARD_NOT_IN_SHOE'
  | 'INVALID_SEED'
  | 'INVALID_DECKS'
  | 'INVALID_AMOUNT'
  | 'INVALID_ARGUMENT';

/** An engine failure: `code` is stable (match on it), `message` is for people, `details` for programs. */
export class EngineError extends Error {
  /** The stable error code. */
  readonly code: EngineErrorCode;
  /** Structured facts about the failure (the bad input, how many cards were needed, ...). */
  readonly details: Readonly<Record<string, unknown>>;

  /**
   * @param code the stable error code
   * @param message a sentence for people that names the bad input
   * @param details structured facts for programs
   */
  constructor(code: EngineErrorCode, message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.details = Object.freeze({ ...details });
  }
}

/** Either a value or an error, for operations whose failure is an ordinary answer. */
export type Result<T, E = EngineError> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** Wraps a value as a successful {@link Result}. */
export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

/** Wraps an error as a failed {@link Result}. */
export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}

/** True if `e` is an {@link EngineError} (optionally with the given code). */
export function isEngineError(e: unknown, code?: EngineErrorCode): e is EngineError {
  return e instanceof EngineError && (code === undefined || e.code === code);
}

/** Describes an unknown input for an error message: strings quoted, numbers as they are, others by type. */
export function describeInput(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return `${String(value)}n`;
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
