import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { GamingDayConfig } from '@coup/projections';
import type { ServiceConfig } from './config/config';

/** The compiled worker script; absent when the service runs from TypeScript sources (tests), which fold in process. */
export const WORKER_SCRIPT = join(__dirname, 'projections.worker.js');

export function projectionWorkerAvailable(): boolean {
  return existsSync(WORKER_SCRIPT);
}

/**
 * The store the worker thread opens for itself: the SQLite file (read beside the service's writer, WAL) or the
 * EventStoreDB connection string. It reads the events as stored (unrevealed seeds sealed), as the read side does
 * in this thread, so it needs no seed key. Null for the memory store, which no other thread can see.
 */
export type WorkerStore =
  | {
      readonly kind: 'sqlite';
      readonly file: string;
      /** How often it looks for the service's new commits (COUP_PROJECTION_POLL_MS). */
      readonly pollIntervalMs: number;
    }
  | { readonly kind: 'eventstoredb'; readonly connectionString: string };

export function workerStoreOf(
  store: ServiceConfig['eventStore'],
  pollIntervalMs: number,
): WorkerStore | null {
  if (store.kind === 'sqlite') return { kind: 'sqlite', file: store.file, pollIntervalMs };
  if (store.kind === 'eventstoredb')
    return { kind: 'eventstoredb', connectionString: store.connectionString };
  return null;
}

/** The first and the longest wait before a worker thread that ended is started again. */
const RESTART_MS = { first: 500, max: 30_000 } as const;

/**
 * Runs the projection runner in a worker thread for the life of the app, on a store connection of its own, into
 * the read models `readModels` names (a SQLite file or a `postgres://` URL). A thread that ends before the app
 * stops (its read models could not be opened, PostgreSQL not there yet; a crash) is started again, after a wait that
 * doubles up to 30 s, and logged.
 */
export class ProjectionWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: Worker | null = null;
  private stopping = false;
  private restartMs: number = RESTART_MS.first;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly log = new Logger('projections');

  constructor(
    private readonly store: WorkerStore,
    private readonly readModels: string,
    /** How the runner batches, and the gaming day the analysts' model is folded with. */
    private readonly batching: {
      readonly minCommitIntervalMs: number;
      readonly maxBatch: number;
      readonly gamingDay: GamingDayConfig;
    },
  ) {}

  onApplicationBootstrap(): void {
    this.start();
  }

  private start(): void {
    this.restartTimer = null;
    const worker = new Worker(WORKER_SCRIPT, {
      workerData: {
        store: this.store,
        readModels: this.readModels,
        minCommitIntervalMs: this.batching.minCommitIntervalMs,
        maxBatch: this.batching.maxBatch,
        gamingDay: this.batching.gamingDay,
      },
    });
    worker.on('message', (m: { type: string; level?: 'warn' | 'error'; msg?: unknown }) => {
      if (m.type === 'log') this.log[m.level === 'error' ? 'error' : 'warn'](m.msg);
      // folding: the next end starts the waits over
      if (m.type === 'started') this.restartMs = RESTART_MS.first;
    });
    worker.on('error', (error) =>
      this.log.error({ msg: 'projection worker failed', error: String(error.message) }),
    );
    worker.on('exit', (code) => {
      if (this.stopping || this.worker !== worker) return;
      this.worker = null;
      this.log.error({ msg: 'projection worker ended: starting it again', code, inMs: this.restartMs });
      this.restartTimer = setTimeout(() => this.start(), this.restartMs);
      this.restartMs = Math.min(this.restartMs * 2, RESTART_MS.max);
    });
    this.worker = worker;
  }

  /** Asks the runner to commit its batch and close, then ends the thread. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      worker.on('message', (m: { type: string }) => {
        if (m.type === 'stopped') {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.on('exit', () => resolve());
      worker.postMessage({ type: 'stop' });
    });
    await worker.terminate();
  }
}
