/**
 * The reports benchmark's rows: the generated events folded by the analysts' projection itself
 * (`analystProjection().evolve`), its writes applied as the runner applies them (upsert, update, delete, add to
 * counters), the rows streamed out per table in its TableDef's column order. A table's fact rows are held until
 * its gaming day is generated (the fold rewrites or deletes only rows of the coup just settled); tables without a
 * table_id column, and counter tables, are kept in memory and written at the end.
 */
import {
  type AnyProjection,
  type ProjectionEvent,
  type SqlValue,
  type TableDef,
  type Write,
  analystProjection,
} from '@coup/projections';
import type { TableFact } from './reports-history';

/** Receives the rows: `values` in the order of `def.columns`. */
export type RowSink = (def: TableDef, values: SqlValue[]) => void;

type Rows = Map<string, Record<string, SqlValue>>;

export class FoldSink {
  readonly projection: AnyProjection = analystProjection();
  private readonly defs = new Map<string, TableDef>();
  private readonly states = new Map<string, unknown>();
  private readonly revisions = new Map<string, number>();
  /** Per table id, per read-model table: rows not written out yet. */
  private readonly pending = new Map<string, Map<string, Rows>>();
  /** Tables written out at the end (dimensions, counters). */
  private readonly kept = new Map<string, Rows>();
  private position = 0;
  events = 0;

  constructor(private readonly sink: RowSink) {
    for (const def of this.projection.tables) this.defs.set(def.name, def);
  }

  private def(table: string): TableDef {
    const def = this.defs.get(table);
    if (def === undefined) throw new Error(`the analysts' projection has no table ${table}`);
    return def;
  }

  private keptTable(def: TableDef): boolean {
    return def.counters !== undefined || !def.columns.some((c) => c.name === 'table_id');
  }

  private rowsOf(def: TableDef, tableId: string): Rows {
    if (this.keptTable(def)) {
      let rows = this.kept.get(def.name);
      if (rows === undefined) this.kept.set(def.name, (rows = new Map()));
      return rows;
    }
    let tables = this.pending.get(tableId);
    if (tables === undefined) this.pending.set(tableId, (tables = new Map()));
    let rows = tables.get(def.name);
    if (rows === undefined) tables.set(def.name, (rows = new Map()));
    return rows;
  }

  /** Folds one event of a table. */
  fold(f: TableFact): void {
    const revision = (this.revisions.get(f.tableId) ?? -1) + 1;
    this.revisions.set(f.tableId, revision);
    const e: ProjectionEvent = {
      tableId: f.tableId,
      event: f.event,
      position: ++this.position,
      revision,
      recordedAt: (f.event.data as { at: string }).at,
      prevHash: '',
      hash: '',
      actor: f.actor,
      commandId: null,
    };
    this.events += 1;
    const state = this.states.get(f.tableId) ?? this.projection.initial(f.tableId);
    const out = this.projection.evolve(state, e);
    this.states.set(f.tableId, out.state);
    for (const w of out.writes) this.apply(w, f.tableId);
  }

  private apply(w: Write, tableId: string): void {
    const def = this.def(w.table);
    const rows = this.rowsOf(def, tableId);
    const keyRow = w.kind === 'delete' || w.kind === 'update' ? w.key : w.row;
    const key = def.primaryKey.map((k) => String(keyRow[k])).join('\u0000');
    const found = rows.get(key);
    if (w.kind === 'upsert') rows.set(key, { ...w.row });
    else if (w.kind === 'add') {
      if (found === undefined) rows.set(key, { ...w.row, ...w.add });
      else for (const [k, v] of Object.entries(w.add)) found[k] = Number(found[k] ?? 0) + v;
    } else if (found === undefined) {
      throw new Error(`${w.kind} of a ${w.table} row no longer held: ${key}`);
    } else if (w.kind === 'delete') rows.delete(key);
    else Object.assign(found, w.set);
  }

  private write(def: TableDef, rows: Rows): void {
    for (const row of rows.values())
      this.sink(
        def,
        def.columns.map((c) => row[c.name] ?? null),
      );
  }

  /** Writes out the rows held for a table (call when its gaming day is done). */
  flush(tableId: string): void {
    const tables = this.pending.get(tableId);
    if (tables === undefined) return;
    for (const [name, rows] of tables) this.write(this.def(name), rows);
    this.pending.delete(tableId);
  }

  /** Writes out everything left. */
  finish(): void {
    for (const tableId of [...this.pending.keys()]) this.flush(tableId);
    for (const [name, rows] of this.kept) this.write(this.def(name), rows);
    this.kept.clear();
  }
}
