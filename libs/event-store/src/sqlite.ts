// The embedded default: one SQLite file through better-sqlite3, WAL with synchronous = FULL, so an append
// whose promise resolved is in the fsynced WAL. Appends arriving in the same event-loop turn are written in
// one transaction (group commit), each in its own SAVEPOINT (a single-row append needs none: a failed INSERT
// is backed out on its own): one append's failure never fails its neighbours, and many callers share one
// fsync. Several processes may share the file (busy_timeout; heads
// cached in memory are dropped whenever `PRAGMA data_version` shows another connection committed).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  appendCore,
  type Head,
  lastOf,
  type NewRow,
  type StoredRow,
  type SyncBackend,
  toRecorded,
  verifyChain,
} from './core';
import { EventStoreInputError, EventStoreUnavailableError, WrongExpectedVersionError } from './errors';
import { CommitNotifier, PagedSubscription } from './subscription';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamHead,
  StreamVerification,
  SubscribeToAllOptions,
  Subscription,
  VerifyStreamOptions,
} from './types';
import type { UpcasterRegistry } from './upcasting';
import {
  normalizePosition,
  normalizeReadAllOptions,
  normalizeReadStreamOptions,
  type PreparedEvent,
  prepareEvents,
  validateExpectedRevision,
  validateStreamName,
} from './validation';

export interface SqliteEventStoreConfig {
  /** Path of the database file (its directory is created if missing). */
  file: string;
  /** Open read-only: appends reject with STORE_READ_ONLY. */
  readonly?: boolean;
  /** How long a write waits for another process's write lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /** How often a caught-up subscription looks for other processes' commits (default 50 ms). */
  pollIntervalMs?: number;
  /** Caps the file at this many pages (`PRAGMA max_page_count`): tests use it to simulate a full disk. */
  maxPageCount?: number;
  upcasters?: UpcasterRegistry;
}

const SCHEMA_VERSION = 1n;
const READ_PAGE = 512;
const MAX_CACHED_HEADS = 10_000;

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

const COLUMNS =
  'global_position AS globalPosition, stream, revision, id, type, data AS dataJson, metadata AS metadataJson, ' +
  'recorded_at AS recordedAt, prev_hash AS prevHash, hash';

interface PendingAppend {
  readonly stream: string;
  readonly events: readonly PreparedEvent[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/** Raised by the backend when a cached head was stale: the append is run again with fresh heads. */
class StaleHeadError extends Error {}

type Statement = Database.Statement<unknown[], unknown>;

class SqliteBackend implements SyncBackend {
  readonly heads = new Map<string, Head>();
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
      }
      if (savepoint) this.release.run();
      const last = lastOf(rows);
      this.remember(last.stream, { revision: last.revision, hash: last.hash });
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

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly backend: SqliteBackend;
  private readonly notifier = new CommitNotifier();
  private readonly subscriptions = new Set<Subscription>();
  private readonly stmts: Record<
    | 'begin'
    | 'commit'
    | 'rollback'
    | 'dataVersion'
    | 'readForwards'
    | 'readBackwards'
    | 'readAll'
    | 'headPosition',
    Statement
  >;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  private dataVersion: unknown = undefined;
  private closed = false;
  private readonly counters = { appends: 0, commits: 0 };

  constructor(private readonly config: SqliteEventStoreConfig) {
    try {
      if (!config.readonly) mkdirSync(dirname(config.file), { recursive: true });
      this.db = new Database(config.file, {
        readonly: config.readonly ?? false,
        fileMustExist: config.readonly ?? false,
      });
    } catch (error) {
      throw mapError(error, `Cannot open the event store at ${config.file}`);
    }
    try {
      this.db.defaultSafeIntegers(true);
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(config.busyTimeoutMs ?? 5000))}`);
      if (!config.readonly) {
        const mode = this.db.pragma('journal_mode = WAL', { simple: true });
        if (mode !== 'wal')
          throw new EventStoreUnavailableError(
            'STORE_UNAVAILABLE',
            `Cannot enable WAL (journal_mode is ${String(mode)})`,
          );
      }
      this.db.pragma('synchronous = FULL');
      if (config.maxPageCount !== undefined)
        this.db.pragma(`max_page_count = ${Math.floor(config.maxPageCount)}`);
      this.ensureSchema();
      this.backend = new SqliteBackend(this.db);
      this.stmts = {
        begin: this.db.prepare('BEGIN IMMEDIATE'),
        commit: this.db.prepare('COMMIT'),
        rollback: this.db.prepare('ROLLBACK'),
        dataVersion: this.db.prepare('PRAGMA data_version').pluck(),
        readForwards: this.db.prepare(
          `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
        ),
        readBackwards: this.db.prepare(
          `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
        ),
        readAll: this.db.prepare(
          `SELECT ${COLUMNS} FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?`,
        ),
        headPosition: this.db.prepare('SELECT MAX(global_position) FROM events').pluck(),
      };
    } catch (error) {
      this.db.close();
      throw mapError(error, `Cannot open the event store at ${config.file}`);
    }
  }

  private ensureSchema(): void {
    const version = this.db.pragma('user_version', { simple: true }) as bigint;
    if (version === SCHEMA_VERSION) return;
    if (version !== 0n) {
      throw new EventStoreUnavailableError(
        'STORE_CORRUPT',
        `${this.config.file} has event-store schema version ${version}; this build reads ${SCHEMA_VERSION}`,
      );
    }
    if (this.config.readonly) {
      throw new EventStoreUnavailableError(
        'STORE_CORRUPT',
        `${this.config.file} is not an event store (no schema) and is opened read-only`,
      );
    }
    this.db
      .transaction(() => {
        this.db.exec(SQLITE_SCHEMA);
        this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      })
      .immediate();
  }

  appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    try {
      this.assertOpen();
      validateStreamName(stream);
      const expected = validateExpectedRevision(options.expectedRevision);
      const prepared = prepareEvents(events);
      return new Promise<AppendResult>((resolve, reject) => {
        this.queue.push({ stream, events: prepared, expected, resolve, reject });
        if (!this.flushScheduled) {
          this.flushScheduled = true;
          setImmediate(() => this.flush());
        }
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Writes every queued append in one transaction, each all-or-nothing, then settles their promises. */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const settle: Array<() => void> = [];
    try {
      this.stmts.begin.run();
      const version = this.stmts.dataVersion.get();
      if (version !== this.dataVersion) {
        this.backend.heads.clear(); // another connection committed: cached heads may be stale
        this.dataVersion = version;
      }
      const recordedAt = new Date().toISOString();
      for (const item of batch) {
        try {
          const result = this.appendOne(item, recordedAt);
          settle.push(() => item.resolve(result));
        } catch (error) {
          if (!this.db.inTransaction) throw error; // SQLite rolled the whole transaction back: fail the batch
          const mapped = mapError(error, `Append to '${item.stream}' failed`);
          settle.push(() => item.reject(mapped));
        }
      }
      this.stmts.commit.run();
      this.counters.commits += 1;
      this.counters.appends += batch.length;
    } catch (error) {
      if (this.db.open && this.db.inTransaction) {
        try {
          this.stmts.rollback.run();
        } catch {
          // the connection is unusable; the error below tells the callers
        }
      }
      this.backend.heads.clear();
      const mapped = mapError(error, 'The append transaction failed; nothing in it was written');
      for (const item of batch) item.reject(mapped);
      return;
    }
    this.notifier.notify();
    for (const done of settle) done();
  }

  private appendOne(item: PendingAppend, recordedAt: string): AppendResult {
    try {
      return appendCore(this.backend, item.stream, item.events, item.expected, recordedAt);
    } catch (error) {
      if (!(error instanceof StaleHeadError)) throw error;
      return appendCore(this.backend, item.stream, item.events, item.expected, recordedAt);
    }
  }

  async *readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    validateStreamName(stream);
    const { fromRevision, direction, maxCount } = normalizeReadStreamOptions(options);
    if (direction === 'forwards' && fromRevision === 'end') return;
    const forwards = direction === 'forwards';
    let next = fromRevision === 'start' ? 0n : fromRevision === 'end' ? 2n ** 63n - 1n : fromRevision;
    let remaining = maxCount;
    while (remaining > 0) {
      const limit = Math.min(READ_PAGE, remaining);
      const rows = this.query(
        () =>
          (forwards ? this.stmts.readForwards : this.stmts.readBackwards).all(
            stream,
            next,
            limit,
          ) as StoredRow[],
      );
      for (const row of rows) yield toRecorded(row, this.config.upcasters);
      remaining -= rows.length;
      const last = rows[rows.length - 1];
      if (rows.length < limit || !last) return;
      if (!forwards && last.revision === 0n) return;
      next = forwards ? last.revision + 1n : last.revision - 1n;
    }
  }

  async *readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    const { fromPosition, maxCount } = normalizeReadAllOptions(options);
    let after = fromPosition;
    let remaining = maxCount;
    while (remaining > 0) {
      const page = this.page(after, Math.min(READ_PAGE, remaining));
      yield* page;
      remaining -= page.length;
      const last = page[page.length - 1];
      if (page.length < READ_PAGE || !last) return;
      after = last.globalPosition;
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    const subscription: Subscription = new PagedSubscription({
      readPage: (after, limit) => this.page(after, limit),
      from: normalizePosition(options.fromPosition),
      notifier: this.notifier,
      pollMs: this.config.pollIntervalMs ?? 50,
      onClose: () => this.subscriptions.delete(subscription),
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  async streamHead(stream: string): Promise<StreamHead | null> {
    validateStreamName(stream);
    // Read through the database, not the cache: another process may have appended.
    const rows = this.query(() => this.stmts.readBackwards.all(stream, 2n ** 63n - 1n, 1) as StoredRow[]);
    const last = rows[0];
    return last ? { revision: last.revision, hash: last.hash } : null;
  }

  async headPosition(): Promise<bigint | null> {
    const max = this.query(() => this.stmts.headPosition.get()) as bigint | number | null;
    return max === null || max === undefined ? null : BigInt(max);
  }

  async verifyStream(stream: string, options?: VerifyStreamOptions): Promise<StreamVerification> {
    validateStreamName(stream);
    return verifyChain(this.storedRows(stream), options);
  }

  /** Appends settled and transactions committed so far (group commit: many appends per transaction). */
  stats(): { appends: number; commits: number } {
    return { ...this.counters };
  }

  /** The durability settings in force on this connection. */
  durability(): { journalMode: string; synchronous: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA' } {
    return this.query(() => {
      const journalMode = String(this.db.pragma('journal_mode', { simple: true }));
      const level = Number(this.db.pragma('synchronous', { simple: true }));
      return { journalMode, synchronous: (['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const)[level] ?? 'OFF' };
    });
  }

  /** Flushes queued appends, ends subscriptions and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    this.db.close();
  }

  private *storedRows(stream: string): Iterable<StoredRow> {
    let next = 0n;
    for (;;) {
      const rows = this.query(() => this.stmts.readForwards.all(stream, next, READ_PAGE) as StoredRow[]);
      yield* rows;
      const last = rows[rows.length - 1];
      if (rows.length < READ_PAGE || !last) return;
      next = last.revision + 1n;
    }
  }

  private page(after: bigint, limit: number): RecordedEvent[] {
    const rows = this.query(() => this.stmts.readAll.all(after, limit) as StoredRow[]);
    return rows.map((row) => toRecorded(row, this.config.upcasters));
  }

  private query<T>(run: () => T): T {
    this.assertOpen();
    try {
      return run();
    } catch (error) {
      throw mapError(error, 'Reading the event store failed');
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreUnavailableError('STORE_CLOSED', 'The event store is closed');
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
