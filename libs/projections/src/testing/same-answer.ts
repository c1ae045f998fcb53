/**
 * Test helper: whether two answers of a query are the same: the same rows in the same order with the same
 * columns, text and integers equal, other numbers (sums of the theoretical win, ratios) within 1e-9 relative (a
 * sum of fractions comes out a little different in another order: SQLite and PostgreSQL add them differently).
 */
export function answerMismatch(a: readonly unknown[], b: readonly unknown[]): string | null {
  if (a.length !== b.length) return `${a.length} rows against ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    const keys = Object.keys(x);
    if (keys.join() !== Object.keys(y).join())
      return `row ${i}: columns ${keys.join()} against ${Object.keys(y).join()}`;
    for (const k of keys) {
      const [v, w] = [x[k], y[k]];
      if (typeof v === 'number' && typeof w === 'number' && !(Number.isInteger(v) && Number.isInteger(w))) {
        if (Math.abs(v - w) > 1e-9 * Math.max(1, Math.abs(v))) return `row ${i} ${k}: ${v} against ${w}`;
      } else if (v !== w) return `row ${i} ${k}: ${String(v)} against ${String(w)}`;
    }
  }
  return null;
}
