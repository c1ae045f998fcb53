// The SQLite store's configuration and what it tells its owner (sqlite.ts).
import type { CommitLoad, CommitPlace, ThreadLost } from './sqlite-batch-writer';
import type { UpcasterRegistry } from './upcasting';

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
  /**
   * Where group commits run: `'inline'` (default) on this thread, `'worker'` in a worker thread of their own so
   * this thread never blocks on an fsync (the table service's default), `'adaptive'` on this thread while commits
   * are few and fast and in the thread when they are not (ADR-12). Same durability either way. A lost thread
   * (it died, or could not open the file) never stops the appends: they go on on this thread (`writerStatus()`).
   */
  writer?: 'inline' | 'worker' | 'adaptive';
  /** With `writer: 'adaptive'`, where each group commit runs (default: by the load; tests force patterns). */
  commitPlace?: (load: CommitLoad) => CommitPlace;
  /** Told of the store's commits and of a lost writer thread (the service's metrics and log). */
  observer?: SqliteStoreObserver;
  upcasters?: UpcasterRegistry;
}

/** What a SQLite store tells its owner as it runs. */
export interface SqliteStoreObserver {
  /** A group commit answered: its seconds from start to answer (the thread's message each way, insert, fsync). */
  committed?(seconds: number, appends: number): void;
  /**
   * The writer thread (`worker`, `adaptive`) died or could not open the file: the store commits on its own
   * thread from now on (same durability; its event loop waits for each fsync). Told once.
   */
  writerThreadLost?(lost: ThreadLost): void;
}

/** Where a store's group commits run now, for health checks. */
export interface WriterStatus {
  readonly writer: 'inline' | 'worker' | 'adaptive';
  /** The writer thread was lost: since when, and why (null while it runs, or without one). */
  readonly threadLost: ThreadLost | null;
}
