/**
 * Roads (`rd_`): the scoreboards of a shoe (compute.ts: how each road is drawn), one row per road.
 *
 * Roads are per shoe. On every-coup tables (one shuffle per coup, so a one-coup "shoe"), a road runs for a UTC
 * day, or {@link EVERY_COUP_ROAD_COUPS} coups (about a shoe's worth), whichever ends first: `shoe_no` is the first
 * shoe of the road and `last_shoe_no` the last.
 *
 * A settled coup corrected after it settled (`SettledCoupCorrected`) shows the corrected result in its place; one
 * voided after it settled (`SettledCoupVoided`) leaves the road, as a voided round never entered it.
 */
import { coupFeatures } from '@coup/engine';
import { type CoupResolvedData, type GameMode, type Outcome, gameOf } from '@coup/table';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type TableDef,
  type Write,
  byTable,
  dayOf,
  int,
  once,
  text,
} from '../kernel/types';
import { type Bead, computeRoads, gameMarks } from './compute';

export * from './compute';

export const RD_ROADS = 'rd_roads';

/** every-coup tables: coups per road at most (a new road starts after them, or on a new UTC day). */
export const EVERY_COUP_ROAD_COUPS = 80;

export interface Road {
  readonly shoeNo: number;
  readonly lastShoeNo: number;
  /** every-coup tables: the UTC day of the road; shoe tables: null. */
  readonly day: string | null;
  readonly beads: readonly Bead[];
  readonly startedAt: string;
  readonly updatedAt: string;
}

export interface RoadsState {
  readonly position: number;
  readonly tableId: string;
  readonly road: Road | null;
  /**
   * The road a new one replaced since the last coup settled, until the next betting opens: the settled coup may
   * still be voided there (absent in states stored by older code: none).
   */
  readonly previous?: Road | null;
  /** The table's game mode (its marks); absent in states stored before game modes: commission. */
  readonly game?: GameMode;
}

const tables: readonly TableDef[] = [
  {
    name: RD_ROADS,
    doc: 'One row per shoe (every-coup tables: per UTC day): the outcome sequence and every road, as JSON.',
    primaryKey: ['table_id', 'shoe_no'],
    columns: [
      text('table_id', 'Table id'),
      int('shoe_no', 'The shoe (every-coup tables: the first shoe of the day road)'),
      int('last_shoe_no', 'The last shoe in the road (= shoe_no on shoe tables)'),
      text('day', 'every-coup tables: the UTC day of the road; else NULL'),
      int('coups', 'Coups in the road'),
      text('outcomes', "The outcomes in order, one letter each: P, B, T (e.g. 'BBPTB')"),
      text('started_at', 'When the shoe (road) started'),
      text('updated_at', 'Time of the last coup'),
      text(
        'bead_plate_json',
        'Bead plate cells: [{col, row, roundNo, outcome, natural, playerPair, bankerPair, playerTotal, bankerTotal, super6?, dragon7?, panda8?}] (a game mark only when true)',
      ),
      text(
        'big_road_json',
        'Big road cells: [{col, row, outcome, roundNo, ties, natural, playerPair, bankerPair, streak, streakRow, super6?, dragon7?, panda8?}]',
      ),
      int('leading_ties', 'Ties before the first player/banker win'),
      text('big_eye_boy_json', 'Big eye boy: [{col, row, color}]'),
      text('small_road_json', 'Small road: [{col, row, color}]'),
      text('cockroach_pig_json', 'Cockroach pig: [{col, row, color}]'),
    ],
  },
];

const LETTER: Readonly<Record<Outcome, string>> = { player: 'P', banker: 'B', tie: 'T' };

export function roadRow(tableId: string, road: Road): Write {
  const roads = computeRoads(road.beads);
  return {
    kind: 'upsert',
    table: RD_ROADS,
    row: {
      table_id: tableId,
      shoe_no: road.shoeNo,
      last_shoe_no: road.lastShoeNo,
      day: road.day,
      coups: road.beads.length,
      outcomes: road.beads.map((b) => LETTER[b.outcome]).join(''),
      started_at: road.startedAt,
      updated_at: road.updatedAt,
      bead_plate_json: JSON.stringify(roads.beadPlate),
      big_road_json: JSON.stringify(roads.bigRoad),
      leading_ties: roads.leadingTies,
      big_eye_boy_json: JSON.stringify(roads.bigEyeBoy),
      small_road_json: JSON.stringify(roads.smallRoad),
      cockroach_pig_json: JSON.stringify(roads.cockroachPig),
    },
  };
}

function evolveRoads(state: RoadsState, e: ProjectionEvent): Evolution<RoadsState> {
  return once(state, e, evolveRoadsStep);
}

function evolveRoadsStep(s: RoadsState, e: ProjectionEvent): Evolution<RoadsState> {
  const ev = e.event;
  if (ev.type === 'TableOpened') return { state: { ...s, game: gameOf(ev.data.rules) }, writes: [] };
  if (ev.type === 'ShoeStarted') {
    const d = ev.data;
    const day = d.shuffle === 'every-coup' ? dayOf(d.at) : null;
    const current = s.road;
    if (
      current !== null &&
      day !== null &&
      current.day === day &&
      current.beads.length < EVERY_COUP_ROAD_COUPS
    ) {
      return { state: { ...s, road: { ...current, lastShoeNo: d.shoeNo } }, writes: [] };
    }
    const road: Road = {
      shoeNo: d.shoeNo,
      lastShoeNo: d.shoeNo,
      day,
      beads: [],
      startedAt: d.at,
      updatedAt: d.at,
    };
    // the road being replaced is written now (materialize only sees the last one of a batch)
    return {
      state: { ...s, road, previous: current },
      writes: current === null ? [] : [roadRow(s.tableId, current)],
    };
  }
  if (ev.type === 'CoupResolved' && s.road !== null) {
    const d = ev.data;
    return {
      state: { ...s, road: { ...s.road, beads: [...s.road.beads, beadOf(s, d)], updatedAt: d.at } },
      writes: [],
    };
  }
  if (ev.type === 'BettingOpened' && (s.previous ?? null) !== null)
    return { state: { ...s, previous: null }, writes: [] };
  // a settled coup corrected: its bead shows the corrected result; voided: it leaves the road
  if (ev.type === 'SettledCoupCorrected') {
    const d = ev.data;
    return amended(s, d.roundNo, (beads) => beads.map((b) => (b.roundNo === d.roundNo ? beadOf(s, d) : b)));
  }
  if (ev.type === 'SettledCoupVoided') {
    const d = ev.data;
    return amended(s, d.roundNo, (beads) => beads.filter((b) => b.roundNo !== d.roundNo));
  }
  return { state: s, writes: [] };
}

/** A coup as the roads record it. */
function beadOf(s: RoadsState, d: CoupResolvedData): Bead {
  const f = coupFeatures(d);
  return {
    roundNo: d.roundNo,
    outcome: d.outcome,
    natural: d.natural,
    playerPair: f.playerPair,
    bankerPair: f.bankerPair,
    playerTotal: d.playerTotal,
    bankerTotal: d.bankerTotal,
    ...gameMarks(s.game ?? 'commission', d),
  };
}

/**
 * The road holding the bead of `roundNo` (the current one, or the one a new road replaced since), its beads
 * changed by `change`; a road replaced is written again now (materialize writes only the current one).
 */
function amended(
  s: RoadsState,
  roundNo: number,
  change: (beads: readonly Bead[]) => Bead[],
): Evolution<RoadsState> {
  const holds = (r: Road | null | undefined): r is Road => !!r && r.beads.some((b) => b.roundNo === roundNo);
  if (holds(s.road)) return { state: { ...s, road: { ...s.road, beads: change(s.road.beads) } }, writes: [] };
  if (holds(s.previous)) {
    const previous = { ...s.previous, beads: change(s.previous.beads) };
    return { state: { ...s, previous }, writes: [roadRow(s.tableId, previous)] };
  }
  return { state: s, writes: [] };
}

export const roadsProjection: ProjectionModel<RoadsState> = {
  name: 'roads',
  prefix: 'rd',
  version: 3,
  description:
    'Bead plate, big road (ties, dragon tail), big eye boy, small road and cockroach pig per shoe; pairs and the game marks (Super 6, Dragon 7, Panda 8); a settled coup corrected shows the correction, voided leaves the road.',
  tables,
  handles: new Set([
    'TableOpened',
    'ShoeStarted',
    'CoupResolved',
    'BettingOpened',
    'SettledCoupCorrected',
    'SettledCoupVoided',
  ]),
  keyOf: byTable,
  initial: (tableId) => ({ position: 0, tableId, road: null, game: 'commission', previous: null }),
  evolve: evolveRoads,
  materialize: (s) => (s.road === null ? [] : [roadRow(s.tableId, s.road)]),
};
