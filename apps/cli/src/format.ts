/** Small text helpers shared by the commands. */

/** An integer (number or bigint) with thousands separators: 4,998,398,275,503,360. */
export function grouped(n: number | bigint): string {
  const s = typeof n === 'bigint' ? n.toString() : Math.round(n).toString();
  const negative = s.startsWith('-');
  const digits = negative ? s.slice(1) : s;
  return (negative ? '-' : '') + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A fraction as a percentage with the given decimals: 0.010579 -> "1.0579%". */
export function percent(x: number, decimals = 4): string {
  return `${(x * 100).toFixed(decimals)}%`;
}

/** Rows of cells as aligned columns (numbers right-aligned when `right[i]`), each line indented. */
export function table(
  rows: readonly (readonly string[])[],
  right: readonly boolean[] = [],
  indent = '  ',
): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, i) => (right[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}
