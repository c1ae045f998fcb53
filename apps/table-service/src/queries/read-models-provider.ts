/**
 * The service's queries over the read models: a PostgreSQL that cannot answer now (refused, dropped, shutting down,
 * not answering within the deadline), or read models without the table a query reads (not built yet, in
 * PostgreSQL or SQLite), is a 503 with a stable code, READ_MODELS_UNAVAILABLE, never a 500; commands are not
 * affected (they use the event store only).
 */
import { Logger } from '@nestjs/common';
import { ReadModels, type OpenReadModelsOptions, type SqlReader } from '@coup/projections';
import { ApiError } from '../common/api-error';

/** Network errors of a connection that could not be made or was lost. */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/** The pool's own words for a connection that ended or never came. */
const LOST = /Connection terminated|not queryable|timeout exceeded when trying to connect/i;

/**
 * Why PostgreSQL cannot answer a read-model query now, or null for any other failure (a bad query stays a 500).
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (shutting down, cannot connect now), 53300 (too many
 * connections), 3D000 (no such database) and class 28 (authentication) are "unreachable"; 42P01 (no such table) is
 * read models not built yet, before the projection process has made them.
 */
export function unavailableReason(error: unknown): 'unreachable' | 'not built yet' | null {
  if (error instanceof AggregateError)
    return error.errors.map(unavailableReason).find((r) => r !== null) ?? null;
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (NETWORK.has(code) || /^(08|28)/.test(code) || /^57P0[123]$/.test(code)) return 'unreachable';
  if (code === '53300' || code === '3D000') return 'unreachable';
  if (code === '42P01') return 'not built yet';
  // SQLite (better-sqlite3's SqliteError): a table dropped or never made in the file
  if (code === 'SQLITE_ERROR' && typeof e?.message === 'string' && /^no such table/.test(e.message))
    return 'not built yet';
  return typeof e?.message === 'string' && LOST.test(e.message) ? 'unreachable' : null;
}

/** 503 READ_MODELS_UNAVAILABLE: the read models cannot answer now, for `reason`. */
export function readModelsUnavailable(reason: string): ApiError {
  return new ApiError(
    503,
    'READ_MODELS_UNAVAILABLE',
    `the read models cannot be read now (${reason}); retry`,
  );
}

const log = new Logger('read-models');
/** The missing-table errors already logged (each once per process). */
const missingTables = new Set<string>();

/**
 * The reader, its failures to reach the database or to find a table answered as 503, and (with `timeoutMs`) its
 * queries not answered within that time.
 */
export function guardedReader(reader: SqlReader, timeoutMs?: number): SqlReader {
  const unavailable = (error: unknown): never => {
    const reason = unavailableReason(error);
    if (reason === null) throw error;
    // A missing table is also what a query naming a wrong table gets: said once in the log, so it is not hidden.
    const message = error instanceof Error ? error.message : String(error);
    if (reason === 'not built yet' && !missingTables.has(message)) {
      missingTables.add(message);
      log.warn(`read models not built yet: ${message}`);
    }
    throw readModelsUnavailable(reason);
  };
  const guard = <T>(query: Promise<T>): Promise<T> => {
    if (timeoutMs === undefined) return query.catch(unavailable);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(readModelsUnavailable(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([query, deadline])
      .catch(unavailable)
      .finally(() => clearTimeout(timer));
  };
  return {
    dialect: reader.dialect,
    all: (sql, params) => guard(reader.all(sql, params)),
    get: (sql, params) => guard(reader.get(sql, params)),
  };
}

/** The read models in PostgreSQL at `url`, queried through `guardedReader` (a pool of its own). */
export async function postgresReadModels(
  url: string,
  timeoutMs: number,
  options: OpenReadModelsOptions = {},
): Promise<ReadModels> {
  const opened = await ReadModels.open(url, options);
  return new ReadModels(guardedReader(opened.sql, timeoutMs), () => opened.close());
}
