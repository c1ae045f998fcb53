/**
 * What can be exported: the analysts' fact tables, by a short name (`coups`, `bets`, `cash`, `amendments`), each
 * with the columns of its own table definition (the analyst projection's `tables`), and the gaming days asked for.
 */
import { dayNumber, dayText } from '../read-models/analyst/gaming-day';
import { AN_AMENDMENTS, AN_BETS, AN_CASH, AN_COUPS } from '../read-models/analyst/schema-facts';
import { analystTables } from '../read-models/analyst/fold';
import type { TableDef } from '../read-models/kernel/types';
import { QueryError } from '../read/query-kit';

/** The exportable tables by their short name, in the order a full export writes them. */
export const EXPORT_TABLES = {
  coups: AN_COUPS,
  bets: AN_BETS,
  cash: AN_CASH,
  amendments: AN_AMENDMENTS,
} as const;

export type ExportTable = keyof typeof EXPORT_TABLES;
export type ExportFormat = 'csv' | 'parquet';

export const EXPORT_TABLE_NAMES = Object.keys(EXPORT_TABLES) as ExportTable[];
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'parquet'];

/** Most gaming days one export command writes (a year and a day). */
export const MAX_EXPORT_DAYS = 366;

export function isExportTable(name: string): name is ExportTable {
  return Object.hasOwn(EXPORT_TABLES, name);
}

/** The table definition an export writes (its columns, types and key): the analyst projection's own. */
export function exportTableDef(table: ExportTable): TableDef {
  const def = analystTables.find((t) => t.name === EXPORT_TABLES[table]);
  if (def === undefined) throw new Error(`the analysts' model has no table ${EXPORT_TABLES[table]}`);
  return def;
}

/** Whether `text` is a calendar day, YYYY-MM-DD (2026-02-30 is not). */
export function isGamingDay(text: string): boolean {
  const n = dayNumber(text);
  return !Number.isNaN(n) && dayText(n) === text;
}

/** Checks a gaming day: QueryError naming `field` otherwise. */
export function checkGamingDay(text: string, field = 'gamingDay'): string {
  if (!isGamingDay(text))
    throw new QueryError('INVALID_QUERY', field, `${field} must be a gaming day, YYYY-MM-DD (got '${text}')`);
  return text;
}

/** The gaming days from `from` to `to`, both included (at most MAX_EXPORT_DAYS). */
export function gamingDaysBetween(from: string, to: string): string[] {
  const [a, b] = [dayNumber(checkGamingDay(from, 'from')), dayNumber(checkGamingDay(to, 'to'))];
  if (b < a) throw new QueryError('INVALID_QUERY', 'to', `to (${to}) is before the first day (${from})`);
  if (b - a + 1 > MAX_EXPORT_DAYS)
    throw new QueryError('INVALID_QUERY', 'to', `at most ${MAX_EXPORT_DAYS} gaming days at once`);
  return Array.from({ length: b - a + 1 }, (_, i) => dayText(a + i));
}

/** The file an export of `table` on `gamingDay` is written to, e.g. `coups-2026-12-01.parquet`. */
export function exportFileName(table: ExportTable, gamingDay: string, format: ExportFormat): string {
  return `${table}-${gamingDay}.${format}`;
}

/** The media type of a format (Parquet's is registered with IANA). */
export function exportMediaType(format: ExportFormat): string {
  return format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.apache.parquet';
}
