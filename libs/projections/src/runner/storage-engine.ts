/**
 * The projection engine over the storage port: the same folds as the SQLite engine (`BatchFolder`), with the
 * stored states loaded before a batch is folded (from a synchronous storage at once, as the SQLite engine does)
 * and the batch committed by the storage (writes, states and checkpoints in one transaction). A rebuild's engine
 * collects its writes until `flushStates` (the rebuild commits them itself).
 */
import type { RecordedEvent } from '@coup/event-store';
import type { AnyProjection } from '../read-models/kernel/types';
import { BatchFolder, type Plan } from './batch-folder';
import { movedCheckpoints } from './engine';
import type { EngineTables, LiveTables } from './storage';
import { WriteSet } from './write-set';

export interface StorageEngineOptions {
  readonly projections: readonly AnyProjection[];
  /** Live: the tables whose commits carry the checkpoints. */
  readonly live?: LiveTables;
  /** Rebuild: tables written by the rebuild (checkpoints from 0 in memory; writes collected until flushStates). */
  readonly rebuild?: EngineTables;
  readonly now?: () => Date;
}

export class StorageEngine {
  readonly projections: readonly AnyProjection[];
  private readonly tables: EngineTables;
  private readonly live: LiveTables | null;
  private readonly folder: BatchFolder;
  private readonly now: () => Date;
  private readonly collected: WriteSet | null;
  /** Events applied (events of any stream that moved at least one checkpoint). */
  eventsApplied = 0;

  constructor(options: StorageEngineOptions) {
    const tables = options.live ?? options.rebuild;
    if (tables === undefined || (options.live && options.rebuild))
      throw new Error('a storage engine has live tables or a rebuild');
    this.tables = tables;
    this.live = options.live ?? null;
    this.projections = options.projections;
    this.now = options.now ?? (() => new Date());
    this.collected = this.live ? null : new WriteSet(tables.writers);
    this.folder = new BatchFolder(this.projections, this.live === null, tables.loadNow ?? (() => undefined));
    const now = this.live?.checkpointsNow;
    if (now) this.folder.reset(now());
  }

  /** Drops the cached states and reloads the checkpoints (after a failed or refused commit). */
  async reset(): Promise<void> {
    if (this.live === null) this.folder.reset();
    else this.folder.reset(this.live.checkpointsNow?.() ?? (await this.live.checkpoints()));
  }

  checkpoint(name: string): number {
    return this.folder.checkpoint(name);
  }

  /** The lowest checkpoint: where reading must resume. */
  minCheckpoint(): number {
    return this.folder.minCheckpoint();
  }

  /**
   * Folds `events` (in global order) and, live, commits them. Rejects (with nothing committed and the cache as
   * the storage holds it) on any failure, including CheckpointMovedError.
   */
  async applyBatch(events: readonly RecordedEvent[]): Promise<void> {
    const plan = this.folder.plan(events);
    if (plan === null) return;
    if (this.tables.loadNow === undefined) await this.loadStates(events, plan);
    const writes = this.collected ?? new WriteSet(this.tables.writers);
    this.folder.fold(events, plan, writes);
    if (this.live !== null)
      await this.live.commit(writes, movedCheckpoints(plan.moved), plan.last, this.now().toISOString());
    this.folder.keep(plan);
    this.eventsApplied += events.length;
  }

  /** The stored states the batch needs and the cache does not hold, into the cache. */
  private async loadStates(events: readonly RecordedEvent[], plan: Plan): Promise<void> {
    for (const [slot, keys] of this.folder.missing(events, plan)) {
      const stored = await this.tables.load(slot, [...keys]);
      for (const key of keys) this.folder.install(slot, key, stored.get(key) ?? null);
    }
  }

  /**
   * Rebuild: the writes collected since the last flush, with the mirrored rows and state rows of every key
   * changed since then, handed to the tables' writers (the rebuild then commits what they made).
   */
  flushStates(): void {
    if (this.collected === null) throw new Error('flushStates: a live engine commits each batch');
    this.folder.flushStates(this.collected);
    this.collected.apply();
  }
}
