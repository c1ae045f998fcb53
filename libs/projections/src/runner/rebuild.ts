/**
 * Rebuild: refolds projections from position 0 into fresh `rb_` tables while the live tables keep serving (and
 * a running service's runner keeps updating them), then swaps them in with one transaction: the live tables are
 * dropped, the rebuilt ones renamed, and the checkpoint set to where the rebuild stopped with a new generation.
 * A runner in another process notices the new generation at its next commit and resumes from there.
 */
import type { EventStore, RecordedEvent } from '@coup/event-store';
import { PROJECTIONS } from '../read-models';
import type { AnyProjection } from '../read-models/kernel/types';
import {
  CHECKPOINTS,
  type Db,
  REBUILD_PREFIX,
  createTableSql,
  dropTables,
  ensureCheckpointTable,
  ensureProjection,
  projectionTables,
  readCheckpoint,
} from './db';
import { ProjectionEngine } from './engine';
import { REPORT_VIEW_NAMES_SQLITE } from '../reports/views';
import { ident } from '../sql/dialect';
import { createViewsSql, prepareRebuildViews, restoreReportViews, withReportViews } from './report-views';
import type { ReadModelStorage } from './storage';
import { WriterThread } from './writer-thread';

export interface RebuildOptions {
  readonly store: EventStore;
  /** The SQLite read-model file's connection (or `storage`). */
  readonly db?: Db;
  /** The storage to rebuild in (SQLite or PostgreSQL; instead of `db`). */
  readonly storage?: ReadModelStorage;
  /** Projection names (default: all of `projections`). */
  readonly names?: readonly string[];
  /**
   * The projections `names` are chosen from (default PROJECTIONS): give the service's, `projectionsFor(its gaming
   * day)`, or the analysts' model is refolded with the default gaming day.
   */
  readonly projections?: readonly AnyProjection[];
  /** Events per transaction. Default 1000 (measured fastest: fewer events held across a batch, less GC). */
  readonly page?: number;
  /**
   * Events per commit (default 10,000): pages are folded 1,000 at a time (less held in memory) but committed
   * together (fewer commits). The rb_ tables are not live, so a bigger transaction costs readers nothing.
   */
  readonly commitEvery?: number;
  /** Called after each folded page with the position reached and events so far. */
  readonly onProgress?: (progress: { position: number; events: number }) => void;
  /**
   * Where the SQLite writes run: 'in-process' (default: this thread, this connection) or 'thread' (a worker
   * thread with its own connection to the same file, so the writes run beside the folds; needs a file, not
   * `:memory:`). The same tables either way (tested).
   */
  readonly writer?: 'in-process' | 'thread';
  /**
   * PostgreSQL: how long the swap waits for a table a reader's query holds before it gives way and tries again
   * (default 2,000 ms; readers arriving meanwhile wait behind it).
   */
  readonly swapLockTimeoutMs?: number;
  readonly now?: () => Date;
}

export interface RebuildResult {
  readonly projections: readonly string[];
  readonly events: number;
  readonly position: number;
  readonly seconds: number;
}

export class UnknownProjectionError extends Error {
  readonly code = 'UNKNOWN_PROJECTION';
  constructor(name: string) {
    super(`Unknown projection '${name}' (known: ${PROJECTIONS.map((p) => p.name).join(', ')})`);
  }
}

/** The projections of `from` with these names (all when none), or UnknownProjectionError. */
export function selectProjections(
  names?: readonly string[],
  from: readonly AnyProjection[] = PROJECTIONS,
): AnyProjection[] {
  if (!names || names.length === 0) return [...from];
  return names.map((n) => {
    const p = from.find((x) => x.name === n);
    if (!p) throw new UnknownProjectionError(n);
    return p;
  });
}

/** The rb_ tables built so far: the generation each projection's tables get, and their indexes, built last. */
interface RebuildTables {
  readonly generations: Map<string, number>;
  readonly deferredIndexes: string[];
}

/** Fresh rb_ tables, with index names of the next generation (they keep them after the rename). */
function createRebuildTables(db: Db, projections: readonly AnyProjection[]): RebuildTables {
  const generations = new Map<string, number>();
  const deferredIndexes: string[] = [];
  for (const p of projections) {
    const current = readCheckpoint(db, p.name) ?? ensureProjection(db, p);
    const generation = current.generation + 1;
    generations.set(p.name, generation);
    const defs = projectionTables(p);
    db.transaction(() => {
      dropTables(
        db,
        defs.map((d) => REBUILD_PREFIX + d.name),
      );
      // the table only: its indexes are built once the rows are in (one sorted pass instead of a b-tree
      // insert per row), before the swap
      for (const def of defs) {
        const [table, ...indexes] = createTableSql(def, REBUILD_PREFIX + def.name, `g${generation}`);
        if (table !== undefined) db.exec(table);
        deferredIndexes.push(...indexes);
      }
    })();
  }
  return { generations, deferredIndexes };
}

/**
 * The fold of a rebuild: reads the store page by page from the engine's checkpoint into the rb_ tables,
 * committing every `commitEvery` events, then builds the deferred indexes.
 */
class RebuildFold {
  private events = 0;
  private uncommitted = 0;
  private readonly page: number;
  private readonly commitEvery: number;

  constructor(
    private readonly options: RebuildOptions & { readonly db: Db },
    private readonly engine: ProjectionEngine,
    private readonly deferredIndexes: readonly string[],
  ) {
    this.page = options.page ?? 1000;
    this.commitEvery = options.commitEvery ?? 10_000;
  }

  /** Folds on this thread: writes in a transaction of this connection (savepoints per fold), committed every `commitEvery`. */
  async foldHere(): Promise<number> {
    const { db } = this.options;
    const engine = this.engine;
    try {
      for (;;) {
        const batch = await this.readPage();
        if (batch.length === 0) break;
        if (!db.inTransaction) db.exec('BEGIN IMMEDIATE');
        engine.applyBatch(batch); // nested in the open transaction: a savepoint
        this.progress(batch.length);
        if (this.uncommitted >= this.commitEvery) {
          engine.flushStates();
          db.exec('COMMIT');
          this.uncommitted = 0;
        }
      }
      if (db.inTransaction) {
        engine.flushStates();
        db.exec('COMMIT');
      }
      db.transaction(() => {
        for (const sql of this.deferredIndexes) db.exec(sql);
      }).immediate();
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
    return this.events;
  }

  /**
   * Folds here and writes on the writer thread (its own connection, its own transactions). At most one commit
   * is outstanding: the next one waits for it, so the folds run at most two commits ahead of the writes.
   */
  async foldWithThread(w: WriterThread): Promise<number> {
    let open = false;
    let committing: Promise<void> | null = null;
    const commit = async (): Promise<void> => {
      this.engine.flushStates();
      const previous = committing;
      committing = w.exec('COMMIT');
      committing.catch(() => undefined); // awaited below or at the next commit
      open = false;
      this.uncommitted = 0;
      if (previous) await previous;
    };
    try {
      for (;;) {
        const batch = await this.readPage();
        if (batch.length === 0) break;
        if (!open) {
          w.exec('BEGIN IMMEDIATE').catch(() => undefined); // a failure is reported by the COMMIT
          open = true;
        }
        this.engine.applyBatch(batch);
        w.flush();
        this.progress(batch.length);
        if (this.uncommitted >= this.commitEvery) await commit();
      }
      if (open) await commit();
      if (committing) await committing;
      await w.exec('BEGIN IMMEDIATE');
      for (const sql of this.deferredIndexes) await w.exec(sql);
      await w.exec('COMMIT');
    } catch (error) {
      await w.exec('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return this.events;
  }

  private async readPage(): Promise<RecordedEvent[]> {
    const batch: RecordedEvent[] = [];
    const from = BigInt(this.engine.minCheckpoint());
    for await (const e of this.options.store.readAll({ fromPosition: from, maxCount: this.page }))
      batch.push(e);
    return batch;
  }

  private progress(n: number): void {
    this.events += n;
    this.uncommitted += n;
    this.options.onProgress?.({ position: this.engine.minCheckpoint(), events: this.events });
  }
}

/**
 * The swap, in one transaction: the live tables dropped, the rebuilt ones renamed, and each checkpoint set to
 * where the rebuild stopped with the new generation. With the analysts' tables, the report views are dropped
 * first (SQLite refuses a rename while a view names a missing table) and made again last: readers of the file see
 * them before or after, never missing.
 */
function swapIn(
  db: Db,
  projections: readonly AnyProjection[],
  generations: ReadonlyMap<string, number>,
  position: number,
  at: string,
): void {
  const views = withReportViews(projections);
  db.transaction(() => {
    if (views)
      for (const { name } of db.prepare(REPORT_VIEW_NAMES_SQLITE).all() as { name: string }[])
        db.exec(`DROP VIEW IF EXISTS ${ident(name)}`);
    for (const p of projections) {
      const defs = projectionTables(p);
      dropTables(
        db,
        defs.map((d) => d.name),
      );
      for (const d of defs) db.exec(`ALTER TABLE "${REBUILD_PREFIX}${d.name}" RENAME TO "${d.name}"`);
      db.prepare(
        `INSERT INTO ${CHECKPOINTS} (name, version, position, generation, updated_at, rebuilt_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET version = excluded.version, position = excluded.position,
           generation = excluded.generation, updated_at = excluded.updated_at, rebuilt_at = excluded.rebuilt_at`,
      ).run(p.name, p.version, position, generations.get(p.name) ?? 1, at, at);
    }
    if (views) for (const sql of createViewsSql('sqlite')) db.exec(sql);
  }).immediate();
}

/**
 * Rebuilds projections beside the live tables and swaps them in: in the SQLite file of `db`, or through a
 * `storage` (its own rebuild: the same code for SQLite, the blue-green rebuild of `postgres/` for PostgreSQL,
 * the report views first out of the way of a new version's tables).
 */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildResult> {
  const { db, storage, ...rest } = options;
  if (storage !== undefined) {
    const projections = selectProjections(rest.names, rest.projections);
    await prepareRebuildViews(storage, projections);
    try {
      return await storage.rebuild(rest);
    } catch (error) {
      // the rebuild's own error is the one thrown, saying so when the views could not be made again either (the
      // next runner makes them)
      await restoreReportViews(storage, projections).catch((viewsError: unknown) =>
        noted(error, `the report views could not be made again either: ${String(viewsError)}`),
      );
      throw error;
    }
  }
  if (db === undefined) throw new Error('rebuildProjections: give db or storage');
  return rebuildSqlite({ ...rest, db });
}

/** Adds `note` to an error's message (and to its stack, which begins with the message). */
function noted(error: unknown, note: string): void {
  if (typeof error !== 'object' || error === null) return;
  const e = error as { message?: unknown; stack?: unknown };
  const message = e.message;
  if (typeof message !== 'string' || message === '') return;
  try {
    const withNote = `${message} (${note})`;
    const stack = e.stack; // read first: V8 writes the stack out from the message when it is first read
    e.message = withNote;
    if (typeof stack === 'string') e.stack = stack.replace(message, () => withNote);
  } catch {
    // a frozen error keeps its message
  }
}

async function rebuildSqlite(options: RebuildOptions & { readonly db: Db }): Promise<RebuildResult> {
  const started = Date.now();
  const { db } = options;
  const projections = selectProjections(options.names, options.projections);
  const now = options.now ?? (() => new Date());
  ensureCheckpointTable(db);
  const { generations, deferredIndexes } = createRebuildTables(db, projections);
  const thread = options.writer === 'thread' && !db.memory ? new WriterThread(db.name) : null;
  const engine = new ProjectionEngine({
    db,
    projections,
    rename: (n) => REBUILD_PREFIX + n,
    persistCheckpoints: false,
    deferStates: true,
    ...(thread ? { sink: thread.sink } : {}),
    now,
  });
  const fold = new RebuildFold(options, engine, deferredIndexes);
  let events = 0;
  try {
    if (thread) events = await fold.foldWithThread(thread);
    else events = await fold.foldHere();
  } finally {
    await thread?.close();
  }
  const position = engine.minCheckpoint();
  swapIn(db, projections, generations, position, now().toISOString());
  return {
    projections: projections.map((p) => p.name),
    events,
    position,
    seconds: (Date.now() - started) / 1000,
  };
}
