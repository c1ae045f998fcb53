/**
 * The read-model SQLite file: schema creation from the projections' table definitions, the checkpoint table,
 * and compiled write statements. One file for every projection; each projection's tables carry its prefix.
 */
import Database from 'better-sqlite3';
import { preparePrivateSqliteFile } from '@coup/event-store';
import type { AnyProjection, TableDef } from '../read-models/kernel/types';
import { createTableStatements } from '../sql/dialect';

export type Db = Database.Database;

/** The checkpoint table: one row per projection. */
export const CHECKPOINTS = 'projection_checkpoints';

/** Name of the per-projection state table (JSON state per key). */
export const stateTable = (prefix: string): string => `${prefix}_state`;

/** Prefix of the tables a rebuild builds before swapping them in. */
export const REBUILD_PREFIX = 'rb_';

/**
 * Opens (and creates) the read-model file: WAL, NORMAL sync (read models are rebuildable), busy timeout. The file
 * and its WAL are owner-only (0600) whatever the umask.
 */
export function openReadModelDb(file: string, options: { readonly?: boolean } = {}): Db {
  if (!options.readonly) preparePrivateSqliteFile(file);
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  });
  db.pragma('busy_timeout = 10000');
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  return db;
}

/** A quoted SQL identifier. */
export const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The state table's definition (documented like the others). */
export function stateTableDef(prefix: string): TableDef {
  return {
    name: stateTable(prefix),
    doc: 'The fold state per key (table id) as JSON, where the projection resumes (no unrevealed seed).',
    primaryKey: ['key'],
    columns: [
      { name: 'key', type: 'TEXT', doc: 'State key (table id)' },
      { name: 'position', type: 'INTEGER', doc: 'Global position of the last event applied to this key' },
      { name: 'state', type: 'TEXT', doc: 'The state (JSON)' },
    ],
  };
}

/** Every table of a projection (its read-model tables and its state table). */
export function projectionTables(p: AnyProjection): TableDef[] {
  return [...p.tables, stateTableDef(p.prefix)];
}

/** SQLite's CREATE TABLE and CREATE INDEX statements for a table, created under `name`; index names carry `tag`. */
export function createTableSql(def: TableDef, name: string, tag: string): string[] {
  return createTableStatements(def, name, tag, 'sqlite');
}

export function ensureCheckpointTable(db: Db): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${CHECKPOINTS} (
      name TEXT PRIMARY KEY,
      version INTEGER NOT NULL,
      position INTEGER NOT NULL,
      generation INTEGER NOT NULL,
      updated_at TEXT,
      rebuilt_at TEXT
    )`,
  );
}

export interface CheckpointRow {
  readonly name: string;
  readonly version: number;
  readonly position: number;
  readonly generation: number;
  readonly updated_at: string | null;
  readonly rebuilt_at: string | null;
}

export function readCheckpoint(db: Db, name: string): CheckpointRow | undefined {
  return db.prepare(`SELECT * FROM ${CHECKPOINTS} WHERE name = ?`).get(name) as CheckpointRow | undefined;
}

export function dropTables(db: Db, names: readonly string[]): void {
  for (const n of names) db.exec(`DROP TABLE IF EXISTS ${q(n)}`);
}

/**
 * Makes sure the projection's tables exist at its current version. A projection whose stored version differs
 * (or that has no checkpoint yet) gets fresh tables and a checkpoint at 0: it is refolded from the start.
 * Returns its checkpoint.
 */
export function ensureProjection(db: Db, p: AnyProjection): CheckpointRow {
  ensureCheckpointTable(db);
  return db
    .transaction((): CheckpointRow => {
      const row = readCheckpoint(db, p.name);
      const defs = projectionTables(p);
      if (row && row.version === p.version) {
        for (const def of defs)
          for (const sql of createTableSql(def, def.name, `g${row.generation}`)) db.exec(sql);
        return row;
      }
      const generation = (row?.generation ?? 0) + 1;
      dropTables(
        db,
        defs.map((d) => d.name),
      );
      for (const def of defs) for (const sql of createTableSql(def, def.name, `g${generation}`)) db.exec(sql);
      db.prepare(
        `INSERT INTO ${CHECKPOINTS} (name, version, position, generation, updated_at, rebuilt_at) VALUES (?, ?, 0, ?, NULL, NULL)
       ON CONFLICT(name) DO UPDATE SET version = excluded.version, position = 0, generation = excluded.generation, updated_at = NULL, rebuilt_at = NULL`,
      ).run(p.name, p.version, generation);
      return (
        readCheckpoint(db, p.name) ?? {
          name: p.name,
          version: p.version,
          position: 0,
          generation,
          updated_at: null,
          rebuilt_at: null,
        }
      );
    })
    .immediate();
}
