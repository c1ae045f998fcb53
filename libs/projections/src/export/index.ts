/** Exports of the analysts' fact tables per gaming day, as CSV or Parquet, for warehouses (ADR-34). */
export * from './tables';
export { csvField, csvLine } from './csv';
export { DEFAULT_PAGE_ROWS, factPages } from './pages';
export {
  DEFAULT_ROW_GROUP_ROWS,
  PARQUET_COMPRESSIONS,
  type ParquetCompression,
  parquetSchema,
} from './parquet';
export * from './export';
