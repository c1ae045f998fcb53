/**
 * The read models' schema in PostgreSQL: the checkpoint table, and each projection's tables at its version
 * (DDL from the table definitions, `createTableStatements` in PostgreSQL's dialect). Creating them takes a
 * transaction-scoped advisory lock, so service instances and a projection process starting together do not race,
 * and locks the checkpoint rows before any table, as a commit does, so it never deadlocks with a running runner.
 */
import type { PoolClient } from 'pg';
import type { AnyProjection } from '../../read-models/kernel/types';
import { createTableStatements, ident, indexName } from '../../sql/dialect';
import { CHECKPOINTS, type CheckpointRow, projectionTables } from '../db';

/** The checkpoint table (the same columns as SQLite's; integers as BIGINT). */
export const CHECKPOINTS_DDL = `CREATE TABLE IF NOT EXISTS ${CHECKPOINTS} (name TEXT PRIMARY KEY, version BIGINT NOT NULL, position BIGINT NOT NULL, generation BIGINT NOT NULL, updated_at TEXT, rebuilt_at TEXT)`;

/** The advisory lock held while the schema is created or a rebuild's tables are made (any 64-bit constant). */
export const SCHEMA_LOCK = `SELECT pg_advisory_xact_lock(7239158702011)`;

/** Runs `f` in a transaction on `client` (rolled back when it throws). */
export async function inTransaction<T>(client: PoolClient, f: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const out = await f();
    await client.query('COMMIT');
    return out;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

export async function readCheckpointRow(
  client: PoolClient,
  name: string,
): Promise<CheckpointRow | undefined> {
  const { rows } = await client.query<CheckpointRow>(`SELECT * FROM ${CHECKPOINTS} WHERE name = $1`, [name]);
  return rows[0];
}

/**
 * Creates what is missing of a projection's tables and indexes. Only what is missing: a CREATE ... IF NOT EXISTS
 * locks its table even when there is nothing to create, and a live runner's commit holds its tables.
 */
async function createMissing(client: PoolClient, p: AnyProjection, tag: string): Promise<void> {
  const defs = projectionTables(p);
  const names = defs.flatMap((def) => [def.name, ...(def.indexes ?? []).map((i) => indexName(def, i, tag))]);
  const { rows } = await client.query<{ n: string }>(
    'SELECT n FROM unnest($1::text[]) AS n WHERE to_regclass(quote_ident(n)) IS NULL',
    [names],
  );
  const missing = new Set(rows.map((r) => r.n));
  for (const def of defs) {
    const [table, ...indexes] = createTableStatements(def, def.name, tag, 'postgres');
    if (missing.has(def.name) && table !== undefined) await client.query(table);
    for (const [i, idx] of (def.indexes ?? []).entries())
      if (missing.has(indexName(def, idx, tag)) && indexes[i] !== undefined) await client.query(indexes[i]);
  }
}

/** A projection's tables exist at its version (see ReadModelStorage.ensure); inside the caller's transaction. */
export async function ensureProjectionPg(client: PoolClient, p: AnyProjection): Promise<CheckpointRow> {
  const row = await readCheckpointRow(client, p.name);
  const defs = projectionTables(p);
  if (row && row.version === p.version) {
    await createMissing(client, p, `g${row.generation}`);
    return row;
  }
  const generation = (row?.generation ?? 0) + 1;
  for (const def of defs) await client.query(`DROP TABLE IF EXISTS ${ident(def.name)}`);
  for (const def of defs)
    for (const sql of createTableStatements(def, def.name, `g${generation}`, 'postgres'))
      await client.query(sql);
  await client.query(
    `INSERT INTO ${CHECKPOINTS} (name, version, position, generation, updated_at, rebuilt_at) VALUES ($1, $2, 0, $3, NULL, NULL)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = 0, generation = excluded.generation, updated_at = NULL, rebuilt_at = NULL`,
    [p.name, p.version, generation],
  );
  return { name: p.name, version: p.version, position: 0, generation, updated_at: null, rebuilt_at: null };
}

/** The checkpoint table and every projection's tables (see ReadModelStorage.ensure), in one transaction. */
export async function ensureSchema(client: PoolClient, projections: readonly AnyProjection[]): Promise<void> {
  await inTransaction(client, async () => {
    await client.query(SCHEMA_LOCK);
    await client.query(CHECKPOINTS_DDL);
    // the checkpoint rows first, in name order, as a live runner's commit and a rebuild's swap lock them
    await client.query(
      `SELECT name FROM ${CHECKPOINTS} WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE`,
      [projections.map((p) => p.name)],
    );
    for (const p of projections) await ensureProjectionPg(client, p);
  });
}
