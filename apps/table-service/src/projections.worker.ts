/**
 * The projection runner in its own thread: it opens its own connection to the event store (SQLite: the service's
 * commits are seen by polling, WAL lets it read while the service writes; EventStoreDB: a client of its own,
 * subscribed to $all) and folds events into the read models (a SQLite file or PostgreSQL), so folding never competes
 * with deciding bets on the service's event loop. Started by ProjectionWorker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEventStore } from '@coup/event-store';
import { type GamingDayConfig, ProjectionRunner, projectionsFor } from '@coup/projections';
import type { WorkerStore } from './projection-worker';

interface Data {
  readonly store: WorkerStore;
  /** A SQLite file or a `postgres://` URL. */
  readonly readModels: string;
  readonly minCommitIntervalMs: number;
  readonly maxBatch: number;
  readonly gamingDay: GamingDayConfig;
}

const data = workerData as Data;
const store = createEventStore(data.store);
const post = (level: 'warn' | 'error') => (msg: Record<string, unknown>) =>
  parentPort?.postMessage({ type: 'log', level, msg });
const runner = new ProjectionRunner({
  store,
  readModels: data.readModels,
  projections: projectionsFor(data.gamingDay),
  minCommitIntervalMs: data.minCommitIntervalMs,
  maxBatch: data.maxBatch,
  // SQLite's positions count its events (lag = head - checkpoint); EventStoreDB's are byte offsets, so the runner
  // counts the events after each checkpoint instead.
  ...(data.store.kind === 'sqlite' ? { headPosition: () => store.headPosition() } : {}),
  logger: { info: () => undefined, warn: post('warn'), error: post('error') },
});
let stopping = false;
parentPort?.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  stopping = true;
  void runner
    .close()
    .then(() => store.close())
    .then(() => parentPort?.postMessage({ type: 'stopped' }));
});
// Read models that cannot be opened (PostgreSQL not answering yet) end the thread: ProjectionWorker starts it again.
runner.ready().then(
  () => {
    if (stopping) return;
    runner.start();
    parentPort?.postMessage({ type: 'started' });
  },
  (error: unknown) => {
    post('error')({ msg: 'read models cannot be opened: the projection thread ends', error: String(error) });
    void Promise.allSettled([runner.close(), store.close()]).then(() => process.exit(1));
  },
);
