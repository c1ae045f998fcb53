/**
 * The projection runner in its own thread: it opens its own connection to the SQLite event store (seeing the
 * service's commits by polling, WAL lets it read while the service writes) and folds events into the read-model
 * file, so folding never competes with deciding bets on the service's event loop. Started by ProjectionWorker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEventStore } from '@coup/event-store';
import { ProjectionRunner } from '@coup/projections';

interface Data {
  readonly eventsFile: string;
  readonly readModelFile: string;
  readonly minCommitIntervalMs: number;
  readonly maxBatch: number;
}

const { eventsFile, readModelFile, minCommitIntervalMs, maxBatch } = workerData as Data;
const store = createEventStore({ kind: 'sqlite', file: eventsFile });
const runner = new ProjectionRunner({
  store,
  readModels: readModelFile,
  minCommitIntervalMs,
  maxBatch,
  headPosition: () => store.headPosition(),
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
