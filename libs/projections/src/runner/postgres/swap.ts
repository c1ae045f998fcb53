/**
 * The swap of a PostgreSQL rebuild: ONE transaction that locks the rebuilt projections' checkpoint rows (first,
 * in name order, as a live runner's commit does: neither waits for the other while holding what the other needs),
 * drops each live table, renames the rebuilt one (and its primary key) to the live name and moves the checkpoint
 * to where the rebuild stopped with the new generation; with the analysts' tables, the report views are dropped
 * before them and made again after (PostgreSQL refuses to drop a table a view reads), in the same transaction, so
 * readers find them before and after, never missing. All of it is one simple query (one round trip) holding
 * the tables' locks for as short as can be. A reader's long query holds the table it reads: the swap waits for it
 * at most `lockTimeoutMs` (the readers that arrive meanwhile queue behind the swap), then gives way and tries
 * again, up to {@link SWAP_ATTEMPTS} times.
 */
import type { PoolClient } from 'pg';
import type { AnyProjection } from '../../read-models/kernel/types';
import { ident } from '../../sql/dialect';
import { CHECKPOINTS, REBUILD_PREFIX, projectionTables } from '../db';
import { DROP_EVERY_REPORT_VIEW_PG } from '../../reports/views';
import { createViewsSql, withReportViews } from '../report-views';

export const SWAP_ATTEMPTS = 10;
const DEFAULT_LOCK_TIMEOUT_MS = 2_000;
/** lock_not_available: the lock timeout passed. */
const LOCK_TIMEOUT = '55P03';

const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** The primary key constraint of each rebuilt table (named after the table it was made with). */
async function primaryKeys(client: PoolClient, tables: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await client.query<{ t: string; c: string }>(
    `SELECT cl.relname AS t, co.conname AS c FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid
     WHERE co.contype = 'p' AND cl.relname = ANY($1::text[]) AND pg_table_is_visible(cl.oid)`,
    [tables],
  );
  return new Map(rows.map((r) => [r.t, r.c]));
}

/** The swap's statements (one simple query). */
function swapSql(
  projections: readonly AnyProjection[],
  keys: ReadonlyMap<string, string>,
  generations: ReadonlyMap<string, number>,
  position: number,
  at: string,
  lockTimeoutMs: number,
): string {
  const names = projections.map((p) => p.name).sort();
  const sql = [
    'BEGIN',
    `SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`,
    `SELECT name FROM ${CHECKPOINTS} WHERE name IN (${names.map(literal).join(', ')}) ORDER BY name FOR UPDATE`,
  ];
  const views = withReportViews(projections);
  if (views) sql.push(DROP_EVERY_REPORT_VIEW_PG);
  for (const p of projections) {
    for (const def of projectionTables(p)) {
      const rebuilt = REBUILD_PREFIX + def.name;
      sql.push(`DROP TABLE IF EXISTS ${ident(def.name)}`);
      sql.push(`ALTER TABLE ${ident(rebuilt)} RENAME TO ${ident(def.name)}`);
      const key = keys.get(rebuilt);
      if (key !== undefined)
        sql.push(
          `ALTER TABLE ${ident(def.name)} RENAME CONSTRAINT ${ident(key)} TO ${ident(`${def.name}_pkey`)}`,
        );
    }
    sql.push(
      `INSERT INTO ${CHECKPOINTS} (name, version, position, generation, updated_at, rebuilt_at) ` +
        `VALUES (${literal(p.name)}, ${p.version}, ${position}, ${generations.get(p.name) ?? 1}, ${literal(at)}, ${literal(at)}) ` +
        `ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position, ` +
        `generation = excluded.generation, updated_at = excluded.updated_at, rebuilt_at = excluded.rebuilt_at`,
    );
  }
  if (views) sql.push(...createViewsSql('postgres'));
  sql.push('COMMIT');
  return sql.join(';\n');
}

/** Swaps the rebuilt tables in (see the file's comment). */
export async function swapIn(
  client: PoolClient,
  projections: readonly AnyProjection[],
  generations: ReadonlyMap<string, number>,
  position: number,
  at: string,
  lockTimeoutMs = DEFAULT_LOCK_TIMEOUT_MS,
): Promise<void> {
  const rebuilt = projections.flatMap((p) => projectionTables(p).map((d) => REBUILD_PREFIX + d.name));
  const sql = swapSql(
    projections,
    await primaryKeys(client, rebuilt),
    generations,
    position,
    at,
    lockTimeoutMs,
  );
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(sql);
      return;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((error as { code?: string }).code !== LOCK_TIMEOUT || attempt >= SWAP_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
