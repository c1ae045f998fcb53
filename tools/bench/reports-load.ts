/**
 * Bulk loading for the reports benchmark's SQLite file: the analysts' tables created from their TableDefs (the
 * DDL the runner uses, `createTableStatements`), rows inserted many to a statement inside big transactions, the
 * secondary indexes built after the rows. (reports-postgres.ts copies the file into PostgreSQL.)
 */
import Database from 'better-sqlite3';
import { type SqlValue, type TableDef, createTableStatements, ident } from '@coup/projections';

const ROWS_PER_INSERT = 100;
const ROWS_PER_COMMIT = 250_000;

export const META = 'bench_meta';

interface Insert {
  readonly many: Database.Statement;
  readonly one: Database.Statement;
  buffer: SqlValue[];
  rows: number;
}

/** Builds a SQLite file of the given tables from rows given one at a time. */
export class SqliteBuild {
  private readonly db: Database.Database;
  private readonly inserts = new Map<string, Insert>();
  private readonly indexes: string[] = [];
  private sinceCommit = 0;
  rows = 0;

  constructor(file: string, defs: readonly TableDef[]) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -262144');
    for (const def of defs) {
      const [table, ...indexes] = createTableStatements(def, def.name, 'g1', 'sqlite');
      this.db.exec(table as string);
      this.indexes.push(...indexes);
      const marks = `(${def.columns.map(() => '?').join(', ')})`;
      const insert = `INSERT INTO ${ident(def.name)} (${def.columns.map((c) => ident(c.name)).join(', ')}) VALUES `;
      this.inserts.set(def.name, {
        many: this.db.prepare(insert + Array.from({ length: ROWS_PER_INSERT }, () => marks).join(', ')),
        one: this.db.prepare(insert + marks),
        buffer: [],
        rows: 0,
      });
    }
    this.db.exec('BEGIN');
  }

  add(def: TableDef, values: SqlValue[]): void {
    const insert = this.inserts.get(def.name);
    if (insert === undefined) throw new Error(`no table ${def.name} in this build`);
    for (const v of values) insert.buffer.push(v);
    insert.rows += 1;
    this.rows += 1;
    if (insert.rows === ROWS_PER_INSERT) {
      insert.many.run(insert.buffer);
      insert.buffer = [];
      insert.rows = 0;
    }
    if (++this.sinceCommit >= ROWS_PER_COMMIT) {
      this.db.exec('COMMIT; BEGIN');
      this.sinceCommit = 0;
    }
  }

  /** Writes what is buffered, commits, builds the indexes, records `meta`; answers the index time in ms. */
  finish(meta: string): number {
    for (const [name, insert] of this.inserts) {
      const width = insert.rows === 0 ? 0 : insert.buffer.length / insert.rows;
      for (let i = 0; i < insert.rows; i++) insert.one.run(insert.buffer.slice(i * width, (i + 1) * width));
      if (insert.rows > 0 && width === 0) throw new Error(`${name}: rows without columns`);
    }
    this.db.exec('COMMIT');
    const start = performance.now();
    for (const sql of this.indexes) this.db.exec(sql);
    const indexMs = performance.now() - start;
    this.db.exec(`CREATE TABLE ${META} (key TEXT NOT NULL)`);
    this.db.prepare(`INSERT INTO ${META} (key) VALUES (?)`).run(meta);
    this.db.pragma('journal_mode = WAL');
    this.db.close();
    return indexMs;
  }
}

/** The key recorded in a built SQLite file, or null. */
export function sqliteMeta(file: string): string | null {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT key FROM ${META}`).get() as { key: string } | undefined;
    return row?.key ?? null;
  } catch {
    return null;
  } finally {
    db.close();
  }
}
