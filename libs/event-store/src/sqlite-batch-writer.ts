/**
 * Where a SQLite store's group commits run: on the store's own thread and connection (InlineWriter), in a worker
 * thread with its own connection (WorkerWriter), so the store's event loop never waits for an fsync, or in either,
 * chosen per commit by the load (AdaptiveWriter).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { EventStoreUnavailableError } from './errors';
import type { SqliteEventStoreConfig } from './sqlite-config';
import {
  fromWire,
  mapError,
  SqliteWriter,
  type WireError,
  type WriteOutcome,
  type WriteRequest,
} from './sqlite-writer';
import type { WriteMessage } from './sqlite-writer.worker';
import type { AppendResult } from './types';

/** Runs group commits: on this thread, or in the writer thread. */
export interface BatchWriter {
  write(batch: readonly WriteRequest[], recordedAt: string): Promise<WriteOutcome[]>;
  close(): Promise<void>;
  /** When and why the writer thread was lost (its commits run on this thread since), if it was. */
  threadLost(): ThreadLost | null;
}

/** The writer thread died or could not open the file: the store commits on its own thread from then on. */
export interface ThreadLost {
  /** When the store first committed without it (ISO 8601). */
  readonly at: string;
  readonly reason: string;
}

export class InlineWriter implements BatchWriter {
  private readonly writer: SqliteWriter;
  constructor(db: Database.Database) {
    this.writer = new SqliteWriter(db);
  }
  write(batch: readonly WriteRequest[], recordedAt: string): Promise<WriteOutcome[]> {
    try {
      return Promise.resolve(this.writer.write(batch, recordedAt));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  async close(): Promise<void> {
    // the connection is the store's and closes with it
  }
  threadLost(): null {
    return null;
  }
}

/** The compiled worker next to this file, or (running from TypeScript sources: tests, tsx) the .ts through tsx. */
function startWriterThread(config: SqliteEventStoreConfig): Worker {
  const workerData = {
    file: config.file,
    busyTimeoutMs: config.busyTimeoutMs,
    maxPageCount: config.maxPageCount,
  };
  const compiled = join(__dirname, 'sqlite-writer.worker.js');
  if (existsSync(compiled)) return new Worker(compiled, { workerData });
  const source = join(__dirname, 'sqlite-writer.worker.ts');
  const tsx = require.resolve('tsx/cjs/api');
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});`, {
    eval: true,
    workerData,
  });
}

type FromWriter =
  | { type: 'open-failed'; error: WireError }
  | {
      type: 'written';
      id: number;
      outcomes: ({ ok: true; result: AppendResult } | { ok: false; error: WireError })[];
    }
  | { type: 'failed'; id: number; error: WireError };

/**
 * The writer thread seen from the store: one batch in flight at a time (the store sends the next when this one is
 * answered). If the thread dies, the batch in flight and every later write reject with STORE_UNAVAILABLE (the
 * batch in flight may or may not have been committed, as with any lost connection; an idempotent retry tells).
 * The store never uses it alone: an AdaptiveWriter holds it and commits on the store's own thread once it is lost.
 */
export class WorkerWriter implements BatchWriter {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (o: WriteOutcome[]) => void; reject: (e: unknown) => void }
  >();
  private broken: Error | null = null;
  private closed: Promise<void> | null = null;

  constructor(
    config: SqliteEventStoreConfig,
    /** Told once when the thread dies or cannot open the file (not when it ends by `close`). */
    private readonly onBroken: (error: Error) => void = () => undefined,
  ) {
    this.worker = startWriterThread(config);
    this.worker.on('message', (message: FromWriter) => this.onMessage(message));
    this.worker.on('error', (error) => this.fail(mapError(error, 'The event store writer thread failed')));
    this.worker.on('exit', () =>
      this.fail(new EventStoreUnavailableError('STORE_UNAVAILABLE', 'The event store writer thread stopped')),
    );
  }

  write(batch: readonly WriteRequest[], recordedAt: string): Promise<WriteOutcome[]> {
    if (this.broken) return Promise.reject(this.broken);
    const id = this.nextId++;
    return new Promise<WriteOutcome[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const message: WriteMessage = {
        type: 'write',
        id,
        batch: batch.map(({ stream, events, expected }) => ({ stream, events, expected })),
        recordedAt,
      };
      this.worker.postMessage(message);
    });
  }

  /** The thread died or failed to open: every later write rejects. */
  isBroken(): boolean {
    return this.broken !== null;
  }

  /** Why the thread ended or failed to open (null while it runs). */
  brokenBy(): Error | null {
    return this.broken;
  }

  threadLost(): ThreadLost | null {
    return null;
  }

  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.broken) {
        void this.worker.terminate().then(() => resolve());
        return;
      }
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ type: 'close' });
    });
    return this.closed;
  }

  private onMessage(message: FromWriter): void {
    switch (message.type) {
      case 'open-failed':
        this.fail(fromWire(message.error));
        return;
      case 'written': {
        const waiter = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        waiter?.resolve(
          message.outcomes.map((o) => (o.ok ? o : { ok: false as const, error: fromWire(o.error) })),
        );
        return;
      }
      case 'failed': {
        const waiter = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        waiter?.reject(fromWire(message.error));
        return;
      }
      default: {
        const unknown: never = message;
        void unknown;
      }
    }
  }

  private fail(error: Error): void {
    const first = this.broken === null;
    this.broken ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.broken);
    this.waiting.clear();
    if (first && !this.closed) this.onBroken(this.broken);
  }
}

/** Where the adaptive writer runs the next group commit. */
export type CommitPlace = 'inline' | 'worker';

/** What the adaptive writer's policy sees: this thread's recent time in inline commits, and the clock. */
export interface CommitLoad {
  /** Milliseconds this thread spent in inline commits, decayed with a one-second time constant. */
  readonly inlineMsPerSecond: number;
  /** The end of the cool-down after an inline commit slower than SLOW_INLINE_COMMIT_MS (performance.now()). */
  readonly slowUntil: number;
  readonly now: number;
  /** How many appends the group commit holds. */
  readonly appends: number;
  /** Group commits run inline since the last one in the thread. */
  readonly inlineSinceWorker: number;
}

/** Inline commits may hold this thread this long per second (10 %); past it the thread takes them. */
export const INLINE_BUDGET_MS_PER_S = 100;
/** An inline commit slower than this (a busy disk) sends the commits to the thread for a while. */
export const SLOW_INLINE_COMMIT_MS = 25;
export const SLOW_COOLDOWN_MS = 5_000;
/**
 * The request thread's connection never checkpoints the log (a checkpoint copies pages and syncs the file: tens of
 * ms); the thread's does (SQLite's automatic checkpoint at 1,000 pages, when it commits), so it gets one group
 * commit in this many at least.
 */
export const CHECKPOINT_EVERY = 100;
/** Without the thread, a commit refused another process's write lock tries again after 1, 2, 4 ... this many ms. */
const LOCK_RETRY_MAX_MS = 25;

/** `writer: 'worker'`: every group commit in the thread while it runs. */
export const ALWAYS_THREAD = (): CommitPlace => 'worker';

/** The default policy: inline while commits are few and fast, else in the thread. */
export function defaultCommitPlace(load: CommitLoad): CommitPlace {
  if (load.now < load.slowUntil || load.inlineSinceWorker >= CHECKPOINT_EVERY) return 'worker';
  return load.inlineMsPerSecond < INLINE_BUDGET_MS_PER_S ? 'inline' : 'worker';
}

/**
 * Commits on this thread while they are few and fast, in the writer thread when they are not (ADR-12): a quiet
 * store (a floor of tables taking one bet per commit) saves the message each way and the thread's wake-up, and a
 * busy one (or a slow disk) keeps its event loop free of fsyncs. Chosen per group commit; the store has one in
 * flight at a time, so its two connections never write at once, and each drops its cached heads when it sees the
 * other's commits (`PRAGMA data_version`), as with another process. An inline commit never waits for another
 * process's write lock: when one holds it, the commit goes to the thread, which waits. Only the thread's connection
 * checkpoints the log (CHECKPOINT_EVERY). If the thread dies or cannot open the file, commits stay inline, and this
 * connection checkpoints.
 */
export class AdaptiveWriter implements BatchWriter {
  private readonly inline: SqliteWriter;
  private readonly worker: WorkerWriter;
  private readonly busyTimeoutMs: number;
  private inlineMs = 0;
  private lastAt = performance.now();
  private slowUntil = -Infinity;
  private inlineSinceWorker = 0;
  private checkpointsInline = false;
  private lost: ThreadLost | null = null;
  /** How many group commits ran where (tests read it). */
  readonly commits = { inline: 0, worker: 0 };

  constructor(
    private readonly db: Database.Database,
    config: SqliteEventStoreConfig,
    private readonly place: (load: CommitLoad) => CommitPlace = defaultCommitPlace,
    /** Told once, when the thread is found lost (the service logs it; health reports it). */
    private readonly onThreadLost: (lost: ThreadLost) => void = () => undefined,
  ) {
    this.inline = new SqliteWriter(db);
    this.worker = new WorkerWriter(config, (error) => this.threadGone(error));
    this.busyTimeoutMs = Math.max(0, Math.floor(config.busyTimeoutMs ?? 5000));
    db.pragma('wal_autocheckpoint = 0');
  }

  write(batch: readonly WriteRequest[], recordedAt: string): Promise<WriteOutcome[]> {
    const now = performance.now();
    this.inlineMs *= Math.exp((this.lastAt - now) / 1000);
    this.lastAt = now;
    if (this.worker.isBroken()) return this.inlineOnly(batch, recordedAt);
    if (this.choose(now, batch.length) === 'inline') {
      try {
        const outcomes = this.inline.writeIfFree(batch, recordedAt, this.busyTimeoutMs);
        this.noteInline(now);
        // null: another process holds the write lock; the thread waits for it instead of this thread
        if (outcomes !== null) {
          this.commits.inline += 1;
          this.inlineSinceWorker += 1;
          return Promise.resolve(outcomes);
        }
      } catch (error) {
        this.noteInline(now);
        return Promise.reject(error);
      }
    }
    this.commits.worker += 1;
    this.inlineSinceWorker = 0;
    return this.worker.write(batch, recordedAt);
  }

  close(): Promise<void> {
    return this.worker.close();
  }

  threadLost(): ThreadLost | null {
    return this.lost;
  }

  /** The policy's choice (the thread if a custom policy throws). */
  private choose(now: number, appends: number): CommitPlace {
    try {
      return this.place({
        inlineMsPerSecond: this.inlineMs,
        slowUntil: this.slowUntil,
        now,
        appends,
        inlineSinceWorker: this.inlineSinceWorker,
      });
    } catch {
      return 'worker';
    }
  }

  /** Counts an inline commit (or its attempt) begun at `started`: its time, and whether it was slow. */
  private noteInline(started: number): void {
    const took = performance.now() - started;
    this.inlineMs += took;
    if (took > SLOW_INLINE_COMMIT_MS) this.slowUntil = started + took + SLOW_COOLDOWN_MS;
  }

  /** The thread died or could not open the file (told at once): this connection checkpoints again; told once. */
  private threadGone(error: Error | null): void {
    if (this.lost) return;
    this.lost = { at: new Date().toISOString(), reason: error?.message ?? 'the writer thread stopped' };
    try {
      this.db.pragma('wal_autocheckpoint = 1000');
      this.checkpointsInline = true;
    } catch {
      // the store is closing: nothing more to checkpoint here
    }
    try {
      this.onThreadLost(this.lost);
    } catch {
      // a failing listener never fails the store
    }
  }

  /** Without the thread: inline, waiting for another process's write lock without holding this thread. */
  private async inlineOnly(batch: readonly WriteRequest[], recordedAt: string): Promise<WriteOutcome[]> {
    this.threadGone(this.worker.brokenBy());
    if (!this.checkpointsInline) {
      this.db.pragma('wal_autocheckpoint = 1000');
      this.checkpointsInline = true;
    }
    this.commits.inline += 1;
    const deadline = performance.now() + this.busyTimeoutMs;
    for (let wait = 1; ; wait = Math.min(wait * 2, LOCK_RETRY_MAX_MS)) {
      const outcomes = this.inline.writeIfFree(batch, recordedAt, this.busyTimeoutMs);
      if (outcomes !== null) return outcomes;
      const left = deadline - performance.now();
      if (left <= 0)
        throw mapError(
          Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
          'The append transaction failed; nothing in it was written',
        );
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  }
}
