/**
 * The write set that applies a batch's writes (ordered per table, `add`s summed, `coalesce` tables' writes
 * collapsed to the last per row), and the tables' writers: how a row's values are packed (here, for every
 * dialect) and how they become statements (SQLite here; PostgreSQL in `postgres/statements.ts`).
 */
import type Database from 'better-sqlite3';
import type { AnyProjection, Row, SqlValue, TableDef, Write } from '../read-models/kernel/types';
import { type Dialect, inDialect } from '../sql/dialect';
import { type Db, projectionTables, q } from './db';

/**
 * Where a write statement goes: run on this connection (default), or handed to someone else with its SQL and
 * values (the rebuild's writer thread, which runs them on its own connection; a PostgreSQL transaction).
 */
export type StatementSink = (sql: string, values: SqlValue[]) => void;

/** Runs SQL on a connection, preparing each statement once. */
function localSink(db: Db): StatementSink {
  const prepared = new Map<string, Database.Statement>();
  return (sql, values) => {
    let stmt = prepared.get(sql);
    if (stmt === undefined) prepared.set(sql, (stmt = db.prepare(sql)));
    stmt.run(values);
  };
}

/**
 * A run of a table's ordered writes: upserts (their values, row after row), one delete (its key), or one update
 * (the columns it sets; its values: those columns, then the key).
 */
export interface Segment {
  readonly kind: 'upsert' | 'delete' | 'update';
  readonly values: SqlValue[];
  rows: number;
  readonly set?: readonly string[];
}

/**
 * One table's writes as values, whatever the dialect: a row's values packed in column order by small functions
 * compiled per table from its column names (constants of the table definitions, quoted by JSON.stringify): a
 * property read per column at its own site (one row shape each), instead of one loop reading every table's rows
 * by computed name, measured at about 3 % of a rebuild. A dialect's writer turns the packed values into statements.
 */
export abstract class TableWriter {
  protected readonly names: readonly string[];
  readonly coalesce: boolean;
  /** Appends a row's values (columns in order, missing ones NULL). */
  protected readonly pushRow: (out: SqlValue[], row: Row) => void;
  /** Appends an add's values (columns in order, counters from `add`, the others from `row`). */
  protected readonly pushAdd: (out: SqlValue[], row: Row, add: Readonly<Record<string, number>>) => void;
  /** Adds an add's counters into a sum. */
  readonly sumInto: (sum: Record<string, number>, add: Readonly<Record<string, number>>) => void;
  /** The primary key of a row as a string (for coalescing writes): each key column's value and \u0001. */
  readonly keyOf: (row: Row) => string;

  private deleteSql: string | null = null;
  private readonly updateSql = new Map<string, string>();

  constructor(
    protected readonly sink: StatementSink,
    protected readonly def: TableDef,
    protected readonly name: string,
    private readonly dialect: Dialect,
  ) {
    this.names = def.columns.map((c) => c.name);
    const counters = def.counters ?? [];
    this.coalesce = def.coalesce ?? false;
    const at = (obj: string, n: string): string => `${obj}[${JSON.stringify(n)}]`;
    const compile = <F>(params: string[], body: string): F => new Function(...params, body) as F;
    this.pushRow = compile(
      ['out', 'row'],
      `out.push(${this.names.map((n) => `${at('row', n)} ?? null`).join(', ')});`,
    );
    this.pushAdd = compile(
      ['out', 'row', 'add'],
      `out.push(${this.names
        .map((n) => (counters.includes(n) ? `${at('add', n)} ?? 0` : `${at('row', n)} ?? null`))
        .join(', ')});`,
    );
    this.sumInto = compile(
      ['sum', 'add'],
      counters.map((n) => `${at('sum', n)} = (${at('sum', n)} ?? 0) + (${at('add', n)} ?? 0);`).join('\n'),
    );
    this.keyOf = compile(
      ['row'],
      `return ${def.primaryKey.map((n) => `String(${at('row', n)}) + "\\u0001"`).join(' + ') || '""'};`,
    );
  }

  /** Runs upserts or adds of one row each (distinct keys), in any order. */
  protected abstract runPacked(values: SqlValue[], rows: number, kind: 'upsert' | 'add'): void;
  /** Runs a run of upserts (rows packed in order; a row may come again), the table ending as after each in turn. */
  protected abstract runUpserts(values: SqlValue[], rows: number): void;

  /** Runs a table's segments in order. */
  runSegments(segments: readonly Segment[]): void {
    for (const seg of segments) {
      if (seg.kind === 'delete') this.deleteValues(seg.values);
      else if (seg.kind === 'update') this.sink(this.updateStatement(seg.set ?? []), seg.values);
      else this.runUpserts(seg.values, seg.rows);
    }
  }

  /** Deletes the row with this key (its primary key's values). */
  private deleteValues(key: SqlValue[]): void {
    this.deleteSql ??= inDialect(
      `DELETE FROM ${q(this.name)} WHERE ${this.def.primaryKey.map((n) => `${q(n)} = ?`).join(' AND ')}`,
      this.dialect,
    );
    this.sink(this.deleteSql, key);
  }

  /** The UPDATE of the columns `set` (in this order) of the row with a primary key. */
  private updateStatement(set: readonly string[]): string {
    const id = set.join('\u0000');
    let sql = this.updateSql.get(id);
    if (sql === undefined) {
      sql = inDialect(
        `UPDATE ${q(this.name)} SET ${set.map((n) => `${q(n)} = ?`).join(', ')} WHERE ${this.def.primaryKey.map((n) => `${q(n)} = ?`).join(' AND ')}`,
        this.dialect,
      );
      this.updateSql.set(id, sql);
    }
    return sql;
  }

  /** How many of `left` rows the next statement of a run takes. */
  protected abstract chunk(left: number): number;

  /** Runs upserts (kind 'upsert') or adds (kind 'add') of `writes[from, to)`, one per row, a statement at a time. */
  runRows(writes: readonly Write[], from: number, to: number, kind: 'upsert' | 'add'): void {
    if (to > from && kind === 'add' && (this.def.counters ?? []).length === 0)
      throw new Error(`table ${this.def.name} has no counters: it takes no add writes`);
    let i = from;
    while (i < to) {
      const n = this.chunk(to - i);
      const values: SqlValue[] = [];
      for (let k = i; k < i + n; k++) {
        const w = writes[k] as Write;
        if (w.kind === 'delete' || w.kind === 'update') throw new Error(`runRows: a ${w.kind}`);
        if (w.kind === 'add') this.pushAdd(values, w.row, w.add);
        else this.pushRow(values, w.row);
      }
      this.runPacked(values, n, kind);
      i += n;
    }
  }

  delete(key: Row): void {
    this.deleteValues(this.def.primaryKey.map((n) => key[n] ?? null));
  }

  /** Checks that an update may set these columns. */
  protected checkUpdate(set: readonly string[]): void {
    for (const n of set)
      if (!this.names.includes(n) || this.def.primaryKey.includes(n))
        throw new Error(`table ${this.def.name}: an update cannot set ${n}`);
  }

  /**
   * Adds an ordered write (upsert, delete or update) to a table's segments: an upsert's values go straight into
   * the run of upserts it continues (so the row objects are not kept until the batch is applied: a rebuild holds
   * a whole commit's rows, and rows kept that long outlive the garbage collector's young generation).
   */
  addOrdered(segments: Segment[], w: Write): void {
    if (w.kind === 'delete') {
      segments.push({ kind: 'delete', values: this.def.primaryKey.map((n) => w.key[n] ?? null), rows: 1 });
      return;
    }
    if (w.kind === 'update') {
      const set = Object.keys(w.set);
      this.checkUpdate(set);
      const values = [
        ...set.map((n) => w.set[n] ?? null),
        ...this.def.primaryKey.map((n) => w.key[n] ?? null),
      ];
      segments.push({ kind: 'update', values, rows: 1, set });
      return;
    }
    if (w.kind !== 'upsert') throw new Error('addOrdered: an add');
    let last = segments[segments.length - 1];
    if (last === undefined || last.kind !== 'upsert')
      segments.push((last = { kind: 'upsert', values: [], rows: 0 }));
    this.pushRow(last.values, w.row);
    last.rows += 1;
  }
}

/** Most rows per multi-row INSERT (a batch of n rows runs as statements of 64, 32, ..., 1 rows). */
const MAX_ROWS_PER_INSERT = 64;

/**
 * SQLite's statements for one table under a (possibly temporary) name. Upserts and `add`s of a batch run as
 * multi-row INSERTs (`VALUES (...), (...)`, up to {@link MAX_ROWS_PER_INSERT} rows each, one prepared statement
 * per row count: 64, 32, 16, 8, 4, 2, 1): SQLite applies the rows of one statement in order, each with its
 * ON CONFLICT clause, so the table ends as with one statement per row, for a fraction of the calls.
 */
class TableStatements extends TableWriter {
  private readonly upsertSql: string[] = [];
  private readonly addSql: string[] = [];

  private insertSql(rows: number, conflict: string): string {
    const cols = this.names.map(q).join(', ');
    const one = `(${this.names.map(() => '?').join(', ')})`;
    const values = new Array<string>(rows).fill(one).join(', ');
    return `INSERT INTO ${q(this.name)} (${cols}) VALUES ${values} ON CONFLICT(${this.def.primaryKey.map(q).join(', ')}) ${conflict}`;
  }

  private upsertStatement(rows: number): string {
    let sql = this.upsertSql[rows];
    if (sql === undefined) {
      const rest = this.names.filter((n) => !this.def.primaryKey.includes(n));
      const conflict =
        rest.length === 0
          ? 'DO NOTHING'
          : `DO UPDATE SET ${rest.map((n) => `${q(n)} = excluded.${q(n)}`).join(', ')}`;
      this.upsertSql[rows] = sql = this.insertSql(rows, conflict);
    }
    return sql;
  }

  private addStatement(rows: number): string {
    let sql = this.addSql[rows];
    if (sql === undefined) {
      const counters = this.def.counters ?? [];
      const conflict = `DO UPDATE SET ${counters.map((n) => `${q(n)} = ${q(n)} + excluded.${q(n)}`).join(', ')}`;
      this.addSql[rows] = sql = this.insertSql(rows, conflict);
    }
    return sql;
  }

  protected chunk(left: number): number {
    let n = MAX_ROWS_PER_INSERT;
    while (n > left) n >>= 1;
    return n;
  }

  protected runPacked(values: SqlValue[], rows: number, kind: 'upsert' | 'add'): void {
    const width = this.names.length;
    let i = 0;
    while (i < rows) {
      const n = this.chunk(rows - i);
      const part = n === rows ? values : values.slice(i * width, (i + n) * width);
      this.sink(kind === 'add' ? this.addStatement(n) : this.upsertStatement(n), part);
      i += n;
    }
  }

  protected runUpserts(values: SqlValue[], rows: number): void {
    this.runPacked(values, rows, 'upsert');
  }
}

/**
 * Writes of a batch: each table's upserts and deletes applied in the order they were made (tables are
 * independent: one table's writes run together, in multi-row statements), except `add`s, which are summed per
 * row, and the upserts/deletes of `coalesce` tables, of which only the last per row is applied (inside the
 * caller's transaction). A set can collect several batches (a rebuild collects a whole commit): `apply` runs
 * what was collected and empties it.
 */
export class WriteSet {
  /** Each table's ordered writes (upserts, deletes and updates), in order; tables in the order of their first write. */
  private readonly ordered = new Map<TableWriter, Segment[]>();
  private orderedCount = 0;
  /** Each table's keyed writes (adds, a coalescing table's upserts and deletes): one per row, by its key. */
  private readonly keyed = new Map<TableWriter, Map<string, Write>>();
  private keyedCount = 0;

  constructor(private readonly tables: ReadonlyMap<string, TableWriter>) {}

  get size(): number {
    return this.orderedCount + this.keyedCount;
  }

  push(w: Write): void {
    const stmts = this.tables.get(w.table);
    if (!stmts) throw new Error(`unknown read-model table ${w.table}`);
    if (w.kind === 'update' && stmts.coalesce)
      throw new Error(`table ${w.table} coalesces its writes: it takes no update writes`);
    if (w.kind !== 'add' && !stmts.coalesce) {
      let segments = this.ordered.get(stmts);
      if (segments === undefined) this.ordered.set(stmts, (segments = []));
      stmts.addOrdered(segments, w);
      this.orderedCount += 1;
      return;
    }
    let rows = this.keyed.get(stmts);
    if (rows === undefined) this.keyed.set(stmts, (rows = new Map<string, Write>()));
    const key = stmts.keyOf(w.kind === 'delete' || w.kind === 'update' ? w.key : w.row);
    const prev = rows.get(key);
    if (prev === undefined) this.keyedCount += 1;
    if (w.kind === 'add') {
      if (prev && prev.kind === 'add') {
        // the first add of a row was copied into a sum this set owns: later ones are added in place
        stmts.sumInto(prev.add as Record<string, number>, w.add);
        return;
      }
      rows.set(key, { kind: 'add', table: w.table, row: w.row, add: { ...w.add } });
      return;
    }
    rows.set(key, w);
  }

  /**
   * Runs the ordered writes collected so far; the keyed ones wait for `apply`, which runs them after every
   * ordered write, as it would have anyway.
   */
  applyOrdered(): void {
    for (const [stmts, segments] of this.ordered) stmts.runSegments(segments);
    this.ordered.clear();
    this.orderedCount = 0;
  }

  apply(): void {
    this.applyOrdered();
    // keyed writes (one per row): per table and kind, each kind in multi-row statements
    const groups = new Map<TableWriter, { upsert: Write[]; add: Write[]; delete: Write[] }>();
    for (const [stmts, rows] of this.keyed) {
      const g = { upsert: [] as Write[], add: [] as Write[], delete: [] as Write[] };
      for (const write of rows.values()) if (write.kind !== 'update') g[write.kind].push(write);
      groups.set(stmts, g);
    }
    this.keyed.clear();
    this.keyedCount = 0;
    for (const [stmts, g] of groups) {
      for (const d of g.delete) if (d.kind === 'delete') stmts.delete(d.key);
      stmts.runRows(g.upsert, 0, g.upsert.length, 'upsert');
      stmts.runRows(g.add, 0, g.add.length, 'add');
    }
  }
}

/** Makes a dialect's writer for a table written under `name`. */
export type TableWriterFactory = (sink: StatementSink, def: TableDef, name: string) => TableWriter;

const sqliteWriter: TableWriterFactory = (sink, def, name) => new TableStatements(sink, def, name, 'sqlite');

/**
 * Writers for every table of some projections, under names given by `rename` (identity for live tables): SQLite
 * statements run on `db` unless a `sink` takes them.
 */
export function compileTables(
  db: Db,
  projections: readonly AnyProjection[],
  rename: (name: string) => string = (n) => n,
  sink: StatementSink = localSink(db),
): Map<string, TableWriter> {
  return writersFor(projections, rename, sink, sqliteWriter);
}

/** Writers of a dialect for every table of some projections, under names given by `rename`. */
export function writersFor(
  projections: readonly AnyProjection[],
  rename: (name: string) => string,
  sink: StatementSink,
  make: TableWriterFactory,
): Map<string, TableWriter> {
  const out = new Map<string, TableWriter>();
  for (const p of projections)
    for (const def of projectionTables(p)) out.set(def.name, make(sink, def, rename(def.name)));
  return out;
}
