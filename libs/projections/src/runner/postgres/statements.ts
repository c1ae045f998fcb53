/**
 * PostgreSQL's statements for one read-model table. A run of upserts or `add`s is one statement per
 * {@link ROWS_PER_STATEMENT} rows, whatever their number, with ONE parameter: the rows' values as a JSON array
 * (row after row, `JSON.stringify` of the packed values), which the server reads once as `jsonb` and takes apart
 * (`INSERT ... SELECT (v->>(i*w+c))::type ... FROM generate_series(...) ON CONFLICT ... DO UPDATE`): no limit of
 * 65,535 parameters, one statement to parse and plan, and the escaping done by V8's JSON.stringify. PostgreSQL
 * refuses a statement that changes a row twice, so a run keeps only the last upsert of each row (the same table
 * as SQLite's one row after another: an upsert replaces every column); `add`s and coalesced writes arrive one per
 * row already.
 */
import type { SqlValue, TableDef } from '../../read-models/kernel/types';
import { ident, inDialect } from '../../sql/dialect';
import { type StatementSink, TableWriter } from '../write-set';

/** How a transaction of the read models begins: asynchronous commit (see `storage.ts`). */
export const BEGIN = 'BEGIN;\nSET LOCAL synchronous_commit TO OFF';

/**
 * A value as an SQL literal: a dollar-quoted string (no escapes, so read alike whatever the server's settings;
 * its tag chosen to be absent from the value), quoted even for a number: a quoted literal takes the type of the
 * column it goes to or is compared with.
 */
export function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  const s = String(v);
  let tag = '$c$';
  for (let n = 0; s.includes(tag); n++) tag = `$c${n}$`;
  return `${tag}${s}${tag}`;
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

/** The SQL reading column `c` of `w` of row `i.n` from the JSON array `d.v`, as the column's type. */
function jsonColumn(type: TableDef['columns'][number]['type'], c: number, w: number): string {
  const value = `(d.v ->> (i.n * ${w} + ${c}))`;
  if (type === 'INTEGER') return `${value}::bigint`;
  if (type === 'REAL') return `${value}::double precision`;
  return value;
}

export class PgTableStatements extends TableWriter {
  protected readonly keyIndexes: number[];
  protected readonly upsertSql: string;
  private addSql: string | null = null;

  constructor(sink: StatementSink, def: TableDef, name: string) {
    super(sink, def, name, 'postgres');
    this.keyIndexes = def.primaryKey.map((k) => this.names.indexOf(k));
    const rest = this.names.filter((n) => !def.primaryKey.includes(n));
    this.upsertSql = this.insertSql(
      rest.length === 0
        ? 'DO NOTHING'
        : `DO UPDATE SET ${rest.map((n) => `${ident(n)} = excluded.${ident(n)}`).join(', ')}`,
    );
  }

  private insertSql(conflict: string): string {
    const w = this.names.length;
    const columns = this.def.columns.map((c, i) => jsonColumn(c.type, i, w)).join(', ');
    return inDialect(
      `INSERT INTO ${ident(this.name)} AS t (${this.names.map(ident).join(', ')}) SELECT ${columns} ` +
        `FROM (SELECT ?::jsonb AS v) AS d, generate_series(0, jsonb_array_length(d.v) / ${w} - 1) AS i(n) ` +
        `ON CONFLICT (${this.def.primaryKey.map(ident).join(', ')}) ${conflict}`,
      'postgres',
    );
  }

  protected addStatement(): string {
    if (this.addSql === null) {
      const counters = this.def.counters ?? [];
      this.addSql = this.insertSql(
        `DO UPDATE SET ${counters.map((n) => `${ident(n)} = t.${ident(n)} + excluded.${ident(n)}`).join(', ')}`,
      );
    }
    return this.addSql;
  }

  /** The rows to write of a run of upserts: the last of each key (null: every row, no key written twice). */
  protected lastOfEachKey(values: readonly SqlValue[], rows: number): number[] | null {
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

  protected chunk(left: number): number {
    return Math.min(left, ROWS_PER_STATEMENT);
  }

  protected runPacked(values: SqlValue[], rows: number, kind: 'upsert' | 'add'): void {
    this.runRowsOf(values, rows, null, kind === 'add' ? this.addStatement() : this.upsertSql);
  }

  /** The rows (all of `values`, or those of the indexes `rows`) as JSON, in statements of ROWS_PER_STATEMENT. */
  protected runRowsOf(values: readonly SqlValue[], count: number, rows: number[] | null, sql: string): void {
    const width = this.names.length;
    for (let from = 0; from < count; from += ROWS_PER_STATEMENT) {
      const to = Math.min(count, from + ROWS_PER_STATEMENT);
      let part: readonly SqlValue[];
      if (rows === null) part = from === 0 && to === count ? values : values.slice(from * width, to * width);
      else {
        const picked: SqlValue[] = [];
        for (let i = from; i < to; i++) {
          const base = (rows[i] as number) * width;
          for (let c = 0; c < width; c++) picked.push(values[base + c] as SqlValue);
        }
        part = picked;
      }
      this.sink(sql, [JSON.stringify(part)]);
    }
  }

  protected runUpserts(values: SqlValue[], rows: number): void {
    const last = this.lastOfEachKey(values, rows);
    this.runRowsOf(values, last === null ? rows : last.length, last, this.upsertSql);
  }
}
