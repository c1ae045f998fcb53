// The SQLite store's write side: one connection that runs group commits. It runs in the store's own thread
// (`writer: 'inline'`), alone in a worker thread (`writer: 'worker'`, see sqlite-writer.worker.ts), so that the
// thread answering requests never waits for an fsync, or in either by the load (`writer: 'adaptive'`). All run
// exactly this code.
import Database from 'better-sqlite3';
import { appendCore, type Head, lastOf, type NewRow, type StoredRow, type SyncBackend } from './core';
import { EventStoreInputError, EventStoreUnavailableError, WrongExpectedVersionError } from './errors';
import type { AppendResult, ExpectedRevision } from './types';
import { preparePrivateSqliteFile } from './private-files';
import type { PreparedEvent } from './validation';

export { fromWire, toWire, type WireError } from './sqlite-wire';

const MAX_CACHED_HEADS = 10_000;
const SCHEMA_VERSION = 1n;

/** The table every SQLite store (and the benchmark's bare loop) uses. */
export const SQLITE_SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  global_position INTEGER PRIMARY KEY,
  stream          TEXT    NOT NULL,
  revision        INTEGER NOT NULL,
  id              TEXT    NOT NULL UNIQUE,
  type            TEXT    NOT NULL,
  data            TEXT    NOT NULL,
  metadata        TEXT    NOT NULL,
  recorded_at     TEXT    NOT NULL,
  prev_hash       TEXT    NOT NULL,
  hash            TEXT    NOT NULL,
  UNIQUE (stream, revision)
) STRICT;
`;

export const COLUMNS =
  'global_position AS globalPosition, stream, revision, id, type, data AS dataJson, metadata AS metadataJson, ' +
  'recorded_at AS recordedAt, prev_hash AS prevHash, hash';

/** How a connection to the store's file is opened: by the store's thread and by the writer thread alike. */
export interface ConnectionOptions {
  readonly file: string;
  readonly readonly?: boolean;
  readonly busyTimeoutMs?: number;
  readonly maxPageCount?: number;
}

/** Opens the file with the store's pragmas (WAL, synchronous = FULL) and makes sure the schema is there. */
export function openConnection(options: ConnectionOptions): Database.Database {
  let db: Database.Database;
  try {
    // owner-only, whatever the umask: the file (and so its WAL and shared-memory files) 0600, a new folder 0700
    if (!options.readonly) preparePrivateSqliteFile(options.file);
    db = new Database(options.file, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw mapError(error, `Cannot open the event store at ${options.file}`);
  }
  try {
    db.defaultSafeIntegers(true);
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    if (!options.readonly) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal')
        throw new EventStoreUnavailableError(
          'STORE_UNAVAILABLE',
          `Cannot enable WAL (journal_mode is ${String(mode)})`,
        );
    }
    db.pragma('synchronous = FULL');
    if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(options.maxPageCount)}`);
    ensureSchema(db, options);
    return db;
  } catch (error) {
    db.close();
    throw mapError(error, `Cannot open the event store at ${options.file}`);
  }
}

function ensureSchema(db: Database.Database, options: ConnectionOptions): void {
  const version = db.pragma('user_version', { simple: true }) as bigint;
  if (version === SCHEMA_VERSION) return;
  if (version !== 0n) {
    throw new EventStoreUnavailableError(
      'STORE_CORRUPT',
      `${options.file} has event-store schema version ${version}; this build reads ${SCHEMA_VERSION}`,
    );
  }
  if (options.readonly) {
    throw new EventStoreUnavailableError(
      'STORE_CORRUPT',
      `${options.file} is not an event store (no schema) and is opened read-only`,
    );
  }
  db.transaction(() => {
    db.exec(SQLITE_SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** One append waiting for the next group commit (validated and encoded already). */
export interface WriteRequest {
  readonly stream: string;
  readonly events: readonly PreparedEvent[];
  readonly expected: ExpectedRevision;
}

/**
 * The rows an append inserted, beyond what the caller already has (its events, the stream, the time): their first
 * global position (the rows' positions are consecutive: one transaction holds the write lock) and each row's hash
 * (the first row's prevHash given, each next row's is the hash before it). Absent when the append inserted nothing
 * (an idempotent retry of events already recorded).
 */
export interface InsertedRows {
  readonly firstPosition: bigint;
  readonly prevHash: string;
  readonly hashes: readonly string[];
}

export type WriteOutcome =
  | { readonly ok: true; readonly result: AppendResult; readonly inserted?: InsertedRows }
  | { readonly ok: false; readonly error: Error };

/** Raised by the backend when a cached head was stale: the append is run again with fresh heads. */
class StaleHeadError extends Error {}

type Statement = Database.Statement<unknown[], unknown>;

class SqliteBackend implements SyncBackend {
  readonly heads = new Map<string, Head>();
  /** What the last successful insert() wrote (reset by the writer before each append). */
  lastInserted: InsertedRows | null = null;
  private readonly headStmt: Statement;
  private readonly rangeStmt: Statement;
  private readonly locateStmt: Statement;
  private readonly insertStmt: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackTo: Statement;

  constructor(private readonly db: Database.Database) {
    this.headStmt = db.prepare(
      'SELECT revision, hash FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    );
    this.rangeStmt = db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    );
    this.locateStmt = db.prepare('SELECT stream, revision FROM events WHERE id = ?');
    this.insertStmt = db.prepare(
      'INSERT INTO events (stream, revision, id, type, data, metadata, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.savepoint = db.prepare('SAVEPOINT append_events');
    this.release = db.prepare('RELEASE append_events');
    this.rollbackTo = db.prepare('ROLLBACK TO append_events');
  }

  head(stream: string): Head | null {
    const cached = this.heads.get(stream);
    if (cached) return cached;
    const row = this.headStmt.get(stream) as Head | undefined;
    if (row) this.remember(stream, row);
    return row ?? null;
  }

  range(stream: string, fromRevision: bigint, count: number): StoredRow[] {
    return this.rangeStmt.all(stream, fromRevision, count) as StoredRow[];
  }

  locate(id: string): { stream: string; revision: bigint } | null {
    return (this.locateStmt.get(id) as { stream: string; revision: bigint } | undefined) ?? null;
  }

  insert(rows: readonly NewRow[]): { lastPosition: bigint } | { duplicateId: string } {
    // One savepoint per append makes its rows all-or-nothing inside the group commit. A single-row
    // append needs none: a failed INSERT statement is backed out by SQLite on its own.
    const savepoint = rows.length > 1;
    if (savepoint) this.savepoint.run();
    let current: NewRow | undefined;
    try {
      let lastPosition = 0n;
      let firstPosition = -1n;
      for (const row of rows) {
        current = row;
        const info = this.insertStmt.run(
          row.stream,
          row.revision,
          row.id,
          row.type,
          row.dataJson,
          row.metadataJson,
          row.recordedAt,
          row.prevHash,
          row.hash,
        );
        lastPosition = BigInt(info.lastInsertRowid);
        if (firstPosition < 0n) firstPosition = lastPosition;
      }
      if (savepoint) this.release.run();
      const last = lastOf(rows);
      this.remember(last.stream, { revision: last.revision, hash: last.hash });
      // Consecutive positions (as SQLite assigns them under the write lock); anything else is not described.
      this.lastInserted =
        lastPosition - firstPosition === BigInt(rows.length - 1)
          ? { firstPosition, prevHash: rows[0]!.prevHash, hashes: rows.map((r) => r.hash) }
          : null;
      return { lastPosition };
    } catch (error) {
      if (savepoint && this.db.inTransaction) {
        this.rollbackTo.run();
        this.release.run();
      }
      const code = (error as { code?: string }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' && current) {
        if (/events\.id/.test((error as Error).message)) return { duplicateId: current.id };
        this.heads.delete(current.stream);
        throw new StaleHeadError('stale stream head');
      }
      throw error;
    }
  }

  private remember(stream: string, head: Head): void {
    if (this.heads.size >= MAX_CACHED_HEADS && !this.heads.has(stream)) this.heads.clear();
    this.heads.set(stream, { revision: head.revision, hash: head.hash });
  }
}

/**
 * Group commit on one connection: every append of a batch in one transaction, each in its own savepoint (one
 * append's failure never fails its neighbours), one fsync for all. Stream heads are cached and dropped whenever
 * `PRAGMA data_version` shows another connection (another process) committed.
 */
export class SqliteWriter {
  private readonly backend: SqliteBackend;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly dataVersionStmt: Statement;
  private dataVersion: unknown = undefined;

  constructor(private readonly db: Database.Database) {
    this.backend = new SqliteBackend(db);
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.dataVersionStmt = db.prepare('PRAGMA data_version').pluck();
  }

  /**
   * Writes the batch in one transaction and returns each append's outcome (a wrong expected version or a reused
   * id fails that append only). Throws, with nothing written, when the transaction itself fails (disk full,
   * read-only file, I/O error).
   */
  write(batch: readonly WriteRequest[], recordedAt: string): WriteOutcome[] {
    try {
      this.begin.run();
    } catch (error) {
      this.backend.heads.clear();
      throw mapError(error, 'The append transaction failed; nothing in it was written');
    }
    return this.writeBegun(batch, recordedAt);
  }

  /**
   * As {@link write}, only if no other connection holds the write lock now: null, with nothing written, when one
   * does (the adaptive writer then commits in its thread, which waits for the lock, instead of this thread).
   */
  writeIfFree(
    batch: readonly WriteRequest[],
    recordedAt: string,
    busyTimeoutMs: number,
  ): WriteOutcome[] | null {
    this.db.pragma('busy_timeout = 0');
    try {
      this.begin.run();
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return null;
      this.backend.heads.clear();
      throw mapError(error, 'The append transaction failed; nothing in it was written');
    } finally {
      this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    }
    return this.writeBegun(batch, recordedAt);
  }

  /** The batch in the transaction just begun (BEGIN IMMEDIATE: this connection holds the write lock). */
  private writeBegun(batch: readonly WriteRequest[], recordedAt: string): WriteOutcome[] {
    const outcomes: WriteOutcome[] = [];
    try {
      const version = this.dataVersionStmt.get();
      if (version !== this.dataVersion) {
        this.backend.heads.clear(); // another connection committed: cached heads may be stale
        this.dataVersion = version;
      }
      for (const item of batch) {
        try {
          this.backend.lastInserted = null;
          const result = this.appendOne(item, recordedAt);
          const inserted = this.backend.lastInserted as InsertedRows | null;
          outcomes.push(inserted ? { ok: true, result, inserted } : { ok: true, result });
        } catch (error) {
          if (!this.db.inTransaction) throw error; // SQLite rolled the whole transaction back: fail the batch
          outcomes.push({ ok: false, error: mapError(error, `Append to '${item.stream}' failed`) });
        }
      }
      this.commit.run();
      return outcomes;
    } catch (error) {
      if (this.db.open && this.db.inTransaction) {
        try {
          this.rollback.run();
        } catch {
          // the connection is unusable; the error below tells the callers
        }
      }
      this.backend.heads.clear();
      throw mapError(error, 'The append transaction failed; nothing in it was written');
    }
  }

  private appendOne(item: WriteRequest, recordedAt: string): AppendResult {
    try {
      return appendCore(this.backend, item.stream, item.events, item.expected, recordedAt);
    } catch (error) {
      if (!(error instanceof StaleHeadError)) throw error;
      return appendCore(this.backend, item.stream, item.events, item.expected, recordedAt);
    }
  }
}

/** SQLite and I/O errors as the port's typed errors; the port's own errors pass through. */
export function mapError(error: unknown, context: string): Error {
  if (
    error instanceof WrongExpectedVersionError ||
    error instanceof EventStoreInputError ||
    error instanceof EventStoreUnavailableError
  ) {
    return error;
  }
  const code =
    typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  const detail = error instanceof Error ? error.message : String(error);
  const message = `${context}: ${detail}`;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new EventStoreUnavailableError(
      'STORE_FULL',
      `${message} (no space left: nothing in the failed append was written)`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES') {
    return new EventStoreUnavailableError(
      'STORE_READ_ONLY',
      `${message} (the store is read-only: nothing was written)`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new EventStoreUnavailableError('STORE_CORRUPT', message, { cause: error });
  }
  if (error instanceof TypeError && /not open/.test(detail)) {
    return new EventStoreUnavailableError('STORE_CLOSED', message, { cause: error });
  }
  return new EventStoreUnavailableError('STORE_UNAVAILABLE', message, { cause: error });
}
