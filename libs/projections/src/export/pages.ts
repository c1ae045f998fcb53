/**
 * A gaming day's rows of a fact table, a page at a time, so that a day of millions of bets is exported in bounded
 * memory. The pages walk the table's primary key, which both dialects keep in an index:
 *
 * - the key is split into a group (`table_id`, if the key starts with text), an ordinal (`round_no`, `position`)
 *   and the rest (`player_id`, `spot`);
 * - the day's groups and the first and last ordinal of each are read once (a table's rounds of one gaming day are
 *   consecutive, as are the positions of one day's cash movements);
 * - within a group, each page ends at the ordinal `pageRows` rows on (a LIMIT 1 OFFSET over the key's index), and
 *   its rows are read by that ordinal range, ordered by the whole key with text in byte order: the sort is of one
 *   page only, and SQLite and PostgreSQL answer the same rows in the same order.
 *
 * A page holds at most `pageRows` rows plus the rest of the rows sharing its last ordinal (one round's bets).
 * Each page is its own query: a day still being folded is exported as far as each page finds it.
 */
import type { ColumnDef, TableDef } from '../read-models/kernel/types';
import { byteOrder } from '../read/query-kit';
import { ident } from '../sql/dialect';
import type { SqlParam, SqlReader, SqlRow } from '../sql/reader';

export const DEFAULT_PAGE_ROWS = 5_000;

interface KeyPlan {
  readonly group: ColumnDef | null;
  readonly ordinal: ColumnDef;
  readonly rest: readonly ColumnDef[];
}

function keyPlan(def: TableDef): KeyPlan {
  const cols = def.primaryKey.map((name) => {
    const col = def.columns.find((c) => c.name === name);
    if (col === undefined) throw new Error(`${def.name}: key column ${name} is not a column`);
    return col;
  });
  const [first, second] = cols;
  if (first?.type === 'INTEGER') return { group: null, ordinal: first, rest: cols.slice(1) };
  if (first?.type === 'TEXT' && second?.type === 'INTEGER')
    return { group: first, ordinal: second, rest: cols.slice(2) };
  throw new Error(`${def.name}: an export pages a key of an integer, or a text then an integer`);
}

interface Group {
  readonly value: string | null;
  readonly lo: number;
  readonly hi: number;
}

/** Text in byte (UTF-8) order, as the pages sort it. */
const byteCompare = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

async function groupsOf(sql: SqlReader, def: TableDef, key: KeyPlan, day: string): Promise<Group[]> {
  const [t, o] = [ident(def.name), ident(key.ordinal.name)];
  if (key.group === null) {
    const row = await sql.get<{ lo: number | null; hi: number | null }>(
      `SELECT MIN(${o}) AS lo, MAX(${o}) AS hi FROM ${t} WHERE "gaming_day" = ?`,
      [day],
    );
    return row?.lo == null || row.hi == null ? [] : [{ value: null, lo: row.lo, hi: row.hi }];
  }
  const g = ident(key.group.name);
  const rows = await sql.all<{ g: string; lo: number; hi: number }>(
    `SELECT ${g} AS g, MIN(${o}) AS lo, MAX(${o}) AS hi FROM ${t} WHERE "gaming_day" = ? GROUP BY ${g}`,
    [day],
  );
  return rows.map((r) => ({ value: r.g, lo: r.lo, hi: r.hi })).sort((a, b) => byteCompare(a.value, b.value));
}

/** The SQL of a page's boundary and of its rows, for one group (parameters: [group,] after, upTo, day). */
function pageQueries(sql: SqlReader, def: TableDef, key: KeyPlan): { boundary: string; rows: string } {
  const o = ident(key.ordinal.name);
  const where = [
    ...(key.group === null ? [] : [`${ident(key.group.name)} = ?`]),
    `${o} > ?`,
    `${o} <= ?`,
    `"gaming_day" = ?`,
  ].join(' AND ');
  const from = `FROM ${ident(def.name)} WHERE ${where}`;
  const order = [
    o,
    ...key.rest.map((c) => (c.type === 'TEXT' ? byteOrder(sql, ident(c.name)) : ident(c.name))),
  ];
  return {
    boundary: `SELECT ${o} AS boundary ${from} ORDER BY ${o} LIMIT 1 OFFSET ?`,
    rows: `SELECT ${def.columns.map((c) => ident(c.name)).join(', ')} ${from} ORDER BY ${order.join(', ')}`,
  };
}

/** The rows of `def` on `gamingDay`, in key order, a page at a time. */
export async function* factPages(
  sql: SqlReader,
  def: TableDef,
  gamingDay: string,
  pageRows = DEFAULT_PAGE_ROWS,
): AsyncGenerator<SqlRow[]> {
  if (!Number.isSafeInteger(pageRows) || pageRows < 1)
    throw new Error('pageRows must be a whole number >= 1');
  const key = keyPlan(def);
  const q = pageQueries(sql, def, key);
  for (const group of await groupsOf(sql, def, key, gamingDay)) {
    const lead: SqlParam[] = group.value === null ? [] : [group.value];
    let after = group.lo - 1;
    while (after < group.hi) {
      const range = [...lead, after, group.hi, gamingDay];
      const edge = await sql.get<{ boundary: number }>(q.boundary, [...range, pageRows - 1]);
      const upTo = edge?.boundary ?? group.hi;
      const rows = await sql.all<SqlRow>(q.rows, [...lead, after, upTo, gamingDay]);
      if (rows.length > 0) yield rows;
      after = upTo;
    }
  }
}
