// The embedded default: one SQLite file through better-sqlite3, WAL with synchronous = FULL, so an append
// whose promise resolved is in the fsynced WAL. Appends arriving while the previous group commit is being
// written are written together in the next one (group commit), each in its own SAVEPOINT: one append's failure
// never fails its neighbours, and many callers share one fsync. The commits run on the store's own thread
// (`writer: 'inline'`, the default), in a worker thread (`writer: 'worker'`), which keeps a busy server's
// event loop free while the disk syncs, or in either by the load (`writer: 'adaptive'`). Reads use the store's
// own connection (WAL readers never wait for the writer). Several processes may share the file (busy_timeout;
// cached heads are dropped whenever `PRAGMA data_version` shows another connection committed).
import type Database from 'better-sqlite3';
import { type StoredRow, toRecorded, verifyChain } from './core';
import { EventStoreUnavailableError } from './errors';
import {
  ALWAYS_THREAD,
  AdaptiveWriter,
  type BatchWriter,
  InlineWriter,
  type ThreadLost,
} from './sqlite-batch-writer';
import type { SqliteEventStoreConfig, WriterStatus } from './sqlite-config';
import { RecentCommits } from './sqlite-recent';
import { COLUMNS, mapError, openConnection, type WriteRequest } from './sqlite-writer';
import { CommitNotifier, PagedSubscription } from './subscription';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
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
import {
  normalizePosition,
  denseReadStart,
  normalizeReadAllOptions,
  normalizeReadStreamOptions,
  prepareEvents,
  validateExpectedRevision,
  validateStreamName,
} from './validation';

export { mapError, SQLITE_SCHEMA } from './sqlite-writer';
export type { SqliteEventStoreConfig, SqliteStoreObserver, WriterStatus } from './sqlite-config';

const READ_PAGE = 512;

interface PendingAppend extends WriteRequest {
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

type Statement = Database.Statement<unknown[], unknown>;

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly writer: BatchWriter;
  private readonly notifier = new CommitNotifier();
  private readonly subscriptions = new Set<Subscription>();
  private readonly stmts: Record<
    'readForwards' | 'readBackwards' | 'readAll' | 'headPosition' | 'dataVersion',
    Statement
  >;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  /** The group commit being written, if any: the next one starts when it is answered. */
  private inFlight: Promise<void> | null = null;
  /** Set by close(): no new appends; reads go on until the queued appends are written. */
  private closing: Promise<void> | null = null;
  private closed = false;
  private lastPage: {
    readonly after: bigint;
    readonly limit: number;
    readonly generation: number;
    readonly dataVersion: bigint;
    readonly events: readonly RecordedEvent[];
  } | null = null;
  private readonly counters = { appends: 0, commits: 0 };
  /** This store's own latest commits: a caught-up subscription reads what was just committed from here. */
  private readonly recent: RecentCommits;
  private readonly pageReads = { file: 0, recent: 0 };

  constructor(private readonly config: SqliteEventStoreConfig) {
    this.db = openConnection(config);
    this.recent = new RecentCommits(config.upcasters);
    try {
      this.stmts = {
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
        dataVersion: this.db.prepare('PRAGMA data_version').pluck(),
      };
      // A read-only store has nothing to write: its appends fail on its own connection with STORE_READ_ONLY.
      // With a thread, its loss never stops the appends: they go on, inline, and the observer is told.
      const lost = (l: ThreadLost): void => config.observer?.writerThreadLost?.(l);
      this.writer =
        config.readonly || !config.writer || config.writer === 'inline'
          ? new InlineWriter(this.db)
          : new AdaptiveWriter(
              this.db,
              config,
              config.writer === 'worker' ? ALWAYS_THREAD : config.commitPlace,
              lost,
            );
    } catch (error) {
      this.db.close();
      throw mapError(error, `Cannot open the event store at ${config.file}`);
    }
  }

  appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    try {
      this.assertOpen();
      if (this.closing) throw new EventStoreUnavailableError('STORE_CLOSED', 'The event store is closing');
      validateStreamName(stream);
      const expected = validateExpectedRevision(options.expectedRevision);
      const prepared = prepareEvents(events);
      return new Promise<AppendResult>((resolve, reject) => {
        this.queue.push({ stream, events: prepared, expected, resolve, reject });
        this.scheduleFlush();
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.inFlight) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /**
   * Writes every queued append in one transaction, each all-or-nothing, then settles their promises. Appends that
   * arrive while it is written wait for the next one (at most one group commit in flight).
   */
  private flush(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return Promise.resolve();
    const recordedAt = new Date().toISOString();
    const started = performance.now();
    const written = this.writer.write(batch, recordedAt).then(
      (outcomes) => {
        this.observeCommit(started, batch.length);
        this.counters.commits += 1;
        this.counters.appends += batch.length;
        this.recent.remember(batch, outcomes, recordedAt);
        this.notifier.notify();
        batch.forEach((item, i) => {
          const outcome = outcomes[i];
          if (outcome?.ok) item.resolve(outcome.result);
          else
            item.reject(
              outcome?.error ??
                new EventStoreUnavailableError('STORE_UNAVAILABLE', 'The writer returned no outcome'),
            );
        });
      },
      (error: unknown) => {
        const mapped = mapError(error, 'The append transaction failed; nothing in it was written');
        for (const item of batch) item.reject(mapped);
      },
    );
    this.inFlight = written.finally(() => {
      this.inFlight = null;
      if (this.queue.length > 0) this.scheduleFlush();
    });
    return this.inFlight;
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
    const read = normalizeReadAllOptions(options);
    let after = denseReadStart(read);
    let remaining = read.maxCount;
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
      readPage: (after, limit) => this.sharedPage(after, limit),
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

  /** Subscription pages read from the file and from this store's own latest commits. */
  subscriptionReads(): { file: number; recent: number } {
    return { ...this.pageReads };
  }

  /** Where the group commits run now (`writer`), and whether its thread was lost. */
  writerStatus(): WriterStatus {
    const writer = this.config.readonly ? 'inline' : (this.config.writer ?? 'inline');
    return { writer, threadLost: this.writer.threadLost() };
  }

  private observeCommit(started: number, appends: number): void {
    try {
      this.config.observer?.committed?.((performance.now() - started) / 1000, appends);
    } catch {
      // a failing observer never fails the commit
    }
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

  /** Writes the appends already made, ends subscriptions and closes the file (and the writer thread). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      while (this.inFlight || this.queue.length > 0) await this.flush();
      this.closed = true;
      const subscriptions = Promise.all([...this.subscriptions].map((s) => s.close()));
      await this.writer.close();
      await subscriptions;
      this.db.close();
    })();
    return this.closing;
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

  /**
   * A page for a subscription: from this store's own latest commits when they cover it (recentPage: no query),
   * else from the file. Caught-up subscriptions all ask for the page after the same position once a commit wakes
   * them: the first reads it, the others get the same (read-only) events, as long as nothing was committed in
   * between, by this store (its commit count) or by any other connection (`PRAGMA data_version` of this one).
   */
  private sharedPage(after: bigint, limit: number): readonly RecordedEvent[] {
    const recent = this.recent.page(after, limit);
    if (recent) {
      this.pageReads.recent += 1;
      return recent;
    }
    this.pageReads.file += 1;
    const cached = this.lastPage;
    const generation = this.notifier.generation;
    const dataVersion = this.query(() => this.stmts.dataVersion.get()) as bigint;
    if (
      cached &&
      cached.after === after &&
      cached.limit === limit &&
      cached.generation === generation &&
      cached.dataVersion === dataVersion
    )
      return cached.events;
    const events = this.page(after, limit);
    this.lastPage = { after, limit, generation, dataVersion, events };
    return events;
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
