/**
 * The SQLite batch engine: folds a batch of recorded events through every projection and commits all the
 * read-model writes, the projections' states and their checkpoints in ONE SQLite transaction. Either the whole
 * batch is in the read models with the checkpoints after it, or none of it is: after a crash nothing is applied
 * twice or skipped. The in-memory state cache is only updated once the transaction has committed. Synchronous
 * (better-sqlite3); the storage port's engine (`storage-engine.ts`) does the same over any storage.
 */
import type { RecordedEvent } from '@coup/event-store';
import type { AnyProjection, Row } from '../read-models/kernel/types';
import { BatchFolder, type Checkpoint, CheckpointMovedError, type Moved, type Slot } from './batch-folder';
import { CHECKPOINTS, type Db, readCheckpoint, stateTable } from './db';
import { type StatementSink, type TableWriter, WriteSet, compileTables } from './write-set';

export { CheckpointMovedError, toProjectionEvent } from './batch-folder';

export interface EngineOptions {
  readonly db: Db;
  readonly projections: readonly AnyProjection[];
  /** Table names to write (rebuilds write `rb_` tables); identity by default. */
  readonly rename?: (name: string) => string;
  /**
   * Live mode (default): checkpoints live in the checkpoint table and each commit checks that no other process
   * moved them. Rebuild mode (false): checkpoints start at 0 in memory; the rebuild swaps them in at the end.
   */
  readonly persistCheckpoints?: boolean;
  /**
   * Rebuild mode: the rows of `materialize` and the fold states (`<prefix>_state`) of the keys a batch changed
   * are not written with the batch but by {@link ProjectionEngine.flushStates}, which the rebuild calls before
   * each commit. They mirror the latest state, so writing them once per commit instead of once per batch gives
   * the same tables (intermediate versions were overwritten anyway) with a fraction of the writes. The other
   * writes of the batches are collected too and applied by `flushStates` (counters summed and coalesced rows
   * written once per commit; nothing reads the `rb_` tables before the swap).
   */
  readonly deferStates?: boolean;
  /**
   * Rebuild with a writer thread: the writes go to this sink (which runs them in order on another connection,
   * inside the transactions the rebuild opens there) instead of a transaction on `db`. Only without
   * persisted checkpoints.
   */
  readonly sink?: StatementSink;
  readonly now?: () => Date;
}

/** The key's stored state, read with prepared statements (the state row; a `storage`'s rows). */
export function sqliteLoader(
  db: Db,
  projections: readonly AnyProjection[],
  rename: (name: string) => string,
): (slot: Slot, key: string) => { state: string; rows?: Row[] } | null {
  const loaders = new Map(
    projections.map((p) => {
      const stmt = db.prepare(`SELECT state FROM "${rename(stateTable(p.prefix))}" WHERE key = ?`);
      const storage = p.storage;
      const rowsDef = storage ? p.tables.find((t) => t.name === storage.rowsTable) : undefined;
      if (storage && !rowsDef) throw new Error(`${p.name}: no table ${storage.rowsTable} for its storage`);
      const rowsStmt =
        storage && rowsDef
          ? db.prepare(
              `SELECT * FROM "${rename(rowsDef.name)}" WHERE "${storage.keyColumn}" = ? ORDER BY ${rowsDef.primaryKey.map((c) => `"${c}"`).join(', ')}`,
            )
          : null;
      return [
        p,
        (key: string) => {
          const row = stmt.get(key) as { state: string } | undefined;
          if (row === undefined) return null;
          return rowsStmt ? { state: row.state, rows: rowsStmt.all(key) as Row[] } : row;
        },
      ] as const;
    }),
  );
  return (slot, key) => (loaders.get(slot.p) as (key: string) => { state: string } | null)(key);
}

/**
 * Applies `writes` and moves the checkpoints of `moved` to `last` in one SQLite transaction, refused
 * (CheckpointMovedError) when another writer moved a checkpoint since it was read.
 */
export function commitSqlite(
  db: Db,
  writes: WriteSet,
  moved: readonly { readonly name: string; readonly from: Checkpoint }[],
  last: number,
  at: string,
): void {
  db.transaction(() => {
    for (const { name, from } of moved) {
      const row = readCheckpoint(db, name);
      if (!row || row.position !== from.position || row.generation !== from.generation) {
        throw new CheckpointMovedError(name);
      }
    }
    writes.apply();
    const update = db.prepare(`UPDATE ${CHECKPOINTS} SET position = ?, updated_at = ? WHERE name = ?`);
    for (const { name } of moved) update.run(last, at, name);
  }).immediate();
}

/** The stored checkpoints of some projections (SQLite). */
export function sqliteCheckpoints(db: Db, projections: readonly AnyProjection[]): Map<string, Checkpoint> {
  const out = new Map<string, Checkpoint>();
  for (const p of projections) {
    const row = readCheckpoint(db, p.name);
    if (row) out.set(p.name, { position: row.position, generation: row.generation });
  }
  return out;
}

/** The names and checkpoints before the batch of the projections a batch moves. */
export const movedCheckpoints = (moved: readonly Moved[]): { name: string; from: Checkpoint }[] =>
  moved.map((m) => ({ name: m.slot.p.name, from: m.from }));

export class ProjectionEngine {
  readonly projections: readonly AnyProjection[];
  private readonly db: Db;
  private readonly persist: boolean;
  private readonly tables: Map<string, TableWriter>;
  private readonly folder: BatchFolder;
  private readonly now: () => Date;
  private readonly remote: boolean;
  /** deferStates: the writes collected since the last flushStates (applied by it). */
  private readonly collected: WriteSet | null;
  /** Events applied (events of any stream that moved at least one checkpoint). */
  eventsApplied = 0;

  constructor(options: EngineOptions) {
    this.db = options.db;
    this.projections = options.projections;
    this.persist = options.persistCheckpoints ?? true;
    const defer = options.deferStates ?? false;
    this.remote = options.sink !== undefined;
    if (this.remote && this.persist)
      throw new Error('a statement sink is only for rebuilds (no checkpoints)');
    this.now = options.now ?? (() => new Date());
    const rename = options.rename ?? ((n: string) => n);
    this.tables = compileTables(this.db, this.projections, rename, options.sink);
    this.collected = defer ? new WriteSet(this.tables) : null;
    this.folder = new BatchFolder(this.projections, defer, sqliteLoader(this.db, this.projections, rename));
    this.reset();
  }

  /** Drops the cached states and reloads the checkpoints (after a failed or refused commit). */
  reset(): void {
    this.folder.reset(this.persist ? sqliteCheckpoints(this.db, this.projections) : undefined);
  }

  checkpoint(name: string): number {
    return this.folder.checkpoint(name);
  }

  /** The lowest checkpoint: where reading must resume. */
  minCheckpoint(): number {
    return this.folder.minCheckpoint();
  }

  /**
   * Folds `events` (in global order) and commits. Throws (with nothing committed, and nothing of the batch's in
   * the cache: it holds committed states only, some perhaps loaded for this batch) on any failure, including
   * CheckpointMovedError.
   */
  applyBatch(events: readonly RecordedEvent[]): void {
    const plan = this.folder.plan(events);
    if (plan === null) return;
    // rebuild (deferStates): the writes of every batch until the next flushStates are collected in one set
    // (nothing reads the rb_ tables before the swap), so counters and coalesced rows are summed over a commit
    const writes = this.collected ?? new WriteSet(this.tables);
    this.folder.fold(events, plan, writes);
    if (this.collected !== null) {
      // applied by flushStates; with a writer thread, the ordered writes go now (the keyed ones, summed or
      // coalesced over the commit, still at flushStates): the thread writes them while the next batch folds,
      // and their values are not held here for the rest of the commit
      if (this.remote) this.collected.applyOrdered();
    } else if (this.remote) writes.apply();
    else if (this.persist)
      commitSqlite(this.db, writes, movedCheckpoints(plan.moved), plan.last, this.now().toISOString());
    else this.db.transaction(() => writes.apply()).immediate();
    this.folder.keep(plan);
    this.eventsApplied += events.length;
  }

  /**
   * deferStates: writes the materialized rows and state rows of every key changed since the last flush (call
   * it inside the transaction that commits the batches, before the commit).
   */
  flushStates(): void {
    const writes = this.collected ?? new WriteSet(this.tables);
    this.folder.flushStates(writes);
    writes.apply();
  }
}

/** The prefix of the table streams the projections fold (defined once, in @coup/table). */
export { TABLE_STREAM_PREFIX } from '@coup/table';
