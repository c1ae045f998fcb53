/**
 * The report views (reports/views.ts) in the live read models, where an analyst's own SQL tool finds them. They are
 * made with the analysts' tables when the storage is ensured (only those missing or of another definition: a view
 * is replaced in one transaction, so readers wait and then read the new one), and a rebuild's swap drops them
 * before it drops and renames those tables and makes them again after, in its one transaction: a reader sees the
 * views before the swap or after, never missing. (A view holds its tables: PostgreSQL refuses to drop a table a
 * view reads, SQLite to rename a table into place while a view names a missing one.)
 */
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { AnyProjection } from '../read-models/kernel/types';
import {
  DROP_EVERY_REPORT_VIEW_PG,
  REPORT_VIEWS,
  REPORT_VIEWS_PROJECTION,
  REPORT_VIEW_PREFIX,
  type ReportView,
} from '../reports/views';
import { ident } from '../sql/dialect';
import type { Db } from './db';
import { SCHEMA_LOCK, inTransaction } from './postgres/ddl';
import type { PostgresReadModelStorage } from './postgres/storage';
import type { ReadModelStorage } from './storage';

/** True when these projections hold the tables the views read (their ensure or swap makes the views). */
export function withReportViews(projections: readonly AnyProjection[]): boolean {
  return projections.some((p) => p.name === REPORT_VIEWS_PROJECTION);
}

const createSql = (v: ReportView): string => `CREATE VIEW ${ident(v.name)} AS ${v.sql}`;

/** What PostgreSQL keeps as a view's comment: which definition it was made with. */
const signature = (v: ReportView): string =>
  `coup report view ${createHash('sha256').update(v.sql).digest('hex').slice(0, 16)}`;

/** Making these views (after the tables they read), each with its signature on PostgreSQL. */
export function createViewsSql(dialect: 'sqlite' | 'postgres', views = REPORT_VIEWS): string[] {
  return views.flatMap((v) =>
    dialect === 'sqlite'
      ? [createSql(v)]
      : [createSql(v), `COMMENT ON VIEW ${ident(v.name)} IS '${signature(v)}'`],
  );
}

/** SQLite: makes the views that are missing or differ (its schema keeps each view's CREATE text), in one transaction. */
export function ensureReportViewsSqlite(db: Db): void {
  const stored = new Map(
    (
      db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'view'").all() as {
        name: string;
        sql: string;
      }[]
    ).map((r) => [r.name, r.sql]),
  );
  const stale = REPORT_VIEWS.filter((v) => stored.get(v.name) !== createSql(v));
  // an older release's report views (names no longer made) go too
  const current = new Set(REPORT_VIEWS.map((v) => v.name));
  const retired = [...stored.keys()].filter((n) => n.startsWith(REPORT_VIEW_PREFIX) && !current.has(n));
  if (stale.length === 0 && retired.length === 0) return;
  db.transaction(() => {
    for (const name of retired) db.exec(`DROP VIEW IF EXISTS ${ident(name)}`);
    for (const v of stale) db.exec(`DROP VIEW IF EXISTS ${ident(v.name)}`);
    for (const sql of createViewsSql('sqlite', stale)) db.exec(sql);
  }).immediate();
}

/** The report views whose signature is not the one stored (missing, or made from other SQL). */
async function staleViewsPg(client: PoolClient): Promise<ReportView[]> {
  const { rows } = await client.query<{ name: string; comment: string | null }>(
    `SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment FROM pg_class c
     WHERE c.relkind = 'v' AND c.relname = ANY($1::text[]) AND pg_table_is_visible(c.oid)`,
    [REPORT_VIEWS.map((v) => v.name)],
  );
  const stored = new Map(rows.map((r) => [r.name, r.comment]));
  return REPORT_VIEWS.filter((v) => stored.get(v.name) !== signature(v));
}

/** PostgreSQL: makes the views that are missing or differ, in one transaction (under the schema lock). */
async function ensureReportViewsPg(client: PoolClient): Promise<void> {
  if ((await staleViewsPg(client)).length === 0) return;
  await inTransaction(client, async () => {
    await client.query(SCHEMA_LOCK);
    const stale = await staleViewsPg(client);
    for (const v of stale) await client.query(`DROP VIEW IF EXISTS ${ident(v.name)}`);
    for (const sql of createViewsSql('postgres', stale)) await client.query(sql);
  });
}

/**
 * PostgreSQL: drops the views when ensuring `projections` will drop the tables they read (the analysts' model at
 * another version, or with no checkpoint: its tables are made again, empty), which PostgreSQL refuses while the
 * views hold them.
 */
async function dropViewsBeforeNewVersion(
  storage: PostgresReadModelStorage,
  projections: readonly AnyProjection[],
): Promise<void> {
  const analyst = projections.find((p) => p.name === REPORT_VIEWS_PROJECTION);
  if (analyst === undefined) return;
  const stored = (await storage.checkpoints()).find((r) => r.name === analyst.name);
  if (stored !== undefined && stored.version === analyst.version) return;
  await storage.withClient((client) =>
    inTransaction(client, async () => {
      await client.query(SCHEMA_LOCK);
      await client.query(DROP_EVERY_REPORT_VIEW_PG);
    }),
  );
}

/**
 * Ensures the storage's tables for `projections` (ReadModelStorage.ensure) and, with the analysts' tables among
 * them, the report views. SQLite's storage makes its views in `ensure`; PostgreSQL's here.
 */
export async function ensureWithReportViews(
  storage: ReadModelStorage,
  projections: readonly AnyProjection[],
): Promise<void> {
  if (storage.dialect !== 'postgres' || !withReportViews(projections)) {
    await storage.ensure(projections);
    return;
  }
  const pg = storage as PostgresReadModelStorage;
  await dropViewsBeforeNewVersion(pg, projections);
  await pg.ensure(projections);
  await pg.withClient(ensureReportViewsPg);
}

/**
 * PostgreSQL, after a rebuild that failed: the views made again over the live tables, if they can be (a rebuild at a
 * new version dropped them first; left missing, the analysts' own tools would lose them until a runner starts).
 */
export async function restoreReportViews(
  storage: ReadModelStorage,
  projections: readonly AnyProjection[],
): Promise<void> {
  if (storage.dialect === 'postgres' && withReportViews(projections))
    await (storage as PostgresReadModelStorage).withClient(ensureReportViewsPg);
}

/** PostgreSQL, before a rebuild's own ensure: the views out of the way of a new version's tables. */
export async function prepareRebuildViews(
  storage: ReadModelStorage,
  projections: readonly AnyProjection[],
): Promise<void> {
  if (storage.dialect === 'postgres')
    await dropViewsBeforeNewVersion(storage as PostgresReadModelStorage, projections);
}
