/** Comparing report answers: the same rows whatever their order, doubles to 1e-9 relative (sums in another order). */

export type Row = Record<string, unknown>;

/** Rows in a canonical order (by their text and integer columns), so two answers compare whatever their order. */
export function canonical(rows: readonly Row[]): Row[] {
  const key = (r: Row) =>
    JSON.stringify(
      Object.entries(r)
        .filter(([, v]) => typeof v !== 'number' || Number.isInteger(v))
        .sort(),
    );
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const close = (v: unknown, w: unknown): boolean =>
  typeof v === 'number' &&
  !Number.isInteger(v) &&
  typeof w === 'number' &&
  Math.abs(v - w) <= 1e-9 * Math.max(1, Math.abs(v));

/**
 * The first difference between two answers, or null when they are equal: text and integers exactly, doubles (sums
 * of theoretical win, ratios) to 1e-9 relative.
 */
export function rowDifference(a: readonly Row[], b: readonly Row[]): string | null {
  if (a.length !== b.length) return `${a.length} rows against ${b.length}`;
  const [x, y] = [canonical(a), canonical(b)];
  for (const [i, row] of x.entries()) {
    const other = y[i] as Row;
    const keys = [Object.keys(row).sort().join(), Object.keys(other).sort().join()];
    if (keys[0] !== keys[1]) return `row ${i}: columns ${keys[0]} against ${keys[1]}`;
    for (const [k, v] of Object.entries(row)) {
      const w = other[k];
      if (v !== w && !close(v, w)) return `row ${i}, ${k}: ${JSON.stringify(v)} against ${JSON.stringify(w)}`;
    }
  }
  return null;
}

/** A row's snake_case keys in camelCase (a view's row as the REST report names it). */
export const camel = (row: Row): Row =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
  );
