/** What the table view's query answers. */
import type { TableView } from '@coup/table';

export interface TableRow {
  readonly tableId: string;
  readonly view: TableView;
  readonly position: number;
  readonly revision: number;
  readonly updatedAt: string | null;
}
