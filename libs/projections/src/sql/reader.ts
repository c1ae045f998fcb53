/**
 * The read side's one port to a read-model database: run a query, get rows. The service's queries, the CLI
 * and the reports go through it, so the same query code answers from the SQLite file or from PostgreSQL.
 * Queries are written once, with `?` placeholders (see `dialect.ts`).
 */
import type Database from 'better-sqlite3';
import { type Pool, type PoolConfig, types } from 'pg';
import { type Dialect, inDialect } from './dialect';

export type SqlParam = string | number | null;
export type SqlRow = Record<string, string | number | null>;

export interface SqlReader {
  readonly dialect: Dialect;
  /** Every row of the query. */
  all<T = SqlRow>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = SqlRow>(sql: string, params?: readonly SqlParam[]): Promise<T | undefined>;
}

/** A reader over a better-sqlite3 connection (statements prepared once per SQL text). */
export function sqliteReader(db: Database.Database): SqlReader {
  const prepared = new Map<string, Database.Statement>();
  const stmt = (sql: string): Database.Statement => {
    let s = prepared.get(sql);
    if (s === undefined) prepared.set(sql, (s = db.prepare(sql)));
    return s;
  };
  return {
    dialect: 'sqlite',
    all: async <T>(sql: string, params: readonly SqlParam[] = []) => stmt(sql).all(...params) as T[],
    get: async <T>(sql: string, params: readonly SqlParam[] = []) =>
      stmt(sql).get(...params) as T | undefined,
  };
}

/**
 * How `pg` reads the column types the read models use: BIGINT (20) and NUMERIC (1700, what SUM and AVG of
 * integers answer) as JavaScript numbers, as SQLite gives them. Read-model integers are cents, counts and
 * positions, all safe integers.
 */
export const pgTypes: NonNullable<PoolConfig['types']> = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return types.getTypeParser(oid, format as 'text');
  }) as NonNullable<PoolConfig['types']>['getTypeParser'],
};

/** A reader over a `pg` pool (create the pool with `types: pgTypes`). */
export function postgresReader(pool: Pool): SqlReader {
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: readonly SqlParam[] = []) =>
      (await pool.query({ text: inDialect(sql, 'postgres'), values: [...params] })).rows as T[],
    get: async <T>(sql: string, params: readonly SqlParam[] = []) =>
      (await pool.query({ text: inDialect(sql, 'postgres'), values: [...params] })).rows[0] as T | undefined,
  };
}
