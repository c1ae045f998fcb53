import type { FastifyReply } from 'fastify';
import type { EventStore } from '@coup/event-store';
import { QueryError, type RawEventReader, ReplayError } from '@coup/projections';
import type { Principal } from '@coup/auth';
import { ApiError } from '../common/api-error';
import { authorize } from '../common/auth';

/** Injection token of the event store the replay/verify endpoints read hands from. */
export const QUERIES_STORE = Symbol('QUERIES_STORE');

/** The store, and the error mapping of replay/verify. */
export class QueriesStore {
  constructor(
    readonly store: EventStore,
    /** The stored bytes (SQLite), for verify. */
    readonly raw?: RawEventReader,
  ) {}

  async handle<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await queryErrorAsync(run);
    } catch (error) {
      if (error instanceof ReplayError) {
        throw new ApiError(error.code === 'UNKNOWN_HAND' ? 404 : 409, error.code, error.message);
      }
      throw error;
    }
  }
}

/** A read-model query, with its QueryError as a 400 naming the field. */
export function queryError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof QueryError)
      throw new ApiError(400, error.code, error.message, { field: error.field });
    throw error;
  }
}

/** An asynchronous read-model query, with its QueryError as a 400 naming the field. */
export async function queryErrorAsync<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof QueryError)
      throw new ApiError(400, error.code, error.message, { field: error.field });
    throw error;
  }
}

/** Sends CSV text (with the next page's cursor, if any, in X-Next-Cursor). */
export function sendCsv(reply: FastifyReply, csv: string, nextCursor?: string | null): string {
  void reply.header('content-type', 'text/csv; charset=utf-8');
  if (nextCursor) void reply.header('x-next-cursor', nextCursor);
  return csv;
}

/**
 * The read models' filter for this caller. A token limited to some tables (its `tables` claim) reads only theirs:
 * a `tableId` outside them is refused as a path's is (403 FORBIDDEN naming its tables), and an answer over every
 * table covers its tables only (`tables`: the read models count those tables' rows, totals included).
 */
export function forCaller<F extends object>(
  principal: Principal,
  filter: F & { readonly tableId?: string },
): F & { readonly tables?: readonly string[] } {
  authorize(principal, undefined, filter.tableId);
  return principal.tables === null ? filter : { ...filter, tables: principal.tables };
}

/** What `forCaller` does, for the descriptions of the routes that apply it. */
export const TABLES_NOTE =
  'A token limited to some tables reads only theirs: a `tableId` of another is refused (403 FORBIDDEN), and without one the answer covers its tables only.';
