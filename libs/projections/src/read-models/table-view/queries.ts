/** The table view's query: a table's current view. */
import type { TableView } from '@coup/table';
import { type Raw, hasTable } from '../../read/query-kit';
import type { SqlReader } from '../../sql/reader';
import { TV_TABLES } from './fold';
import type { TableRow } from './wire';

/** The table's current view (from the table-view projection), or null. */
export async function tableRow(sql: SqlReader, tableId: string): Promise<TableRow | null> {
  if (!(await hasTable(sql, TV_TABLES))) return null;
  const r = await sql.get<Raw>(`SELECT * FROM "${TV_TABLES}" WHERE "table_id" = ?`, [tableId]);
  if (!r) return null;
  return {
    tableId,
    view: JSON.parse(String(r.view_json)) as TableView,
    position: Number(r.position),
    revision: Number(r.revision),
    updatedAt: (r.updated_at as string | null) ?? null,
  };
}
