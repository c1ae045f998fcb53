/**
 * PostgreSQL's statements for one read-model table. A run of upserts or `add`s is one
 * `INSERT ... SELECT * FROM unnest($1::text[], $2::bigint[], ...) ON CONFLICT ... DO UPDATE` per
 * {@link ROWS_PER_STATEMENT} rows: one array parameter per column whatever the number of rows (no limit of 65,535
 * parameters, one statement to parse and plan), the server unpacking the arrays. PostgreSQL refuses a statement
 * that changes a row twice, so a run keeps only the last upsert of each row (the same table as SQLite's one row
 * after another: an upsert replaces every column); `add`s and coalesced writes arrive one per row already.
 */
import type { SqlValue, TableDef } from '../../read-models/kernel/types';
import { columnType, ident, inDialect } from '../../sql/dialect';
import { type Segment, type StatementSink, TableWriter } from '../write-set';

/** How a transaction of the read models begins: asynchronous commit (see `storage.ts`). */
export const BEGIN = 'BEGIN;\nSET LOCAL synchronous_commit TO OFF';

/**
 * A value as an SQL literal: an escape string (E'...', read alike whatever `standard_conforming_strings` says),
 * quoted even for a number: a quoted literal takes the type of the column it goes to or is compared with.
 */
export function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  return `E'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * A statement with its `$n` parameters inlined as literals, to send many statements as one simple query (one
 * round trip; a parameterized statement takes one each). Only for statements made here: their text holds no `$`
 * but their parameters'.
 */
export function inlined(s: { readonly text: string; readonly values?: readonly unknown[] }): string {
  const values = s.values ?? [];
  return s.text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
}

/** Most rows per statement (bounds one message; a rebuild's commit of 10,000 events writes fewer per table). */
export const ROWS_PER_STATEMENT = 20_000;

/** A PostgreSQL array literal's element: NULL, a number as it is, anything else quoted (with `"` and `\` escaped). */
function element(v: SqlValue, numeric: boolean): string {
  if (v === null) return 'NULL';
  if (numeric && typeof v === 'number') return String(v);
  const s = typeof v === 'string' ? v : String(v);
  return `"${s.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The array literals of a run's columns: column `c` of the rows `rows` (indexes into `values`, `width` values a
 * row), or of every row when `rows` is null.
 */
export function columnArrays(
  values: readonly SqlValue[],
  width: number,
  numeric: readonly boolean[],
  from: number,
  to: number,
  rows: readonly number[] | null,
): string[] {
  const out: string[] = [];
  for (let c = 0; c < width; c++) {
    const isNumber = numeric[c] as boolean;
    const parts = new Array<string>(to - from);
    for (let i = from; i < to; i++) {
      const r = rows === null ? i : (rows[i] as number);
      parts[i - from] = element(values[r * width + c] as SqlValue, isNumber);
    }
    out.push(`{${parts.join(',')}}`);
  }
  return out;
}

export class PgTableStatements extends TableWriter {
  private readonly numeric: boolean[];
  private readonly keyIndexes: number[];
  private readonly upsertSql: string;
  private addSql: string | null = null;
  private readonly deleteSql: string;
  private readonly updateSql = new Map<string, string>();

  constructor(sink: StatementSink, def: TableDef, name: string) {
    super(sink, def, name);
    this.numeric = def.columns.map((c) => c.type !== 'TEXT');
    this.keyIndexes = def.primaryKey.map((k) => this.names.indexOf(k));
    const rest = this.names.filter((n) => !def.primaryKey.includes(n));
    this.upsertSql = this.insertSql(
      rest.length === 0
        ? 'DO NOTHING'
        : `DO UPDATE SET ${rest.map((n) => `${ident(n)} = excluded.${ident(n)}`).join(', ')}`,
    );
    this.deleteSql = inDialect(
      `DELETE FROM ${ident(name)} WHERE ${def.primaryKey.map((n) => `${ident(n)} = ?`).join(' AND ')}`,
      'postgres',
    );
  }

  private insertSql(conflict: string): string {
    const arrays = this.def.columns.map((c) => `?::${columnType(c.type, 'postgres')}[]`).join(', ');
    return inDialect(
      `INSERT INTO ${ident(this.name)} AS t (${this.names.map(ident).join(', ')}) SELECT * FROM unnest(${arrays}) ` +
        `ON CONFLICT (${this.def.primaryKey.map(ident).join(', ')}) ${conflict}`,
      'postgres',
    );
  }

  private addStatement(): string {
    if (this.addSql === null) {
      const counters = this.def.counters ?? [];
      this.addSql = this.insertSql(
        `DO UPDATE SET ${counters.map((n) => `${ident(n)} = t.${ident(n)} + excluded.${ident(n)}`).join(', ')}`,
      );
    }
    return this.addSql;
  }

  /** The rows to write of a run of upserts: the last of each key (null: every row, no key written twice). */
  private lastOfEachKey(values: readonly SqlValue[], rows: number): number[] | null {
    const width = this.names.length;
    const keys = this.keyIndexes;
    const last = new Map<unknown, number>();
    for (let r = 0; r < rows; r++) {
      const base = r * width;
      let key: unknown = values[base + (keys[0] as number)];
      for (let k = 1; k < keys.length; k++)
        key = `${String(key)}\u0001${String(values[base + (keys[k] as number)])}`;
      last.set(key, r);
    }
    return last.size === rows ? null : [...last.values()].sort((a, b) => a - b);
  }

  protected runPacked(values: SqlValue[], rows: number, kind: 'upsert' | 'add'): void {
    this.runRowsOf(values, rows, null, kind === 'add' ? this.addStatement() : this.upsertSql);
  }

  private runRowsOf(values: readonly SqlValue[], count: number, rows: number[] | null, sql: string): void {
    const width = this.names.length;
    for (let from = 0; from < count; from += ROWS_PER_STATEMENT) {
      const to = Math.min(count, from + ROWS_PER_STATEMENT);
      this.sink(sql, columnArrays(values, width, this.numeric, from, to, rows));
    }
  }

  protected deleteValues(key: SqlValue[]): void {
    this.sink(this.deleteSql, key);
  }

  private updateStatement(set: readonly string[]): string {
    const id = set.join('\u0000');
    let sql = this.updateSql.get(id);
    if (sql === undefined) {
      sql = inDialect(
        `UPDATE ${ident(this.name)} SET ${set.map((n) => `${ident(n)} = ?`).join(', ')} WHERE ${this.def.primaryKey.map((n) => `${ident(n)} = ?`).join(' AND ')}`,
        'postgres',
      );
      this.updateSql.set(id, sql);
    }
    return sql;
  }

  runSegments(segments: readonly Segment[]): void {
    for (const seg of segments) {
      if (seg.kind === 'delete') this.deleteValues(seg.values);
      else if (seg.kind === 'update') this.sink(this.updateStatement(seg.set ?? []), seg.values);
      else {
        const rows = this.lastOfEachKey(seg.values, seg.rows);
        this.runRowsOf(seg.values, rows === null ? seg.rows : rows.length, rows, this.upsertSql);
      }
    }
  }
}
