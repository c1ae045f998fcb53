/**
 * CSV for warehouses (RFC 4180): a header row of the table's column names, then a row per record, lines ended by
 * CRLF, UTF-8. Values are written exactly, for loaders rather than spreadsheets: integers (cents, counts, ms) and
 * reals as JavaScript prints them (the shortest text that reads back to the same double), NULL as an empty field,
 * an empty text as `""` (as PostgreSQL's COPY ... CSV reads them), a field quoted when it holds a comma, a quote,
 * a line break or is empty text. No formula guard: a text starting with `=` is written as it is.
 */
import type { TableDef } from '../read-models/kernel/types';
import type { SqlRow } from '../sql/reader';

/** One field: RFC 4180 quoting, NULL empty. */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return v === '' || /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One CSV line (CRLF ended) of `values`. */
export const csvLine = (values: readonly (string | number | null | undefined)[]): string =>
  `${values.map(csvField).join(',')}\r\n`;

/**
 * The header and each page's rows, as UTF-8 chunks (one a page; the header with the first, so that nothing is
 * handed on before the first page has been read).
 */
export async function* csvChunks(def: TableDef, pages: AsyncIterable<SqlRow[]>): AsyncGenerator<Uint8Array> {
  const names = def.columns.map((c) => c.name);
  let head = csvLine(names);
  for await (const page of pages) {
    yield Buffer.from(head + page.map((row) => csvLine(names.map((n) => row[n]))).join(''));
    head = '';
  }
  if (head !== '') yield Buffer.from(head);
}
