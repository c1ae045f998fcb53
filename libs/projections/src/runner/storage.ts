/**
 * The read-model storage port: the projection runner's only way to its database. A storage keeps the checkpoint
 * table, each projection's tables and fold states, loads states, commits a batch (writes, states and the
 * checkpoints in ONE transaction), and rebuilds projections beside the live tables, swapping them in with one
 * transaction. Two implementations: the SQLite file (the embedded default, `sqlite-storage.ts`) and PostgreSQL
 * (`postgres/`). `openReadModelStorage` picks one from a file path or a `postgres://` URL.
 */
import type { AnyProjection } from '../read-models/kernel/types';
import type { Dialect } from '../sql/dialect';
import type { SqlReader } from '../sql/reader';
import type { Checkpoint, LoadNow, Slot, StoredState } from './batch-folder';
import type { CheckpointRow } from './db';
import type { RebuildOptions, RebuildResult } from './rebuild';
import type { TableWriter, WriteSet } from './write-set';

/** The tables an engine folds into: their writers, and how stored states are loaded. */
export interface EngineTables {
  /** A writer per table (by its definition's name): what a write set turns writes into statements with. */
  readonly writers: ReadonlyMap<string, TableWriter>;
  /** Loads a stored state at once (a synchronous storage: SQLite); without it the engine uses `load` first. */
  readonly loadNow?: LoadNow;
  /** The stored states of these keys of a projection (keys with none stored are left out). */
  load(slot: Slot, keys: readonly string[]): Promise<Map<string, StoredState>>;
}

/** A projection a batch moves, with its checkpoint before the batch. */
export interface CheckpointMove {
  readonly name: string;
  readonly from: Checkpoint;
}

/** The live tables of some projections. */
export interface LiveTables extends EngineTables {
  /** The stored checkpoints (a projection with none is left out). */
  checkpoints(): Promise<Map<string, Checkpoint>>;
  /** The same at once (a synchronous storage). */
  readonly checkpointsNow?: () => Map<string, Checkpoint>;
  /**
   * Applies `writes` and moves the checkpoints of `moved` to `last` (updated at `at`) in ONE transaction; refused
   * with CheckpointMovedError, nothing written, when another writer moved one of them since it was read.
   */
  commit(writes: WriteSet, moved: readonly CheckpointMove[], last: number, at: string): Promise<void>;
}

/** What a rebuild through the port needs: the rebuild's options, less the storage. */
export type StorageRebuildOptions = Omit<RebuildOptions, 'db' | 'storage'>;

export interface ReadModelStorage {
  readonly dialect: Dialect;
  /** Where the read models are (the file, or the URL without its password): for logs. */
  readonly location: string;
  /** Queries over the read models (the read side's port, over this storage's connection). */
  readonly reader: SqlReader;
  /**
   * Creates the checkpoint table and each projection's tables at its version: a projection whose stored version
   * differs (or that has no checkpoint yet) gets fresh tables and a checkpoint at 0 (it is refolded from the start).
   */
  ensure(projections: readonly AnyProjection[]): Promise<void>;
  /** Every stored checkpoint (none before `ensure`). */
  checkpoints(): Promise<CheckpointRow[]>;
  /** The live tables of these projections (after `ensure`). */
  live(projections: readonly AnyProjection[]): LiveTables;
  /**
   * Refolds projections from position 0 into tables beside the live ones, then swaps them in with one
   * transaction (live tables replaced, checkpoints set to where the rebuild stopped with a new generation):
   * readers see the old tables until then, the rebuilt ones after, never an empty or half table.
   */
  rebuild(options: StorageRebuildOptions): Promise<RebuildResult>;
  /** Closes the connection(s) it opened. */
  close(): Promise<void>;
}
