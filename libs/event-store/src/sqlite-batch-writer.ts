/**
 * Where a SQLite store's group commits run: on the store's own thread and connection (InlineWriter), or in a
 * worker thread with its own connection (WorkerWriter), so the store's event loop never waits for an fsync.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { EventStoreUnavailableError } from './errors';
import type { SqliteEventStoreConfig } from './sqlite';
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
 * answered). If the thread dies, the batch in flight and every later append reject with STORE_UNAVAILABLE (the
 * batch in flight may or may not have been committed, as with any lost connection; an idempotent retry tells).
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

  constructor(config: SqliteEventStoreConfig) {
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
    this.broken ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.broken);
    this.waiting.clear();
  }
}
