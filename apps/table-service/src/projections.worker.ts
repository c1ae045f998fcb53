/**
 * The projection runner in its own thread: it opens its own connection to the event store (SQLite: the service's
 * commits are seen by polling, WAL lets it read while the service writes; EventStoreDB: a client of its own,
 * subscribed to $all) and folds events into the read-model file, so folding never competes with deciding bets on
 * the service's event loop. Started by ProjectionWorker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEventStore } from '@coup/event-store';
import { type GamingDayConfig, ProjectionRunner, projectionsFor } from '@coup/projections';
import type { WorkerStore } from './projection-worker';

interface Data {
  readonly store: WorkerStore;
  readonly readModelFile: string;
  readonly minCommitIntervalMs: number;
  readonly maxBatch: number;
  readonly gamingDay: GamingDayConfig;
}

const data = workerData as Data;
const store = createEventStore(data.store);
const runner = new ProjectionRunner({
  store,
  readModels: data.readModelFile,
  projections: projectionsFor(data.gamingDay),
  minCommitIntervalMs: data.minCommitIntervalMs,
  maxBatch: data.maxBatch,
  // SQLite's positions count its events (lag = head - checkpoint); EventStoreDB's are byte offsets, so the runner
  // counts the events after each checkpoint instead.
  ...(data.store.kind === 'sqlite' ? { headPosition: () => store.headPosition() } : {}),
  logger: {
    info: () => undefined,
    warn: (msg) => parentPort?.postMessage({ type: 'log', level: 'warn', msg }),
    error: (msg) => parentPort?.postMessage({ type: 'log', level: 'error', msg }),
  },
});
runner.start();
parentPort?.postMessage({ type: 'started' });
parentPort?.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  void runner
    .close()
    .then(() => store.close())
    .then(() => parentPort?.postMessage({ type: 'stopped' }));
});
