/**
 * What every projection engine does between reading a batch and committing it, whatever the storage: each
 * projection's checkpoint and cached states, the fold of a batch's events into new states and writes, the rows
 * that mirror the states, and keeping the new states once the batch is committed. The engines (the SQLite one
 * in `engine.ts`, the storage port's in `storage-engine.ts`) load the stored states and commit.
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
import { stateTable } from './db';
import type { WriteSet } from './write-set';

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

/** A projection's checkpoint: the position applied, and the generation of its tables (a rebuild moves it). */
export interface Checkpoint {
  position: number;
  generation: number;
}

/** A stored state: its state row's JSON and, for a projection with a `storage`, the key's rows of its rows table. */
export interface StoredState {
  readonly state: string;
  readonly rows?: readonly Row[];
}

/** A projection with its checkpoint and its cached states. */
export interface Slot {
  readonly p: AnyProjection;
  checkpoint: Checkpoint;
  readonly cache: Map<string, PositionedState>;
  /** Keys whose materialized rows and state row are not written yet (deferStates). */
  readonly dirty: Set<string>;
  /**
   * Projections with a `storage`: the state whose rows the tables hold, per key (what `storage.materialize`
   * writes from; null: unknown), set when a state is loaded and after each commit (deferStates: each flush).
   */
  readonly written: Map<string, PositionedState | null>;
}

/** A projection a batch moves: its checkpoint before the batch and the states the batch changed. */
export interface Moved {
  readonly slot: Slot;
  readonly from: Checkpoint;
  readonly local: Map<string, PositionedState>;
}

/** A batch being applied: the projections it moves and the position of its last event. */
export interface Plan {
  readonly moved: Moved[];
  readonly last: number;
}

/**
 * Loads a key's stored state at once (null: none stored), or undefined when the engine loads states before
 * folding (an asynchronous storage: every key a batch needs is then in the cache, see {@link BatchFolder.missing}).
 */
export type LoadNow = (slot: Slot, key: string) => StoredState | null | undefined;

export class BatchFolder {
  readonly slots: Slot[];

  constructor(
    readonly projections: readonly AnyProjection[],
    private readonly defer: boolean,
    private readonly loadNow: LoadNow,
  ) {
    this.slots = projections.map((p) => ({
      p,
      checkpoint: { position: 0, generation: 0 },
      cache: new Map<string, PositionedState>(),
      dirty: new Set<string>(),
      written: new Map<string, PositionedState | null>(),
    }));
  }

  /** Drops the cached states; with checkpoints, takes them (stored ones; a projection not in them: 0). */
  reset(checkpoints?: ReadonlyMap<string, Checkpoint>): void {
    for (const slot of this.slots) {
      slot.cache.clear();
      slot.dirty.clear();
      slot.written.clear();
      if (checkpoints) {
        const c = checkpoints.get(slot.p.name);
        slot.checkpoint = { position: c?.position ?? 0, generation: c?.generation ?? 0 };
      }
    }
  }

  checkpoint(name: string): number {
    return this.slots.find((s) => s.p.name === name)?.checkpoint.position ?? 0;
  }

  minCheckpoint(): number {
    let min = Infinity;
    for (const s of this.slots) min = Math.min(min, s.checkpoint.position);
    return min === Infinity ? 0 : min;
  }

  /** The projections a batch moves (null: none, the batch was applied already). */
  plan(events: readonly RecordedEvent[]): Plan | null {
    const lastEvent = events[events.length - 1];
    if (lastEvent === undefined) return null;
    const last = Number(lastEvent.globalPosition);
    const moved: Moved[] = [];
    for (const slot of this.slots) {
      if (last <= slot.checkpoint.position) continue;
      moved.push({ slot, from: { ...slot.checkpoint }, local: new Map<string, PositionedState>() });
    }
    return moved.length === 0 ? null : { moved, last };
  }

  /** The keys whose states the fold of a plan needs and the cache does not hold, per projection. */
  missing(events: readonly RecordedEvent[], plan: Plan): Map<Slot, Set<string>> {
    const out = new Map<Slot, Set<string>>();
    for (const recorded of events) {
      const e = toProjectionEvent(recorded);
      if (e === null) continue;
      for (const m of plan.moved) {
        const p = m.slot.p;
        if (e.position <= m.from.position || (p.handles !== undefined && !p.handles.has(e.event.type)))
          continue;
        const key = p.keyOf(e);
        if (key === null || m.slot.cache.has(key)) continue;
        let keys = out.get(m.slot);
        if (keys === undefined) out.set(m.slot, (keys = new Set<string>()));
        keys.add(key);
      }
    }
    return out;
  }

  /** A loaded state into the cache (it is what the storage holds, so a failed batch leaves it right). */
  install(slot: Slot, key: string, stored: StoredState | null): PositionedState {
    const storage = slot.p.storage;
    if (storage === undefined) {
      const state = (stored ? JSON.parse(stored.state) : slot.p.initial(key)) as PositionedState;
      slot.cache.set(key, state);
      return state;
    }
    // a stored state in parts: the state row and the key's rows (what they hold is what `written` says)
    const loaded = stored
      ? storage.load(JSON.parse(stored.state), stored.rows ?? [])
      : { state: slot.p.initial(key), written: slot.p.initial(key) };
    slot.written.set(key, loaded.written as PositionedState | null);
    slot.cache.set(key, loaded.state as PositionedState);
    return loaded.state as PositionedState;
  }

  private stateOf(slot: Slot, key: string, local: Map<string, PositionedState>): PositionedState {
    const s = local.get(key) ?? slot.cache.get(key);
    if (s !== undefined) return s;
    const stored = this.loadNow(slot, key);
    if (stored === undefined) throw new Error(`${slot.p.name}: the state of ${key} was not loaded`);
    // cached as the storage holds it (as the preloaded states are): a key whose events change nothing (a table
    // a projection ignores) was read again, or made anew, for every event
    return this.install(slot, key, stored);
  }

  /**
   * Event by event, every projection: the projections that share the table fold (table view, hand history)
   * fold the same event from the same state one after the other (see table-fold.ts). New states go to each
   * projection's `local`, writes to `writes`; without deferStates, then the rows mirroring the new states.
   */
  fold(events: readonly RecordedEvent[], plan: Plan, writes: WriteSet): void {
    const moved = plan.moved;
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
    if (!this.defer)
      for (const { slot, local } of moved)
        for (const [key, state] of local) this.pushState(writes, slot, key, state);
  }

  /** After a commit (or a collected batch): the new states into the caches, the checkpoints to `last`. */
  keep(plan: Plan): void {
    for (const { slot, local } of plan.moved) {
      const stored = slot.p.storage !== undefined && !this.defer;
      for (const [key, state] of local) {
        slot.cache.set(key, state);
        if (this.defer) slot.dirty.add(key);
        else if (stored) slot.written.set(key, state); // committed: its rows are in the tables
      }
      slot.checkpoint.position = plan.last;
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

  /** deferStates: the mirrored rows and state rows of every key changed since the last flush, into `writes`. */
  flushStates(writes: WriteSet): void {
    for (const slot of this.slots) {
      for (const key of slot.dirty) {
        const state = slot.cache.get(key);
        if (state === undefined) continue;
        this.pushState(writes, slot, key, state);
        // deferStates (a rebuild): what the rows hold once this commit is in
        if (slot.p.storage !== undefined) slot.written.set(key, state);
      }
      slot.dirty.clear();
    }
  }
}
