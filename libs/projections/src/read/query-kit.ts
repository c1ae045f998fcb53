/**
 * What every read model's queries share: the error they throw on a bad parameter (a stable code and the field),
 * the parameter checks, cursors, reading JSON columns, and the little that differs between SQLite and PostgreSQL
 * (whether a table exists, byte-order sorting of text).
 */
import { ident } from '../sql/dialect';
import type { SqlParam, SqlReader } from '../sql/reader';

export type QueryErrorCode = 'INVALID_QUERY' | 'INVALID_CURSOR';

export class QueryError extends Error {
  constructor(
    readonly code: QueryErrorCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

export type Raw = Record<string, string | number | null>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export function checkInt(field: string, v: number | undefined, min = 0): void {
  if (v !== undefined && (!Number.isSafeInteger(v) || v < min)) {
    throw new QueryError('INVALID_QUERY', field, `${field} must be a whole number >= ${min}`);
  }
}

export function checkIso(field: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!ISO.test(v) || Number.isNaN(Date.parse(v))) {
    throw new QueryError(
      'INVALID_QUERY',
      field,
      `${field} must be an ISO-8601 date or instant, e.g. 2025-01-31 or 2025-01-31T12:00:00Z`,
    );
  }
  return new Date(Date.parse(v)).toISOString();
}

export function checkDay(field: string, v: string | undefined): void {
  if (v !== undefined && (!DAY.test(v) || Number.isNaN(Date.parse(v)))) {
    throw new QueryError('INVALID_QUERY', field, `${field} must be a UTC day, YYYY-MM-DD`);
  }
}

export function limitOf(limit: number | undefined): number {
  if (limit === undefined) return 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500) {
    throw new QueryError('INVALID_QUERY', 'limit', 'limit must be a whole number from 1 to 500');
  }
  return limit;
}

export function encodeCursor(value: Record<string, number>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor(
  cursor: string | undefined,
  keys: readonly string[],
): Record<string, number> | null {
  if (cursor === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (keys.every((k) => Number.isSafeInteger(v[k]))) return v as Record<string, number>;
  } catch {
    // fall through
  }
  throw new QueryError('INVALID_CURSOR', 'cursor', 'cursor is not one this endpoint returned');
}

export const cards = (v: unknown): string[] => (typeof v === 'string' && v.length > 0 ? v.split(' ') : []);
export const parse = <T>(v: unknown, fallback: T): T =>
  typeof v === 'string' ? (JSON.parse(v) as T) : fallback;

/** A query's conditions (joined by AND) and their parameters, in order. */
export interface Conditions {
  readonly clauses: readonly string[];
  readonly params: readonly SqlParam[];
  /** Adds a condition with its `?` values, unless the first is undefined (a filter not given). */
  add(clause: string, value: SqlParam | undefined, ...more: SqlParam[]): Conditions;
  /** Adds `column` one of `values` (see `oneOf`), unless `values` is undefined (no such limit). */
  among(column: string, values: readonly SqlParam[] | undefined): Conditions;
  /** `WHERE` and the conditions, or nothing when there are none. */
  where(): string;
}

/**
 * `column` one of `values` (the tables a token is limited to), as a condition and its `?` values: an empty list
 * is a condition no row meets.
 */
export function oneOf<T extends SqlParam>(
  column: string,
  values: readonly T[],
): { clause: string; params: T[] } {
  if (values.length === 0) return { clause: '1 = 0', params: [] };
  return { clause: `${column} IN (${values.map(() => '?').join(', ')})`, params: [...values] };
}

/** Conditions: none, or a copy of `from`'s (to add to without changing them). */
export function conditions(from?: Conditions): Conditions {
  const clauses = [...(from?.clauses ?? [])];
  const params = [...(from?.params ?? [])];
  const self: Conditions = {
    clauses,
    params,
    add(clause, value, ...more) {
      if (value === undefined) return self;
      clauses.push(clause);
      params.push(value, ...more);
      return self;
    },
    among(column, values) {
      if (values === undefined) return self;
      const c = oneOf(column, values);
      clauses.push(c.clause);
      params.push(...c.params);
      return self;
    },
    where: () => (clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''),
  };
  return self;
}

/** Whether the read models have this table (a projection not created yet has none). */
export async function hasTable(sql: SqlReader, name: string): Promise<boolean> {
  const row =
    sql.dialect === 'sqlite'
      ? await sql.get(`SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?`, [name])
      : await sql.get(`SELECT 1 AS found WHERE to_regclass(?) IS NOT NULL`, [ident(name)]);
  return row !== undefined;
}

/**
 * A text column to sort by, in byte order in both dialects: SQLite's default; PostgreSQL sorts by the database's
 * collation (often a language's, where 'online-1' comes before 'T1'), so its sort names the "C" collation.
 */
export function byteOrder(sql: SqlReader, column: string): string {
  return sql.dialect === 'postgres' ? `${column} COLLATE "C"` : column;
}
