/**
 * Helpers of the read-model storage contract (`runner/storage-contract.int.spec.ts`): every table of some
 * projections read back through a storage's reader, rows in primary-key order, so that what SQLite and
 * PostgreSQL hold compares table by table; and a fixed list of recorded events offered as a store to read from.
 */
import type { EventStore, ReadAllOptions, RecordedEvent } from '@coup/event-store';
import type { AnyProjection, Row, SqlValue, TableDef } from '../read-models/kernel/types';
import { projectionTables } from '../runner/db';
import { ident } from '../sql/dialect';
import type { SqlReader } from '../sql/reader';

/** Orders rows by a table's primary key (numbers as numbers, text by code unit in both dialects). */
function byPrimaryKey(def: TableDef): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const k of def.primaryKey) {
      const x = a[k] as SqlValue;
      const y = b[k] as SqlValue;
      if (x === y) continue;
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return 0;
  };
}

/**
 * Every table of the projections (with their `<prefix>_state` tables unless `states: false`), rows sorted by
 * primary key. For a projection with a `storage` (the hand history), its tables as `storage.logical` reads them
 * back (what the queries see) unless `raw`.
 */
export async function dumpTables(
  reader: SqlReader,
  projections: readonly AnyProjection[],
  options: { raw?: boolean; states?: boolean } = {},
): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const p of projections) {
    const defs = options.states === false ? p.tables : projectionTables(p);
    let tables: Record<string, Row[]> = {};
    for (const def of defs) tables[def.name] = await reader.all<Row>(`SELECT * FROM ${ident(def.name)}`);
    if (p.storage && !options.raw) tables = { ...tables, ...p.storage.logical(tables) };
    for (const def of defs) out[def.name] = [...(tables[def.name] ?? [])].sort(byPrimaryKey(def));
  }
  return out;
}

/** A store that reads `events` (recorded with increasing positions): `readAll` only, for catch-ups and rebuilds. */
export function eventsStore(events: readonly RecordedEvent[]): EventStore {
  return {
    async *readAll(options: ReadAllOptions = {}) {
      const from = options.fromPosition ?? 0n;
      let left = options.maxCount ?? Number.POSITIVE_INFINITY;
      for (const e of events) {
        if (left <= 0) return;
        if (e.globalPosition <= from) continue;
        left -= 1;
        yield e;
      }
    },
  } as Partial<EventStore> as EventStore;
}
