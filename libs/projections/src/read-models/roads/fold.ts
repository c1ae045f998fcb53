/**
 * Roads (`rd_`): the scoreboards of a shoe, as casinos display them.
 *
 * - Bead plate: every coup (ties included) in order, six rows per column, filled top to bottom then left to right.
 * - Big road: player and banker wins only. Same side as the last win: one row down; the other side: a new
 *   column. A tie is marked on the cell of the last win (a count); ties before the first win are `leadingTies`.
 *   Six rows deep: when a streak cannot go down (row 6 reached, or the cell below is taken by an earlier tail),
 *   it turns right and continues along that row (the "dragon tail"). The derived roads read the LOGICAL
 *   columns (whole streaks), not where the tail was drawn.
 * - Derived roads, k = 1 (big eye boy), 2 (small road), 3 (cockroach pig): each big-road entry from the
 *   starting point on adds one red or blue mark. For an entry in logical column c, row r (0-based):
 *   - r = 0 (a new column): red if columns c-1 and c-1-k have the same length, else blue;
 *   - r >= 1: look at column c-k: red if it has an entry in row r, or has neither row r nor row r-1 (it is
 *     shorter by two or more); blue if it ends exactly at row r-1.
 *   The first entry that is marked is the one at column k, row 1, or failing that column k+1, row 0 (entries
 *   before it have no column to compare with). Marks are then laid out like a big road (red/blue streaks).
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

export const RD_ROADS = 'rd_roads';

/**
 * The marks casinos put on a coup of their game (each present, and true, only on such a coup, so the roads of a
 * commission table read as they did before game modes): a no-commission table's banker win with 6 (half paid:
 * `super6`), an EZ table's three-card banker 7 win (Dragon 7, banker bets push) and three-card player 8 win
 * (Panda 8).
 */
export interface GameMarks {
  readonly super6?: true;
  readonly dragon7?: true;
  readonly panda8?: true;
}

/** One coup as the roads record it. */
export interface Bead extends GameMarks {
  readonly roundNo: number;
  readonly outcome: Outcome;
  readonly natural: boolean;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  readonly playerTotal: number;
  readonly bankerTotal: number;
}

export interface BeadCell extends Bead {
  readonly col: number;
  readonly row: number;
}

export interface BigRoadCell extends GameMarks {
  readonly col: number;
  readonly row: number;
  readonly outcome: 'player' | 'banker';
  readonly roundNo: number;
  /** Ties after this win (before the next one). */
  readonly ties: number;
  readonly natural: boolean;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  /** The logical column (streak) and row in it. */
  readonly streak: number;
  readonly streakRow: number;
}

export interface DerivedCell {
  readonly col: number;
  readonly row: number;
  readonly color: 'red' | 'blue';
}

export interface Roads {
  readonly beadPlate: readonly BeadCell[];
  readonly bigRoad: readonly BigRoadCell[];
  /** Ties before the first player or banker win of the road. */
  readonly leadingTies: number;
  readonly bigEyeBoy: readonly DerivedCell[];
  readonly smallRoad: readonly DerivedCell[];
  readonly cockroachPig: readonly DerivedCell[];
}

export const ROAD_ROWS = 6;

/** every-coup tables: coups per road at most (a new road starts after them, or on a new UTC day). */
export const EVERY_COUP_ROAD_COUPS = 80;

/** The bead plate: six rows per column. */
export function beadPlate(beads: readonly Bead[]): BeadCell[] {
  return beads.map((b, i) => ({ ...b, col: Math.floor(i / ROAD_ROWS), row: i % ROAD_ROWS }));
}

/**
 * Lays out streaks (arrays of items) as a big road: each streak starts in row 0 of the column after the previous
 * streak's start (further right if that cell is taken), goes down while it can, then turns right.
 */
export function layOut<T>(
  streaks: readonly (readonly T[])[],
): { col: number; row: number; item: T; streak: number; streakRow: number }[] {
  const taken = new Set<string>();
  const key = (c: number, r: number) => `${c},${r}`;
  const out: { col: number; row: number; item: T; streak: number; streakRow: number }[] = [];
  let start = -1;
  streaks.forEach((streak, s) => {
    start += 1;
    while (taken.has(key(start, 0))) start += 1;
    let col = start;
    let row = 0;
    let turned = false;
    streak.forEach((item, i) => {
      if (i > 0) {
        if (!turned && row + 1 < ROAD_ROWS && !taken.has(key(col, row + 1))) row += 1;
        else {
          turned = true;
          col += 1;
        }
      }
      taken.add(key(col, row));
      out.push({ col, row, item, streak: s, streakRow: i });
    });
  });
  return out;
}

interface Entry {
  readonly bead: Bead;
  ties: number;
}

/** The big road's logical columns (streaks of player or banker wins, ties counted on the last win). */
export function bigRoadColumns(beads: readonly Bead[]): { columns: Entry[][]; leadingTies: number } {
  const columns: Entry[][] = [];
  let leadingTies = 0;
  let last: Entry | null = null;
  for (const bead of beads) {
    if (bead.outcome === 'tie') {
      if (last === null) leadingTies += 1;
      else last.ties += 1;
      continue;
    }
    const entry: Entry = { bead, ties: 0 };
    const column = columns[columns.length - 1];
    if (column !== undefined && column[0]?.bead.outcome === bead.outcome) column.push(entry);
    else columns.push([entry]);
    last = entry;
  }
  return { columns, leadingTies };
}

/** The red/blue marks of a derived road (k = 1, 2, 3) from the big road's column lengths, in order. */
export function derivedMarks(lengths: readonly number[], k: number): ('red' | 'blue')[] {
  const marks: ('red' | 'blue')[] = [];
  lengths.forEach((len, c) => {
    for (let r = 0; r < len; r++) {
      if (r === 0) {
        if (c < k + 1) continue;
        marks.push(lengths[c - 1] === lengths[c - 1 - k] ? 'red' : 'blue');
      } else {
        if (c < k) continue;
        marks.push(lengths[c - k] === r ? 'blue' : 'red');
      }
    }
  });
  return marks;
}

/** Groups marks into streaks of one color. */
function streaksOf<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === item) last.push(item);
    else out.push([item]);
  }
  return out;
}

function derivedRoad(lengths: readonly number[], k: number): DerivedCell[] {
  return layOut(streaksOf(derivedMarks(lengths, k))).map((c) => ({ col: c.col, row: c.row, color: c.item }));
}

/** The game marks of a bead (only those it has). */
function marksOf(b: GameMarks): GameMarks {
  return {
    ...(b.super6 ? { super6: true } : {}),
    ...(b.dragon7 ? { dragon7: true } : {}),
    ...(b.panda8 ? { panda8: true } : {}),
  };
}

/** The marks of a coup at a table of this game mode. */
export function gameMarks(game: GameMode, d: CoupResolvedData): GameMarks {
  const f = coupFeatures(d);
  if (game === 'no-commission') return f.outcome === 'banker' && f.bankerTotal === 6 ? { super6: true } : {};
  if (game !== 'ez') return {};
  if (f.outcome === 'banker' && f.bankerCards === 3 && f.bankerTotal === 7) return { dragon7: true };
  if (f.outcome === 'player' && f.playerCards === 3 && f.playerTotal === 8) return { panda8: true };
  return {};
}

/** Every road of a sequence of coups. */
export function computeRoads(beads: readonly Bead[]): Roads {
  const { columns, leadingTies } = bigRoadColumns(beads);
  const bigRoad = layOut(columns).map(({ col, row, item, streak, streakRow }) => ({
    col,
    row,
    outcome: item.bead.outcome as 'player' | 'banker',
    roundNo: item.bead.roundNo,
    ties: item.ties,
    natural: item.bead.natural,
    playerPair: item.bead.playerPair,
    bankerPair: item.bead.bankerPair,
    streak,
    streakRow,
    ...marksOf(item.bead),
  }));
  const lengths = columns.map((c) => c.length);
  return {
    beadPlate: beadPlate(beads),
    bigRoad,
    leadingTies,
    bigEyeBoy: derivedRoad(lengths, 1),
    smallRoad: derivedRoad(lengths, 2),
    cockroachPig: derivedRoad(lengths, 3),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The projection

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
