/** The roads query: a shoe's road (every-coup tables: the day road holding it), or the latest. */
import { type Raw, checkInt, parse } from '../../read/query-kit';
import type { SqlReader } from '../../sql/reader';
import { RD_ROADS } from './fold';
import type { RoadsView } from './wire';

/** The roads of a shoe (every-coup tables: the road holding that shoe); the latest road without `shoe`. */
export async function roadsOf(sql: SqlReader, tableId: string, shoe?: number): Promise<RoadsView | null> {
  checkInt('shoe', shoe, 1);
  const r =
    shoe === undefined
      ? await sql.get<Raw>(
          `SELECT * FROM "${RD_ROADS}" WHERE "table_id" = ? ORDER BY "shoe_no" DESC LIMIT 1`,
          [tableId],
        )
      : await sql.get<Raw>(
          `SELECT * FROM "${RD_ROADS}" WHERE "table_id" = ? AND "shoe_no" <= ? AND "last_shoe_no" >= ? ORDER BY "shoe_no" DESC LIMIT 1`,
          [tableId, shoe, shoe],
        );
  if (!r) return null;
  const shoes = (
    await sql.all<{ shoe_no: number }>(
      `SELECT "shoe_no" FROM "${RD_ROADS}" WHERE "table_id" = ? ORDER BY "shoe_no" DESC`,
      [tableId],
    )
  ).map((x) => x.shoe_no);
  return {
    tableId,
    shoeNo: Number(r.shoe_no),
    lastShoeNo: Number(r.last_shoe_no),
    day: (r.day as string | null) ?? null,
    coups: Number(r.coups),
    outcomes: String(r.outcomes),
    startedAt: String(r.started_at),
    updatedAt: String(r.updated_at),
    beadPlate: parse(r.bead_plate_json, []),
    bigRoad: parse(r.big_road_json, []),
    leadingTies: Number(r.leading_ties),
    bigEyeBoy: parse(r.big_eye_boy_json, []),
    smallRoad: parse(r.small_road_json, []),
    cockroachPig: parse(r.cockroach_pig_json, []),
    shoes,
  };
}
