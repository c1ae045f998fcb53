/**
 * The roads of a sequence of coups (pure), the scoreboards of a shoe as casinos display them:
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
 */
import { coupFeatures } from '@coup/engine';
import type { CoupResolvedData, GameMode, Outcome } from '@coup/table';

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
