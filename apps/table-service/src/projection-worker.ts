import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';

/** The compiled worker script; absent when the service runs from TypeScript sources (tests), which fold in process. */
export const WORKER_SCRIPT = join(__dirname, 'projections.worker.js');

export function projectionWorkerAvailable(): boolean {
  return existsSync(WORKER_SCRIPT);
}

/** Runs the projection runner in a worker thread for the life of the app (SQLite store only). */
export class ProjectionWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: Worker | null = null;
  private readonly log = new Logger('projections');

  constructor(
    private readonly eventsFile: string,
    private readonly readModelFile: string,
    private readonly batching: { readonly minCommitIntervalMs: number; readonly maxBatch: number },
  ) {}

  onApplicationBootstrap(): void {
    const worker = new Worker(WORKER_SCRIPT, {
      workerData: {
        eventsFile: this.eventsFile,
        readModelFile: this.readModelFile,
        minCommitIntervalMs: this.batching.minCommitIntervalMs,
        maxBatch: this.batching.maxBatch,
      },
    });
    worker.on('message', (m: { type: string; level?: 'warn' | 'error'; msg?: unknown }) => {
      if (m.type === 'log') this.log[m.level === 'error' ? 'error' : 'warn'](m.msg);
    });
    worker.on('error', (error) =>
      this.log.error({ msg: 'projection worker failed', error: String(error.message) }),
    );
    this.worker = worker;
  }

  /** Asks the runner to commit its batch and close, then ends the thread. */
  async onModuleDestroy(): Promise<void> {
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
