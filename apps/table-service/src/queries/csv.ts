/**
 * CSV answers (RFC 4180): a header row, then one row per record; fields quoted when they hold a comma, quote or
 * line break. A text cell starting with = + - @ is prefixed with ' so spreadsheets do not run it as a formula
 * (numbers are written as numbers).
 */
export type Cell = string | number | boolean | null | undefined;

function cell(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text of `rows` with the given columns (in order). */
export function toCsv<T>(
  columns: readonly { readonly name: string; readonly value: (row: T) => Cell }[],
  rows: readonly T[],
): string {
  const lines = [columns.map((c) => cell(c.name)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Columns named after the keys of the first-level fields of `T`. */
export function columns<T>(
  names: readonly (keyof T & string)[],
): { name: string; value: (row: T) => Cell }[] {
  return names.map((name) => ({ name, value: (row: T) => row[name] as Cell }));
}

/** True when the client asks for CSV (`Accept: text/csv`). */
export function wantsCsv(accept: string | string[] | undefined): boolean {
  const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(value);
}
