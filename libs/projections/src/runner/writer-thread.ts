/**
 * The rebuild's writer thread: runs the rebuild's SQL writes on its own connection to the read-model file, so
 * that SQLite's work (b-tree inserts, commits, WAL checkpoints) runs beside the folds instead of between them.
 *
 * The main thread folds and hands each statement (SQL and values) to `sink`; `flush()` posts what was handed
 * since the last flush; `exec()` posts a statement (BEGIN, COMMIT, CREATE INDEX) and resolves once it and
 * everything posted before it have run. Messages are handled one at a time, in order. After a failed write the
 * thread runs nothing more (but ROLLBACK) and answers every `exec` with the first error.
 *
 * The thread's code is plain JavaScript (eval), so it runs the same from the TypeScript sources (tests, tsx) and
 * from `dist/`.
 */
import { Worker } from 'node:worker_threads';
import type { SqlValue } from '../read-models/kernel/types';
import type { StatementSink } from './write-set';

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 10000');
db.pragma('synchronous = NORMAL');
const statements = [];
let failure = null;
parentPort.on('message', (m) => {
  if (m.kind === 'ops') {
    for (const sql of m.sqls) statements.push(db.prepare(sql));
    if (failure !== null) return;
    const ops = m.ops;
    try {
      for (let i = 0; i < ops.length; i += 2) statements[ops[i]].run(ops[i + 1]);
    } catch (error) {
      failure = String(error && error.message ? error.message : error);
    }
    return;
  }
  if (m.kind === 'exec') {
    if (failure !== null && m.sql !== 'ROLLBACK') {
      parentPort.postMessage({ id: m.id, error: failure });
      return;
    }
    try {
      if (m.sql === 'ROLLBACK' && !db.inTransaction) {
        // nothing to undo
      } else db.exec(m.sql);
      parentPort.postMessage({ id: m.id, error: failure });
    } catch (error) {
      failure = failure ?? String(error && error.message ? error.message : error);
      parentPort.postMessage({ id: m.id, error: failure });
    }
    return;
  }
  if (m.kind === 'close') {
    db.close();
    parentPort.postMessage({ id: m.id, error: null });
  }
});
`;

/** A write of the thread failed. */
export class RebuildWriteError extends Error {
  readonly code = 'REBUILD_WRITE_FAILED';
}

export class WriterThread {
  private readonly worker: Worker;
  private readonly sqlIndex = new Map<string, number>();
  private newSqls: string[] = [];
  private ops: unknown[] = [];
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private dead: Error | null = null;

  /** Statements for the thread (buffered until `flush`). */
  readonly sink: StatementSink = (sql: string, values: SqlValue[]) => {
    let index = this.sqlIndex.get(sql);
    if (index === undefined) {
      index = this.sqlIndex.size;
      this.sqlIndex.set(sql, index);
      this.newSqls.push(sql);
    }
    this.ops.push(index, values);
  };

  constructor(file: string) {
    this.worker = new Worker(THREAD, {
      eval: true,
      workerData: { file, driver: require.resolve('better-sqlite3') },
    });
    this.worker.on('message', (m: { id: number; error: string | null }) => {
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      if (m.error === null) p.resolve();
      else p.reject(new RebuildWriteError(m.error));
    });
    const fail = (error: Error): void => {
      this.dead = error;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new RebuildWriteError(`the writer thread exited (${code})`)));
  }

  /** Posts the statements handed to `sink` since the last flush. */
  flush(): void {
    if (this.ops.length === 0 && this.newSqls.length === 0) return;
    this.worker.postMessage({ kind: 'ops', sqls: this.newSqls, ops: this.ops });
    this.newSqls = [];
    this.ops = [];
  }

  /** Runs `sql` after everything posted so far; rejects with the first failure of any of them. */
  exec(sql: string): Promise<void> {
    this.flush();
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ kind: 'exec', id, sql });
    });
  }

  /** Closes the connection and ends the thread. */
  async close(): Promise<void> {
    if (!this.dead) {
      const id = this.nextId++;
      await new Promise<void>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.worker.postMessage({ kind: 'close', id });
      }).catch(() => undefined);
    }
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
