/** Refusals: a command that breaks a rule is answered with a typed domain error and no events, never thrown. */
import { type DomainError, type DomainErrorCode, type TableEvent, domainError } from '../vocabulary';

/** A refused command's error (a class, so a handler's result is told apart from a value with `instanceof`). */
export class Refusal {
  constructor(readonly error: DomainError) {}
}

export function refuse(
  code: DomainErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): Refusal {
  return new Refusal(domainError(code, message, details));
}

/** What a handler answers: the new events, or why not. */
export type Verdict = TableEvent[] | Refusal;

/** A value for a message: strings quoted and cut at 40 characters, objects and arrays named, not shown. */
export function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : String(value);
}
