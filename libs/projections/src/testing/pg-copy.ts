/**
 * Test helper: the read-model tables of a SQLite file copied into a PostgreSQL database (tables created from the
 * projections' definitions in PostgreSQL's dialect, with the checkpoint table), so a query's answer from both can
 * be compared on the same rows, whoever wrote them.
 */
import type { Pool } from 'pg';
import type { AnyProjection, Row } from '../read-models/kernel/types';
import { CHECKPOINTS, type Db, projectionTables } from '../runner/db';
import { createTableStatements, ident } from '../sql/dialect';

const ROWS_PER_INSERT = 200;

async function insertRows(pool: Pool, table: string, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] ?? {});
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    const values: (string | number | null)[] = [];
    const tuples = chunk.map((row) => {
      const marks = columns.map((c) => {
        values.push(row[c] ?? null);
        return `$${values.length}`;
      });
      return `(${marks.join(', ')})`;
    });
    await pool.query(
      `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES ${tuples.join(', ')}`,
      values,
    );
  }
}

/** Creates every table of `projections` (and the checkpoints) in PostgreSQL and copies the SQLite file's rows. */
export async function copyReadModelsToPostgres(
  db: Db,
  pool: Pool,
  projections: readonly AnyProjection[],
): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${CHECKPOINTS} (name TEXT PRIMARY KEY, version BIGINT NOT NULL, position BIGINT NOT NULL, generation BIGINT NOT NULL, updated_at TEXT, rebuilt_at TEXT)`,
  );
  await insertRows(pool, CHECKPOINTS, db.prepare(`SELECT * FROM ${CHECKPOINTS}`).all() as Row[]);
  for (const p of projections) {
    for (const def of projectionTables(p)) {
      for (const sql of createTableStatements(def, def.name, 'g1', 'postgres')) await pool.query(sql);
      await insertRows(pool, def.name, db.prepare(`SELECT * FROM ${ident(def.name)}`).all() as Row[]);
    }
  }
}
