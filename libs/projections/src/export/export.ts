/**
 * One gaming day of one fact table as CSV or Parquet, for warehouses: the bytes as an async iterable (to a file,
 * an HTTP answer), read page by page from any read-model database (SQLite or PostgreSQL, through a SqlReader).
 */
import { hasTable } from '../read/query-kit';
import type { SqlReader, SqlRow } from '../sql/reader';
import { csvChunks } from './csv';
import { DEFAULT_PAGE_ROWS, factPages } from './pages';
import { type ParquetCompression, parquetChunks } from './parquet';
import { type ExportFormat, type ExportTable, checkGamingDay, exportTableDef } from './tables';

export interface ExportRequest {
  readonly table: ExportTable;
  readonly gamingDay: string;
  readonly format: ExportFormat;
  /** Only these tables' rows (a token limited to some tables: its own); an empty list, none. */
  readonly tables?: readonly string[];
  /** Parquet: the codec (default snappy). */
  readonly compression?: ParquetCompression;
  /** Rows a query reads at once (default 5,000). */
  readonly pageRows?: number;
  /** Parquet: rows per row group (default 50,000). */
  readonly rowGroupRows?: number;
}

/** The read models lack the analysts' tables (the model has not been built there). */
export class ExportUnavailableError extends Error {
  constructor(table: string) {
    super(`the read models have no ${table}: the analysts' model is not built there yet`);
    this.name = 'ExportUnavailableError';
  }
}

/** An export under way: iterate it for its bytes; `rows` counts the rows read so far. */
export class FactExport implements AsyncIterable<Uint8Array> {
  private count = 0;

  constructor(
    private readonly sql: SqlReader,
    readonly request: ExportRequest,
  ) {
    checkGamingDay(request.gamingDay);
  }

  get rows(): number {
    return this.count;
  }

  private async *pages(): AsyncGenerator<SqlRow[]> {
    const def = exportTableDef(this.request.table);
    if (!(await hasTable(this.sql, def.name))) throw new ExportUnavailableError(def.name);
    const { gamingDay, pageRows = DEFAULT_PAGE_ROWS, tables } = this.request;
    for await (const all of factPages(this.sql, def, gamingDay, pageRows)) {
      const page = tables === undefined ? all : all.filter((r) => tables.includes(String(r['table_id'])));
      this.count += page.length;
      if (page.length > 0) yield page;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const def = exportTableDef(this.request.table);
    const { format, compression, rowGroupRows, gamingDay } = this.request;
    const chunks =
      format === 'csv'
        ? csvChunks(def, this.pages())
        : parquetChunks(def, this.pages(), {
            compression,
            rowGroupRows,
            metadata: { 'coup.gaming_day': gamingDay },
          });
    return chunks[Symbol.asyncIterator]();
  }
}

/** The export of `request.table` on `request.gamingDay` (checked: QueryError naming gamingDay). */
export function exportFacts(sql: SqlReader, request: ExportRequest): FactExport {
  return new FactExport(sql, request);
}
