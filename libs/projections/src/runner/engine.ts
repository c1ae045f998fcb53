/**
 * The batch engine: folds a batch of recorded events through every projection and commits all the read-model
 * writes, the projections' states and their checkpoints in ONE SQLite transaction. Either the whole batch is
 * in the read models with the checkpoints after it, or none of it is: after a crash nothing is applied twice or
 * skipped. The in-memory state cache is only updated once the transaction has committed.
 */
import { TABLE_STREAM_PREFIX } from '@coup/table';
import type { RecordedEvent } from '@coup/event-store';
import type { TableEvent } from '@coup/table';
import type {
  AnyProjection,
  PositionedState,
  ProjectionEvent,
  Row,
  Write,
} from '../read-models/kernel/types';
import { CHECKPOINTS, type Db, readCheckpoint, stateTable } from './db';
import { type StatementSink, WriteSet, compileTables } from './write-set';

/** The stream prefix of table streams; other streams (snapshots, ...) are skipped by projections. */

/** Another process (a rebuild) moved a projection's checkpoint: reload and resume from the stored one. */
export class CheckpointMovedError extends Error {
  readonly code = 'CHECKPOINT_MOVED';
  constructor(readonly projection: string) {
    super(`The checkpoint of projection ${projection} was moved by another process (rebuild?): reloading`);
  }
}

/** A recorded event as projections see it, or null for events outside table streams. */
export function toProjectionEvent(e: RecordedEvent): ProjectionEvent | null {
  if (!e.streamName.startsWith(TABLE_STREAM_PREFIX)) return null;
  const meta = e.metadata;
  return {
    tableId: e.streamName.slice(TABLE_STREAM_PREFIX.length),
    // the recorded event has `type` and `data` (folds read nothing else of it): no copy per event
    event: e as unknown as TableEvent,
    position: Number(e.globalPosition),
    revision: Number(e.streamRevision),
    recordedAt: e.recordedAt,
    prevHash: e.prevHash,
    hash: e.hash,
    actor: typeof meta.actor === 'string' ? meta.actor : null,
    commandId: typeof meta.commandId === 'string' ? meta.commandId : null,
  };
}

interface Checkpoint {
  position: number;
  generation: number;
}

/** A projection a batch moves: its checkpoint before the batch and the states the batch changed. */
interface Moved {
  readonly slot: Slot;
  readonly from: Checkpoint;
  readonly local: Map<string, PositionedState>;
}

/** A projection with its checkpoint, its cached states and how to load a stored state. */
interface Slot {
  readonly p: AnyProjection;
  checkpoint: Checkpoint;
  readonly cache: Map<string, PositionedState>;
  /** Keys whose materialized rows and state row are not written yet (deferStates). */
  readonly dirty: Set<string>;
  readonly load: (key: string) => { state: string } | undefined;
  /**
   * Projections with a `storage`: the state whose rows the tables hold, per key (what `storage.materialize`
   * writes from; null: unknown), set when a state is loaded and after each commit (deferStates: each flush).
   */
  readonly written: Map<string, PositionedState | null>;
  /** Projections with a `storage`: the key's rows of its rows table, in primary-key order. */
  readonly loadRows: (key: string) => Row[];
}

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

export class ProjectionEngine {
  readonly projections: readonly AnyProjection[];
  private readonly db: Db;
  private readonly persist: boolean;
  private readonly tables;
  private readonly slots: Slot[];
  private readonly now: () => Date;
  private readonly defer: boolean;
  private readonly remote: boolean;
  /** deferStates: the writes collected since the last flushStates (applied by it). */
  private readonly collected: WriteSet | null;
  /** Events applied (events of any stream that moved at least one checkpoint). */
  eventsApplied = 0;

  constructor(options: EngineOptions) {
    this.db = options.db;
    this.projections = options.projections;
    this.persist = options.persistCheckpoints ?? true;
    this.defer = options.deferStates ?? false;
    this.remote = options.sink !== undefined;
    if (this.remote && this.persist)
      throw new Error('a statement sink is only for rebuilds (no checkpoints)');
    this.now = options.now ?? (() => new Date());
    const rename = options.rename ?? ((n: string) => n);
    this.tables = compileTables(this.db, this.projections, rename, options.sink);
    this.collected = this.defer ? new WriteSet(this.tables) : null;
    this.slots = this.projections.map((p) => {
      const stmt = this.db.prepare(`SELECT state FROM "${rename(stateTable(p.prefix))}" WHERE key = ?`);
      const storage = p.storage;
      const rowsDef = storage ? p.tables.find((t) => t.name === storage.rowsTable) : undefined;
      if (storage && !rowsDef) throw new Error(`${p.name}: no table ${storage.rowsTable} for its storage`);
      const rowsStmt =
        storage && rowsDef
          ? this.db.prepare(
              `SELECT * FROM "${rename(rowsDef.name)}" WHERE "${storage.keyColumn}" = ? ORDER BY ${rowsDef.primaryKey.map((c) => `"${c}"`).join(', ')}`,
            )
          : null;
      return {
        p,
        checkpoint: { position: 0, generation: 0 },
        cache: new Map<string, PositionedState>(),
        dirty: new Set<string>(),
        load: (key: string) => stmt.get(key) as { state: string } | undefined,
        written: new Map<string, PositionedState | null>(),
        loadRows: (key: string) => (rowsStmt ? (rowsStmt.all(key) as Row[]) : []),
      };
    });
    this.reset();
  }

  /** Drops the cached states and reloads the checkpoints (after a failed or refused commit). */
  reset(): void {
    for (const slot of this.slots) {
      slot.cache.clear();
      slot.dirty.clear();
      slot.written.clear();
      if (this.persist) {
        const row = readCheckpoint(this.db, slot.p.name);
        slot.checkpoint = { position: row?.position ?? 0, generation: row?.generation ?? 0 };
      }
    }
  }

  checkpoint(name: string): number {
    return this.slots.find((s) => s.p.name === name)?.checkpoint.position ?? 0;
  }

  /** The lowest checkpoint: where reading must resume. */
  minCheckpoint(): number {
    let min = Infinity;
    for (const s of this.slots) min = Math.min(min, s.checkpoint.position);
    return min === Infinity ? 0 : min;
  }

  private stateOf(slot: Slot, key: string, local: Map<string, PositionedState>): PositionedState {
    const s = local.get(key) ?? slot.cache.get(key);
    if (s !== undefined) return s;
    const row = slot.load(key);
    const storage = slot.p.storage;
    if (storage === undefined)
      return row ? (JSON.parse(row.state) as PositionedState) : (slot.p.initial(key) as PositionedState);
    // a stored state in parts: the state row and the key's rows (what they hold is what `written` says);
    // cached as loaded (it is what the file holds, so a failed batch leaves it right)
    const loaded = row
      ? storage.load(JSON.parse(row.state), slot.loadRows(key))
      : { state: slot.p.initial(key), written: slot.p.initial(key) };
    slot.written.set(key, loaded.written as PositionedState | null);
    slot.cache.set(key, loaded.state as PositionedState);
    return loaded.state as PositionedState;
  }

  /**
   * Folds `events` (in global order) and commits. Throws (with nothing committed and the cache untouched) on
   * any failure, including CheckpointMovedError.
   */
  applyBatch(events: readonly RecordedEvent[]): void {
    const lastEvent = events[events.length - 1];
    if (lastEvent === undefined) return;
    const last = Number(lastEvent.globalPosition);
    const moved: Moved[] = [];
    for (const slot of this.slots) {
      if (last <= slot.checkpoint.position) continue;
      moved.push({ slot, from: { ...slot.checkpoint }, local: new Map<string, PositionedState>() });
    }
    if (moved.length === 0) return;
    // rebuild (deferStates): the writes of every batch until the next flushStates are collected in one set
    // (nothing reads the rb_ tables before the swap), so counters and coalesced rows are summed over a commit
    const writes = this.collected ?? new WriteSet(this.tables);
    this.fold(events, moved, writes);
    if (!this.defer)
      for (const { slot, local } of moved)
        for (const [key, state] of local) this.pushState(writes, slot, key, state);
    if (this.collected !== null) {
      // applied by flushStates
    } else if (this.remote) writes.apply();
    else this.commit(writes, moved, last);
    this.keep(moved, last);
    this.eventsApplied += events.length;
  }

  /**
   * Event by event, every projection: the projections that share the table fold (table view, hand history)
   * fold the same event from the same state one after the other (see table-fold.ts). New states go to each
   * projection's `local`, writes to `writes`.
   */
  private fold(events: readonly RecordedEvent[], moved: readonly Moved[], writes: WriteSet): void {
    for (const recorded of events) {
      const e = toProjectionEvent(recorded);
      if (e === null) continue;
      const type = e.event.type;
      for (let i = 0; i < moved.length; i++) {
        const m = moved[i] as Moved;
        if (e.position <= m.from.position) continue;
        const p = m.slot.p;
        const handles = p.handles;
        if (handles !== undefined && !handles.has(type)) continue;
        const key = p.keyOf(e);
        if (key === null) continue;
        const before = this.stateOf(m.slot, key, m.local);
        const { state, writes: ws } = p.evolve(before, e);
        if (state !== before) m.local.set(key, state as PositionedState);
        for (let k = 0; k < ws.length; k++) writes.push(ws[k] as Write);
      }
    }
  }

  /**
   * Applies `writes` and moves the checkpoints to `last` in one transaction, refused (CheckpointMovedError) when
   * another writer moved a checkpoint since this engine read it.
   */
  private commit(writes: WriteSet, moved: readonly Moved[], last: number): void {
    const at = this.now().toISOString();
    this.db
      .transaction(() => {
        if (this.persist) {
          for (const { slot, from } of moved) {
            const row = readCheckpoint(this.db, slot.p.name);
            if (!row || row.position !== from.position || row.generation !== from.generation) {
              throw new CheckpointMovedError(slot.p.name);
            }
          }
        }
        writes.apply();
        if (this.persist) {
          const update = this.db.prepare(
            `UPDATE ${CHECKPOINTS} SET position = ?, updated_at = ? WHERE name = ?`,
          );
          for (const { slot } of moved) update.run(last, at, slot.p.name);
        }
      })
      .immediate();
  }

  /** After a commit (or a collected batch): the new states into the caches, the checkpoints to `last`. */
  private keep(moved: readonly Moved[], last: number): void {
    for (const { slot, local } of moved) {
      const stored = slot.p.storage !== undefined && !this.defer;
      for (const [key, state] of local) {
        slot.cache.set(key, state);
        if (this.defer) slot.dirty.add(key);
        else if (stored) slot.written.set(key, state); // committed: its rows are in the tables
      }
      slot.checkpoint.position = last;
    }
  }

  /**
   * The rows that mirror a key's state and its state row: `materialize(state)` and the whole state, or, for a
   * projection with a `storage`, what changed since the rows of `written` and the state as `storage.save` has it.
   */
  private pushState(writes: WriteSet, slot: Slot, key: string, state: PositionedState): void {
    const p = slot.p;
    const storage = p.storage;
    if (storage !== undefined) {
      const written = slot.written.get(key) ?? null;
      for (const w of storage.materialize(state, written)) writes.push(w);
      writes.push({
        kind: 'upsert',
        table: stateTable(p.prefix),
        row: { key, position: state.position, state: JSON.stringify(storage.save(state)) },
      });
      return;
    }
    if (p.materialize) for (const w of p.materialize(state)) writes.push(w);
    writes.push({
      kind: 'upsert',
      table: stateTable(p.prefix),
      row: { key, position: state.position, state: JSON.stringify(state) },
    });
  }

  /**
   * deferStates: writes the materialized rows and state rows of every key changed since the last flush (call
   * it inside the transaction that commits the batches, before the commit).
   */
  flushStates(): void {
    const writes = this.collected ?? new WriteSet(this.tables);
    for (const slot of this.slots) {
      for (const key of slot.dirty) {
        const state = slot.cache.get(key);
        if (state === undefined) continue;
        this.pushState(writes, slot, key, state);
        // deferStates (a rebuild): what the rows hold once this commit is in
        if (slot.p.storage !== undefined) slot.written.set(key, state);
      }
    }
    writes.apply();
    for (const slot of this.slots) slot.dirty.clear();
  }
}

/** The prefix of the table streams the projections fold (defined once, in @coup/table). */
export { TABLE_STREAM_PREFIX };
