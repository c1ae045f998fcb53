/** The field checks shared by the table rules and the side-bet rules: every failure is `INVALID_RULES` with its field. */
import type { Result } from '@coup/engine';
import { ownFields } from './kernel/fields';
import { type DomainError, type Limit, type TableRules, domainError } from './vocabulary';

/** The largest limit or chip value accepted, in cents (ten billion dollars): keeps every payout a safe integer. */
export const MAX_LIMIT = 1_000_000_000_000;

export type Fail = { readonly ok: false; readonly error: DomainError };

export function invalid(field: string, message: string, value?: unknown): Fail {
  return {
    ok: false,
    error: domainError('INVALID_RULES', `Invalid table rules: ${field} ${message}`, { field, value }),
  };
}

/** Objects (plain or DTO class instances), not arrays or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isPositiveInt(value: unknown, max = MAX_LIMIT): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= max;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** The smallest amount step of a chip set: the gcd of the chip values (every bet is a multiple of it). */
export function chipUnit(chips: readonly number[]): number {
  return chips.reduce((g, c) => gcd(g, c), 0);
}

export function oneOf<T extends string | number>(
  input: Record<string, unknown>,
  key: keyof TableRules,
  allowed: readonly T[],
  fallback: T,
): Result<T, DomainError> {
  if (!Object.hasOwn(input, key) || input[key] === undefined) return { ok: true, value: fallback };
  const value = input[key];
  if ((allowed as readonly unknown[]).includes(value)) return { ok: true, value: value as T };
  return invalid(key, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, value);
}

/** A `{ min, max }` limit made of the chips (`fallback` for what is absent), or why not. */
export function normalizeLimit(
  input: unknown,
  fallback: Limit,
  unit: number,
  field: string,
): Result<Limit, DomainError> {
  if (input === undefined) {
    if (fallback.min % unit !== 0 || fallback.max % unit !== 0) {
      return invalid(
        field,
        `defaults (${fallback.min}..${fallback.max}) are not made of the chips: set the limits`,
      );
    }
    return { ok: true, value: fallback };
  }
  if (!isPlainObject(input)) return invalid(field, 'must be an object { min, max }', input);
  const limit = ownFields(input);
  for (const key of Object.keys(limit)) {
    if (key !== 'min' && key !== 'max')
      return invalid(`${field}.${key}`, 'is not a limit field (min, max)', limit[key]);
  }
  const min = limit['min'] === undefined ? fallback.min : limit['min'];
  const max = limit['max'] === undefined ? fallback.max : limit['max'];
  if (!isPositiveInt(min))
    return invalid(`${field}.min`, `must be a positive integer of cents up to ${MAX_LIMIT}`, min);
  if (!isPositiveInt(max))
    return invalid(`${field}.max`, `must be a positive integer of cents up to ${MAX_LIMIT}`, max);
  if (min > max) return invalid(`${field}.min`, `(${min}) must not exceed max (${max})`, min);
  if (min % unit !== 0)
    return invalid(`${field}.min`, `(${min}) must be a multiple of the chip unit ${unit}`, min);
  if (max % unit !== 0)
    return invalid(`${field}.max`, `(${max}) must be a multiple of the chip unit ${unit}`, max);
  return { ok: true, value: { min, max } };
}
