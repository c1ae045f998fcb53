// The SQLite store's writer thread (`writer: 'worker'`, and `'adaptive'` when busy): owns the write connection and runs each batch the store
// sends as one group commit, so the store's own thread keeps answering while the disk syncs. Messages in:
// { type: 'write', id, batch, recordedAt } and { type: 'close' }; out: { type: 'written', id, outcomes } with each
// outcome a result or a wire error, { type: 'failed', id, error } when the whole transaction failed, and
// { type: 'open-failed', error } when the file cannot be opened. On 'close' it closes the file and the thread ends.
import { parentPort, workerData } from 'node:worker_threads';
import {
  type ConnectionOptions,
  openConnection,
  SqliteWriter,
  toWire,
  type WriteRequest,
} from './sqlite-writer';

export interface WriteMessage {
  readonly type: 'write';
  readonly id: number;
  readonly batch: readonly WriteRequest[];
  readonly recordedAt: string;
}

const port = parentPort;
if (!port) throw new Error('sqlite-writer.worker runs as a worker thread');

let writer: SqliteWriter | null = null;
let close: () => void = () => undefined;
try {
  const db = openConnection(workerData as ConnectionOptions);
  writer = new SqliteWriter(db);
  close = () => db.close();
} catch (error) {
  port.postMessage({ type: 'open-failed', error: toWire(error as Error) });
}

port.on('message', (message: WriteMessage | { type: 'close' }) => {
  if (message.type === 'close') {
    close();
    port.close();
    return;
  }
  if (!writer) return;
  try {
    const outcomes = writer
      .write(message.batch, message.recordedAt)
      .map((o) => (o.ok ? o : { ok: false as const, error: toWire(o.error) }));
    port.postMessage({ type: 'written', id: message.id, outcomes });
  } catch (error) {
    port.postMessage({ type: 'failed', id: message.id, error: toWire(error as Error) });
  }
});
