/**
 * The SQLite read-model storage (the embedded default): one file for every projection, written through
 * better-sqlite3 as before the port (the same statements, transactions and rebuild), its synchronous loads and
 * checkpoint reads offered to the engine at once.
 */
import type { AnyProjection } from '../read-models/kernel/types';
import { type SqlReader, sqliteReader } from '../sql/reader';
import type { Checkpoint } from './batch-folder';
import {
  CHECKPOINTS,
  type CheckpointRow,
  type Db,
  ensureCheckpointTable,
  ensureProjection,
  openReadModelDb,
} from './db';
import { commitSqlite, sqliteCheckpoints, sqliteLoader } from './engine';
import { rebuildProjections } from './rebuild';
import { ensureReportViewsSqlite, withReportViews } from './report-views';
import type { LiveTables, ReadModelStorage, StorageRebuildOptions } from './storage';
import { compileTables } from './write-set';

export class SqliteReadModelStorage implements ReadModelStorage {
  readonly dialect = 'sqlite' as const;
  readonly db: Db;
  readonly location: string;
  readonly reader: SqlReader;
  private readonly ownsDb: boolean;

  /** Over the file (opened, and closed by `close`), or over an open connection (left open). */
  constructor(readModels: string | Db) {
    this.ownsDb = typeof readModels === 'string';
    this.db = typeof readModels === 'string' ? openReadModelDb(readModels) : readModels;
    this.location = this.db.name;
    this.reader = sqliteReader(this.db);
  }

  /** `ensure`, at once; with the analysts' tables, the report views too. */
  ensureNow(projections: readonly AnyProjection[]): void {
    ensureCheckpointTable(this.db);
    for (const p of projections) ensureProjection(this.db, p);
    if (withReportViews(projections)) ensureReportViewsSqlite(this.db);
  }

  async ensure(projections: readonly AnyProjection[]): Promise<void> {
    this.ensureNow(projections);
  }

  /** `checkpoints`, at once. */
  checkpointsNow(): CheckpointRow[] {
    const built =
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(CHECKPOINTS) !==
      undefined;
    return built ? (this.db.prepare(`SELECT * FROM ${CHECKPOINTS}`).all() as CheckpointRow[]) : [];
  }

  async checkpoints(): Promise<CheckpointRow[]> {
    return this.checkpointsNow();
  }

  live(projections: readonly AnyProjection[]): LiveTables {
    const db = this.db;
    const loadNow = sqliteLoader(db, projections, (n) => n);
    const checkpointsNow = (): Map<string, Checkpoint> => sqliteCheckpoints(db, projections);
    return {
      writers: compileTables(db, projections),
      loadNow,
      async load(slot, keys) {
        const out = new Map();
        for (const key of keys) {
          const stored = loadNow(slot, key);
          if (stored) out.set(key, stored);
        }
        return out;
      },
      checkpointsNow,
      checkpoints: async () => checkpointsNow(),
      async commit(writes, moved, last, at) {
        commitSqlite(db, writes, moved, last, at);
      },
    };
  }

  rebuild(options: StorageRebuildOptions) {
    return rebuildProjections({ ...options, db: this.db });
  }

  async close(): Promise<void> {
    if (this.ownsDb && this.db.open) this.db.close();
  }
}
