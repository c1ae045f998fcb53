/**
 * Parquet of a fact table (hyparquet-writer, ADR-34): the schema from the table's own definition (INTEGER as
 * INT64, REAL as DOUBLE, TEXT as a UTF-8 string; the key's columns REQUIRED, the others OPTIONAL: NULL allowed),
 * the rows a row group at a time: the bytes of each row group are handed on as soon as it is written, so memory
 * holds one row group, whatever the day's size. The table, the gaming day and each column's meaning are in the
 * file's key-value metadata.
 */
import { gzipSync } from 'node:zlib';
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import type { ColumnDef, TableDef } from '../read-models/kernel/types';
import type { SqlRow } from '../sql/reader';

export type ParquetCompression = 'snappy' | 'gzip' | 'none';
export const PARQUET_COMPRESSIONS: readonly ParquetCompression[] = ['snappy', 'gzip', 'none'];

export const DEFAULT_ROW_GROUP_ROWS = 50_000;

const CODEC = { snappy: 'SNAPPY', gzip: 'GZIP', none: 'UNCOMPRESSED' } as const;

type ParquetValue = bigint | number | string | null;

/** The Parquet schema of a table: a root, then one leaf per column in the table's order. */
export function parquetSchema(def: TableDef): SchemaElement[] {
  const leaf = (c: ColumnDef): SchemaElement => {
    const repetition_type = def.primaryKey.includes(c.name) ? 'REQUIRED' : 'OPTIONAL';
    if (c.type === 'INTEGER') return { name: c.name, type: 'INT64', repetition_type };
    if (c.type === 'REAL') return { name: c.name, type: 'DOUBLE', repetition_type };
    return { name: c.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type };
  };
  return [{ name: 'root', num_children: def.columns.length }, ...def.columns.map(leaf)];
}

/** A column's value as the writer takes it (INT64: a bigint); a value that is not of its type is an error. */
function converter(def: TableDef, c: ColumnDef): (v: SqlRow[string] | undefined) => ParquetValue {
  const bad = (v: unknown) => new Error(`${def.name}.${c.name}: ${JSON.stringify(v)} is not ${c.type}`);
  if (c.type === 'INTEGER')
    return (v) => {
      if (v === null || v === undefined) return null;
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad(v);
      return BigInt(v);
    };
  if (c.type === 'REAL')
    return (v) => {
      if (v === null || v === undefined) return null;
      if (typeof v !== 'number') throw bad(v);
      return v;
    };
  return (v) => (v === null || v === undefined ? null : String(v));
}

export interface ParquetOptions {
  readonly compression?: ParquetCompression;
  /** Rows per row group (default 50,000): what memory holds at once. */
  readonly rowGroupRows?: number;
  /** Key-value metadata of the file, beside the columns' meanings. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** The Parquet file of the pages' rows, as chunks: one a row group (the first with the header), then the footer. */
export async function* parquetChunks(
  def: TableDef,
  pages: AsyncIterable<SqlRow[]>,
  options: ParquetOptions = {},
): AsyncGenerator<Uint8Array> {
  const groupRows = options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
  const columns = def.columns.map((c) => ({ name: c.name, convert: converter(def, c) }));
  const docs = JSON.stringify(def.columns.map((c) => ({ name: c.name, type: c.type, doc: c.doc })));
  const writer = new ByteWriter();
  const file = new ParquetWriter({
    writer,
    schema: parquetSchema(def),
    codec: CODEC[options.compression ?? 'snappy'],
    compressors: { GZIP: (bytes: Uint8Array) => gzipSync(bytes) },
    kvMetadata: [
      ...Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value })),
      { key: 'coup.table', value: def.name },
      { key: 'coup.columns', value: docs },
    ],
    createdBy: 'coup export (hyparquet-writer)',
  });
  /** The bytes written since the last take (the writer's offset keeps counting for the footer). */
  const take = (): Uint8Array => {
    const bytes = writer.getBytes().slice();
    writer.index = 0;
    return bytes;
  };
  let data: ParquetValue[][] = columns.map(() => []);
  let rows = 0;
  const writeGroup = (): void => {
    void file.write({
      columnData: columns.map((c, i) => ({ name: c.name, data: data[i] as ParquetValue[] })),
      rowGroupSize: rows,
    });
    data = columns.map(() => []);
    rows = 0;
  };
  for await (const page of pages) {
    for (const row of page) {
      columns.forEach((c, i) => (data[i] as ParquetValue[]).push(c.convert(row[c.name])));
      if (++rows >= groupRows) {
        writeGroup();
        yield take();
      }
    }
  }
  if (rows > 0) writeGroup();
  void file.finish();
  yield take();
}
