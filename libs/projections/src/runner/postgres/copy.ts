/**
 * A rebuild's rows by `COPY ... FROM STDIN` (text format, through `pg-copy-streams`): the server reads them as
 * tab-separated text, with no statement to parse or plan, no JSON to take apart and no conflict check per row.
 * Only a row whose key the rebuild has not written before is copied: the first write of a key in a rebuild is an
 * insert into an `rb_` table that does not hold it. Every later write of that key (an upsert again, an add, a
 * delete, an update) goes through the statements of {@link PgTableStatements}, after the commit's COPYs, in the
 * order made. The keys written are remembered as 32-bit hashes (a few bytes a key, for millions of keys): two
 * keys with one hash send the second through the statements, which is always right, only slower.
 *
 * An `rb_` table gets its primary key only when it is needed: before the first statement that writes it (an
 * upsert's ON CONFLICT needs the key's index; a delete or an update finds its row through it), or after the
 * last rows are in. The tables that only ever get new rows (coups, bets, hands' players, ledger entries: nearly
 * every row) are loaded without an index and their key is built once, by a sort.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Row, SqlValue, TableDef } from '../../read-models/kernel/types';
import { columnType, ident } from '../../sql/dialect';
import type { Segment, StatementSink } from '../write-set';
import { PgTableStatements } from './statements';

const SPECIAL = /[\\\n\r\t]/;
const SPECIALS = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value in COPY's text format (a non-finite number is NULL, as in the statements' JSON). */
export function copyField(v: SqlValue | undefined): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '\\N';
  const s = String(v);
  return SPECIAL.test(s) ? s.replace(SPECIALS, (c) => ESCAPES[c] as string) : s;
}

/** FNV-1a of a key's values (`values[base + at[k]]`, their text, each followed by a separator), 32 bits. */
function keyHash(values: readonly SqlValue[], base: number, at: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const k of at) {
    const s = String(values[base + k]);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0xffff, 0x01000193);
  }
  return h | 0;
}

/**
 * A rebuild table without its primary key (added by {@link PgRebuildTableStatements.takeKeyDdl}), and without
 * autovacuum until {@link autovacuumAgain}: while the rows go in, each fifth more rows would have it vacuum and
 * analyze the whole table again (measured: 2 to 5 CPU s of the server in a rebuild of 1.1M events).
 */
export function createUnkeyedTable(def: TableDef, name: string): string {
  const columns = def.columns.map((c) => `${ident(c.name)} ${columnType(c.type, 'postgres')}`);
  return `CREATE TABLE ${ident(name)} (${columns.join(', ')}) WITH (autovacuum_enabled = false)`;
}

/** A rebuilt table back under autovacuum (its default), once its rows are in. */
export function autovacuumAgain(name: string): string {
  return `ALTER TABLE ${ident(name)} RESET (autovacuum_enabled)`;
}

/** Rows of one table waiting for a commit's COPY. */
export interface CopyRows {
  readonly sql: string;
  readonly data: string;
  readonly rows: number;
}

/** A rebuild table's writer: new keys' rows kept for COPY, the rest as statements (see the file's comment). */
export class PgRebuildTableStatements extends PgTableStatements {
  private readonly written = new Set<number>();
  private lines: string[] = [];
  /** A row's fields as text (reused). */
  private readonly fields: string[];
  private readonly copySql: string;
  /** The places of a bare key's values (a delete's key; the end of an update's values). */
  private readonly bareKey: readonly number[];
  /** Whether the table has its primary key, and whether statements made since the last commit need it. */
  private keyed = false;
  private needsKey = false;

  constructor(sink: StatementSink, def: TableDef, name: string) {
    super(sink, def, name);
    this.bareKey = def.primaryKey.map((_, k) => k);
    this.fields = this.names.map(() => '');
    this.copySql = `COPY ${ident(name)} (${this.names.map(ident).join(', ')}) FROM STDIN`;
  }

  /** Marks a key written (its values at `values[base + at[k]]`); answers whether it was new in this rebuild. */
  private firstWrite(values: readonly SqlValue[], base: number, at: readonly number[]): boolean {
    const h = keyHash(values, base, at);
    if (this.written.has(h)) return false;
    this.written.add(h);
    return true;
  }

  /** Appends a row's line (its fields, tab-separated; the lines joined once per commit). */
  private copyLine(values: readonly SqlValue[], base: number): void {
    const fields = this.fields;
    for (let c = 0; c < fields.length; c++) fields[c] = copyField(values[base + c]);
    this.lines.push(fields.join('\t'));
  }

  /** Copies the rows `rows` (indexes into `values`; all when null) with new keys; answers the others' indexes. */
  private copyNew(values: readonly SqlValue[], count: number, rows: readonly number[] | null): number[] {
    const width = this.names.length;
    const again: number[] = [];
    for (let i = 0; i < count; i++) {
      const r = rows === null ? i : (rows[i] as number);
      if (this.firstWrite(values, r * width, this.keyIndexes)) this.copyLine(values, r * width);
      else again.push(r);
    }
    if (again.length > 0) this.needsKey = true;
    return again;
  }

  protected override runUpserts(values: SqlValue[], rows: number): void {
    const last = this.lastOfEachKey(values, rows);
    const again = this.copyNew(values, last === null ? rows : last.length, last);
    if (again.length > 0) this.runRowsOf(values, again.length, again, this.upsertSql);
  }

  protected override runPacked(values: SqlValue[], rows: number, kind: 'upsert' | 'add'): void {
    const again = this.copyNew(values, rows, null);
    if (again.length > 0)
      this.runRowsOf(values, again.length, again, kind === 'add' ? this.addStatement() : this.upsertSql);
  }

  override runSegments(segments: readonly Segment[]): void {
    for (const seg of segments) {
      if (seg.kind !== 'upsert') {
        // a delete's values are its key; an update's end with it
        this.firstWrite(seg.values, seg.values.length - this.bareKey.length, this.bareKey);
        this.needsKey = true;
      }
      super.runSegments([seg]);
    }
  }

  override delete(key: Row): void {
    const values = this.def.primaryKey.map((n) => key[n] ?? null);
    this.firstWrite(values, 0, this.bareKey);
    this.needsKey = true;
    super.delete(key);
  }

  /** The rows kept for COPY since the last call (null: none). */
  takeCopy(): CopyRows | null {
    const rows = this.lines.length;
    if (rows === 0) return null;
    this.lines.push(''); // the last line's end
    const out = { sql: this.copySql, data: this.lines.join('\n'), rows };
    this.lines = [];
    return out;
  }

  /** The ALTER TABLE adding the primary key, if the table has none and needs it now (or `always`). */
  takeKeyDdl(always = false): string | null {
    if (this.keyed || !(always || this.needsKey)) return null;
    this.keyed = true;
    return `ALTER TABLE ${ident(this.name)} ADD PRIMARY KEY (${this.def.primaryKey.map(ident).join(', ')})`;
  }
}

/** Runs one COPY of rows on `client` (inside the caller's transaction). */
export async function copyRows(client: PoolClient, rows: CopyRows): Promise<void> {
  await pipeline(Readable.from([rows.data]), client.query(copyFrom(rows.sql)));
}
