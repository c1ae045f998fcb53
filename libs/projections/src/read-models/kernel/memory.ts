/**
 * An in-memory read model: applies a projection's writes to maps of rows, exactly as the SQLite runner applies
 * them to tables. Used by the given/when/then tests of the folds (and usable in a browser).
 */
import type { AnyProjection, PositionedState, ProjectionEvent, Row, TableDef, Write } from './types';

/** Rows per table, keyed by primary key. */
export class MemoryTables {
  readonly tables = new Map<string, Map<string, Row>>();

  constructor(private readonly defs: readonly TableDef[]) {}

  private def(name: string): TableDef {
    const def = this.defs.find((d) => d.name === name);
    if (!def) throw new Error(`unknown read-model table ${name}`);
    return def;
  }

  private key(def: TableDef, row: Row): string {
    return JSON.stringify(def.primaryKey.map((c) => row[c] ?? null));
  }

  apply(writes: readonly Write[]): void {
    for (const w of writes) {
      const def = this.def(w.table);
      let rows = this.tables.get(w.table);
      if (!rows) this.tables.set(w.table, (rows = new Map()));
      if (w.kind === 'delete') {
        rows.delete(this.key(def, w.key));
        continue;
      }
      if (w.kind === 'update') {
        const k = this.key(def, w.key);
        const existing = rows.get(k);
        if (existing) rows.set(k, { ...existing, ...w.set });
        continue;
      }
      const k = this.key(def, w.row);
      const full: Record<string, string | number | null> = {};
      for (const c of def.columns) full[c.name] = w.row[c.name] ?? null;
      if (w.kind === 'upsert') {
        rows.set(k, full);
        continue;
      }
      const existing = rows.get(k);
      if (existing) {
        const next: Record<string, string | number | null> = { ...existing };
        for (const [c, v] of Object.entries(w.add)) next[c] = Number(next[c] ?? 0) + v;
        rows.set(k, next);
      } else {
        for (const [c, v] of Object.entries(w.add)) full[c] = v;
        rows.set(k, full);
      }
    }
  }

  /** The rows of a table, in primary-key order. */
  rows(table: string): Row[] {
    const rows = this.tables.get(table);
    if (!rows) return [];
    return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
  }

  /** Every table's rows (for equality checks). */
  dump(): Record<string, Row[]> {
    const out: Record<string, Row[]> = {};
    for (const def of this.defs) out[def.name] = this.rows(def.name);
    return out;
  }
}

/** A projection folded in memory: states per key and the tables its writes built. */
export class MemoryProjection<S extends PositionedState> {
  readonly states = new Map<string, S>();
  readonly db: MemoryTables;

  constructor(readonly model: AnyProjection) {
    this.db = new MemoryTables(model.tables);
  }

  /** Applies events (then materializes each changed key, as the runner does at the end of a batch). */
  apply(events: readonly ProjectionEvent[]): readonly Write[] {
    const all: Write[] = [];
    const dirty = new Set<string>();
    for (const e of events) {
      const key = this.model.keyOf(e);
      if (key === null) continue;
      const before = (this.states.get(key) as S | undefined) ?? (this.model.initial(key) as S);
      const { state, writes } = this.model.evolve(before, e);
      if (state !== before) {
        this.states.set(key, state as S);
        dirty.add(key);
      }
      all.push(...writes);
    }
    for (const key of dirty) all.push(...(this.model.materialize?.(this.states.get(key)) ?? []));
    this.db.apply(all);
    return all;
  }

  state(key: string): S | undefined {
    return this.states.get(key);
  }
}
