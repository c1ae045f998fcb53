/**
 * The PostgreSQL read-model storage: the projections' tables in the connection's schema (its `search_path`),
 * written through a `pg` pool (`types: pgTypes`, so BIGINT and NUMERIC read back as numbers, as from SQLite).
 * A batch is one transaction: the checkpoint rows locked first (`FOR UPDATE`, in name order, so a rebuild's swap
 * and a live runner never deadlock), the writes as `INSERT ... SELECT ... ON CONFLICT` statements over their rows
 * as JSON (`statements.ts`), the checkpoints moved, COMMIT (a rebuild copies its new rows: `rebuild.ts`).
 * Commits are asynchronous (`synchronous_commit = off`): read models are rebuilt from the events, and a commit
 * lost in a crash is lost with its checkpoint, so the runner folds it again, as SQLite's `synchronous = NORMAL`
 * does for the file.
 */
import { Pool, type PoolClient, type QueryConfig, type QueryResult } from 'pg';
import type { AnyProjection, Row } from '../../read-models/kernel/types';
import { ident } from '../../sql/dialect';
import { pgTypes, postgresReader, type SqlReader } from '../../sql/reader';
import { type Checkpoint, CheckpointMovedError, type Slot, type StoredState } from '../batch-folder';
import { CHECKPOINTS, type CheckpointRow, stateTable } from '../db';
import type { RebuildResult } from '../rebuild';
import type { CheckpointMove, LiveTables, ReadModelStorage, StorageRebuildOptions } from '../storage';
import { type TableWriter, type WriteSet, writersFor } from '../write-set';
import { ensureSchema } from './ddl';
import { rebuildPostgres } from './rebuild';
import { BEGIN, PgTableStatements, inlined, literal } from './statements';

/** A statement waiting for its transaction. */
export type PgStatement = QueryConfig<unknown[]>;

/** Writers for the tables of some projections (under `rename`d names) whose statements go to `pending`. */
export function pgWriters(
  projections: readonly AnyProjection[],
  rename: (name: string) => string,
  pending: PgStatement[],
): Map<string, TableWriter> {
  return writersFor(
    projections,
    rename,
    (text, values) => void pending.push({ text, values }),
    (sink, def, name) => new PgTableStatements(sink, def, name),
  );
}

/** The stored states of `keys`: state rows, and for a projection with a `storage`, the keys' rows in key order. */
async function loadStates(
  pool: Pool,
  slot: Slot,
  keys: readonly string[],
): Promise<Map<string, StoredState>> {
  const p = slot.p;
  const states = await pool.query<{ key: string; state: string }>(
    `SELECT key, state FROM ${ident(stateTable(p.prefix))} WHERE key = ANY($1::text[])`,
    [keys],
  );
  const out = new Map<string, StoredState>();
  const storage = p.storage;
  const def = storage ? p.tables.find((t) => t.name === storage.rowsTable) : undefined;
  if (storage === undefined || def === undefined) {
    for (const r of states.rows) out.set(r.key, { state: r.state });
    return out;
  }
  const rows = await pool.query<Row>(
    `SELECT * FROM ${ident(def.name)} WHERE ${ident(storage.keyColumn)} = ANY($1::text[]) ORDER BY ${def.primaryKey.map(ident).join(', ')}`,
    [keys],
  );
  const byKey = new Map<string, Row[]>();
  for (const r of rows.rows) {
    const k = String(r[storage.keyColumn]);
    const list = byKey.get(k);
    if (list) list.push(r);
    else byKey.set(k, [r]);
  }
  for (const r of states.rows) out.set(r.key, { state: r.state, rows: byKey.get(r.key) ?? [] });
  return out;
}

/**
 * One batch's transaction in two round trips whatever its size: BEGIN and the checkpoint rows locked and read;
 * then (if no other writer moved them) the writes, the checkpoints moved and COMMIT, as one simple query of
 * statements with their values inlined as literals.
 */
async function commitBatch(
  client: PoolClient,
  statements: readonly PgStatement[],
  moved: readonly CheckpointMove[],
  last: number,
  at: string,
): Promise<void> {
  const names = moved
    .map((m) => m.name)
    .sort()
    .map(literal)
    .join(', ');
  const opened = (await client.query(
    `${BEGIN};\nSELECT name, position, generation FROM ${CHECKPOINTS} WHERE name IN (${names}) ORDER BY name FOR UPDATE`,
  )) as unknown as QueryResult<{ name: string; position: number; generation: number }>[];
  const rows = opened[opened.length - 1]?.rows ?? [];
  for (const m of moved) {
    const row = rows.find((r) => r.name === m.name);
    if (!row || row.position !== m.from.position || row.generation !== m.from.generation)
      throw new CheckpointMovedError(m.name);
  }
  await client.query(
    [
      ...statements.map(inlined),
      `UPDATE ${CHECKPOINTS} SET position = ${last}, updated_at = ${literal(at)} WHERE name IN (${names})`,
      'COMMIT',
    ].join(';\n'),
  );
}

/** The URL without its password (for logs). */
function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'postgres';
  }
}

export interface PostgresStorageOptions {
  /** Most connections of the pool it opens (default 4: the runner's commits, state loads, a rebuild, readers). */
  readonly maxConnections?: number;
  /**
   * Called when an idle pooled connection fails (the server restarted, the network dropped); the pool replaces
   * it. Default: ignored (the next commit fails and is retried, or connects again).
   */
  readonly onPoolError?: (error: Error) => void;
}

export class PostgresReadModelStorage implements ReadModelStorage {
  readonly dialect = 'postgres' as const;
  readonly pool: Pool;
  readonly location: string;
  readonly reader: SqlReader;
  private readonly ownsPool: boolean;

  /** Over a connection string (a pool it opens and `close` ends), or a pool made with `types: pgTypes` (left open). */
  constructor(connection: string | Pool, options: PostgresStorageOptions = {}) {
    this.ownsPool = typeof connection === 'string';
    this.pool =
      typeof connection === 'string'
        ? new Pool({ connectionString: connection, types: pgTypes, max: options.maxConnections ?? 4 })
        : connection;
    // An idle client's error is emitted on the pool: unhandled, it would end the process.
    if (typeof connection === 'string') this.pool.on('error', (error) => options.onPoolError?.(error));
    this.location = typeof connection === 'string' ? withoutPassword(connection) : 'postgres (pool)';
    this.reader = postgresReader(this.pool);
  }

  /** Runs `f` with a client of the pool (released after; destroyed when `f` failed and the client may be broken). */
  async withClient<T>(f: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      return await f(client);
    } catch (error) {
      if (!(error instanceof CheckpointMovedError)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async ensure(projections: readonly AnyProjection[]): Promise<void> {
    await this.withClient((client) => ensureSchema(client, projections));
  }

  async checkpoints(): Promise<CheckpointRow[]> {
    const { rows } = await this.pool.query<{ t: string | null }>(`SELECT to_regclass($1) AS t`, [
      CHECKPOINTS,
    ]);
    if (rows[0]?.t === null || rows[0] === undefined) return [];
    return (await this.pool.query<CheckpointRow>(`SELECT * FROM ${CHECKPOINTS} ORDER BY name`)).rows;
  }

  live(projections: readonly AnyProjection[]): LiveTables {
    const pending: PgStatement[] = [];
    const pool = this.pool;
    return {
      writers: pgWriters(projections, (n) => n, pending),
      load: (slot, keys) => loadStates(pool, slot, keys),
      checkpoints: async () => {
        const out = new Map<string, Checkpoint>();
        for (const r of await this.checkpoints())
          if (projections.some((p) => p.name === r.name))
            out.set(r.name, { position: r.position, generation: r.generation });
        return out;
      },
      commit: async (writes: WriteSet, moved, last, at) => {
        pending.length = 0;
        writes.apply();
        const statements = pending.splice(0);
        await this.withClient(async (client) => {
          try {
            await commitBatch(client, statements, moved, last, at);
          } catch (error) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw error;
          }
        });
      },
    };
  }

  rebuild(options: StorageRebuildOptions): Promise<RebuildResult> {
    return rebuildPostgres(this, options);
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
