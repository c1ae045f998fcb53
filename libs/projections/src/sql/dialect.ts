/**
 * The two SQL dialects the read models are stored in: SQLite (the embedded default) and PostgreSQL. The
 * projections' table definitions (`TableDef`) are the one schema; this turns them into each dialect's DDL, and
 * turns the `?` placeholders every query is written with into PostgreSQL's `$1, $2, ...`. Queries written for
 * both use only SQL the two share (quoted identifiers, ON CONFLICT upserts, CASE, COALESCE, window functions).
 */
import type { ColumnDef, TableDef } from '../read-models/kernel/types';

export type Dialect = 'sqlite' | 'postgres';

/** A quoted SQL identifier (both dialects). */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * A column's type in the dialect. PostgreSQL keeps integers as BIGINT (positions, cents and counts can pass
 * 2^31) and reals as DOUBLE PRECISION; `pgTypes` reads both back as JavaScript numbers, as SQLite answers them.
 */
export function columnType(type: ColumnDef['type'], dialect: Dialect): string {
  if (dialect === 'sqlite') return type;
  if (type === 'INTEGER') return 'BIGINT';
  if (type === 'REAL') return 'DOUBLE PRECISION';
  return 'TEXT';
}

/** The SQL name of a table's index `idx` in the generation `tag` (see createTableStatements). */
export function indexName(def: TableDef, idx: { readonly name: string }, tag: string): string {
  return `${def.name}_${idx.name}_${tag}`;
}

/**
 * CREATE TABLE and CREATE INDEX statements for a table created under `name` (a rebuild builds under another
 * name); index names carry `tag` so that a table built beside the live one has its own.
 */
export function createTableStatements(def: TableDef, name: string, tag: string, dialect: Dialect): string[] {
  const cols = def.columns.map((c) => `${ident(c.name)} ${columnType(c.type, dialect)}`).join(', ');
  // WITHOUT ROWID (SQLite only) keeps the rows in the primary key's b-tree: one b-tree insert per row instead
  // of two (table and key index). PostgreSQL has no such option and needs none.
  const withoutRowid = dialect === 'sqlite' && def.withoutRowid === true ? ' WITHOUT ROWID' : '';
  const sql = [
    `CREATE TABLE IF NOT EXISTS ${ident(name)} (${cols}, PRIMARY KEY (${def.primaryKey.map(ident).join(', ')}))${withoutRowid}`,
  ];
  for (const idx of def.indexes ?? []) {
    sql.push(
      `CREATE INDEX IF NOT EXISTS ${ident(indexName(def, idx, tag))} ON ${ident(name)} (${idx.columns.map(ident).join(', ')})`,
    );
  }
  return sql;
}

/**
 * A query written with `?` placeholders in PostgreSQL's numbered form (`$1`, `$2`, ...). Question marks inside
 * quoted strings or identifiers are left alone.
 */
export function numberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  return out;
}

/** The query in the dialect's placeholder form. */
export function inDialect(sql: string, dialect: Dialect): string {
  return dialect === 'postgres' ? numberedPlaceholders(sql) : sql;
}
