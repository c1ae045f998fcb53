/**
 * The batch engine: folds a batch of recorded events through every projection and commits all the read-model
 * writes, the projections' states and their checkpoints in ONE SQLite transaction. Either the whole batch is
 * in the read models with the checkpoints after it, or none of it is: after a crash nothing is applied twice or
 * skipped. The in-memory state cache is only updated once the transaction has committed.
 */
import type { RecordedEvent } from '@coup/event-store';
import type { TableEvent } from '@coup/table';
import type { AnyProjection, PositionedState, ProjectionEvent } from '../models/types';
import { CHECKPOINTS, type Db, WriteSet, compileTables, readCheckpoint, stateTable } from './db';

/** The stream prefix of table streams; other streams (snapshots, ...) are skipped by projections. */
export const TABLE_STREAM_PREFIX = 'table-';

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
    event: { type: e.type, data: e.data } as unknown as TableEvent,
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
  readonly now?: () => Date;
}

export class ProjectionEngine {
  readonly projections: readonly AnyProjection[];
  private readonly db: Db;
  private readonly persist: boolean;
  private readonly tables;
  private readonly checkpoints = new Map<string, Checkpoint>();
  private readonly caches = new Map<string, Map<string, PositionedState>>();
  private readonly loadState = new Map<string, (key: string) => { state: string } | undefined>();
  private readonly now: () => Date;
  /** Events applied (events of any stream that moved at least one checkpoint). */
  eventsApplied = 0;

  constructor(options: EngineOptions) {
    this.db = options.db;
    this.projections = options.projections;
    this.persist = options.persistCheckpoints ?? true;
    this.now = options.now ?? (() => new Date());
    const rename = options.rename ?? ((n: string) => n);
    this.tables = compileTables(this.db, this.projections, rename);
    for (const p of this.projections) {
      const stmt = this.db.prepare(`SELECT state FROM "${rename(stateTable(p.prefix))}" WHERE key = ?`);
      this.loadState.set(p.name, (key) => stmt.get(key) as { state: string } | undefined);
    }
    this.reset();
  }

  /** Drops the cached states and reloads the checkpoints (after a failed or refused commit). */
  reset(): void {
    this.caches.clear();
    for (const p of this.projections) {
      this.caches.set(p.name, new Map());
      if (this.persist) {
        const row = readCheckpoint(this.db, p.name);
        this.checkpoints.set(p.name, { position: row?.position ?? 0, generation: row?.generation ?? 0 });
      } else if (!this.checkpoints.has(p.name)) {
        this.checkpoints.set(p.name, { position: 0, generation: 0 });
      }
    }
  }

  checkpoint(name: string): number {
    return this.checkpoints.get(name)?.position ?? 0;
  }

  /** The lowest checkpoint: where reading must resume. */
  minCheckpoint(): number {
    let min = Infinity;
    for (const c of this.checkpoints.values()) min = Math.min(min, c.position);
    return min === Infinity ? 0 : min;
  }

  private stateOf(p: AnyProjection, key: string, local: Map<string, PositionedState>): PositionedState {
    const s = local.get(key) ?? this.caches.get(p.name)!.get(key);
    if (s !== undefined) return s;
    const row = this.loadState.get(p.name)!(key);
    return row ? (JSON.parse(row.state) as PositionedState) : (p.initial(key) as PositionedState);
  }

  /**
   * Folds `events` (in global order) and commits. Throws (with nothing committed and the cache untouched) on
   * any failure, including CheckpointMovedError.
   */
  applyBatch(events: readonly RecordedEvent[]): void {
    if (events.length === 0) return;
    const last = Number(events[events.length - 1]!.globalPosition);
    const converted = events.map(toProjectionEvent);
    const writes = new WriteSet(this.tables);
    const moved: { p: AnyProjection; from: Checkpoint; local: Map<string, PositionedState> }[] = [];
    for (const p of this.projections) {
      const cp = this.checkpoints.get(p.name)!;
      if (last <= cp.position) continue;
      const local = new Map<string, PositionedState>();
      for (const e of converted) {
        if (e === null || e.position <= cp.position) continue;
        const key = p.keyOf(e);
        if (key === null) continue;
        const before = this.stateOf(p, key, local);
        const { state, writes: ws } = p.evolve(before, e);
        if (state !== before) local.set(key, state as PositionedState);
        for (const w of ws) writes.push(w);
      }
      const table = stateTable(p.prefix);
      for (const [key, state] of local) {
        if (p.materialize) for (const w of p.materialize(state)) writes.push(w);
        writes.push({
          kind: 'upsert',
          table,
          row: { key, position: state.position, state: JSON.stringify(state) },
        });
      }
      moved.push({ p, from: { ...cp }, local });
    }
    if (moved.length === 0) return;
    const at = this.now().toISOString();
    this.db
      .transaction(() => {
        if (this.persist) {
          for (const { p, from } of moved) {
            const row = readCheckpoint(this.db, p.name);
            if (!row || row.position !== from.position || row.generation !== from.generation) {
              throw new CheckpointMovedError(p.name);
            }
          }
        }
        writes.apply();
        if (this.persist) {
          const update = this.db.prepare(
            `UPDATE ${CHECKPOINTS} SET position = ?, updated_at = ? WHERE name = ?`,
          );
          for (const { p } of moved) update.run(last, at, p.name);
        }
      })
      .immediate();
    for (const { p, local } of moved) {
      const cache = this.caches.get(p.name)!;
      for (const [key, state] of local) cache.set(key, state);
      this.checkpoints.get(p.name)!.position = last;
    }
    if (moved.length > 0) this.eventsApplied += events.length;
  }
}
