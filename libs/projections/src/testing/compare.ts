/** Test helpers: read-model tables as comparable data (SQLite file vs. an in-memory fold). */
import type { Db } from '../runner/db';
import { type AnyProjection, MemoryProjection, type ProjectionEvent, type Row } from '../read-models';
import { toProjectionEvent } from '../runner/engine';
import type { RecordedEvent } from '@coup/event-store';

const sortRows = (rows: readonly Row[]): Row[] =>
  [...rows].sort((a, b) => {
    const x = JSON.stringify(a);
    const y = JSON.stringify(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });

/**
 * Every table of the projections, rows sorted, from the SQLite read-model file, as `materialize` has them: for a
 * projection with a `storage` (the hand history), its tables as read back through `storage.logical` (an open
 * hand's bets from hh_open_bets into its row), so they compare with a fold in memory; `raw` leaves them as stored.
 */
export function dumpSqlite(
  db: Db,
  projections: readonly AnyProjection[],
  options: { raw?: boolean } = {},
): Record<string, Row[]> {
  const out: Record<string, Row[]> = {};
  for (const p of projections) {
    let tables: Record<string, Row[]> = {};
    for (const t of p.tables) tables[t.name] = db.prepare(`SELECT * FROM "${t.name}"`).all() as Row[];
    if (p.storage && !options.raw) tables = p.storage.logical(tables);
    for (const t of p.tables) out[t.name] = sortRows(tables[t.name] ?? []);
  }
  return out;
}

/** The same tables folded in memory from the events (one batch). */
export function dumpMemory(
  events: readonly RecordedEvent[],
  projections: readonly AnyProjection[],
): Record<string, Row[]> {
  const converted = events.map(toProjectionEvent).filter((e): e is ProjectionEvent => e !== null);
  const out: Record<string, Row[]> = {};
  for (const p of projections) {
    const m = new MemoryProjection(p);
    m.apply(converted);
    for (const t of p.tables) out[t.name] = sortRows(m.db.rows(t.name));
  }
  return out;
}
