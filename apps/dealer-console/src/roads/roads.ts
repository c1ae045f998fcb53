/**
 * The bead plate and the big road of a shoe, from its coup outcomes in order (pure: the roads' tests need no DOM).
 * Six rows, as players know them.
 */
import type { Outcome } from '@coup/engine';

export const ROAD_ROWS = 6;

export interface BeadCell {
  readonly col: number;
  readonly row: number;
  readonly outcome: Outcome;
  readonly natural: boolean;
  readonly roundNo: number;
}

/** Bead plate: one cell per coup (ties included), filling each column top to bottom, then the next column. */
export function beadPlate(
  coups: readonly { readonly outcome: Outcome; readonly natural: boolean; readonly roundNo: number }[],
): BeadCell[] {
  return coups.map((c, i) => ({
    col: Math.floor(i / ROAD_ROWS),
    row: i % ROAD_ROWS,
    outcome: c.outcome,
    natural: c.natural,
    roundNo: c.roundNo,
  }));
}

export interface BigRoadCell {
  readonly col: number;
  readonly row: number;
  readonly outcome: 'player' | 'banker';
  /** Ties that followed this coup (ties before the first coup count on the first cell). */
  ties: number;
}

/**
 * Big road: a new column at each change of winner, a streak going down; a streak longer than the rows, or blocked
 * by an earlier column's tail, turns right along its row (the "dragon tail"). Ties do not take a cell: they are
 * counted on the cell before them.
 */
export function bigRoad(outcomes: readonly Outcome[]): BigRoadCell[] {
  const cells: BigRoadCell[] = [];
  const taken = new Set<string>();
  const key = (col: number, row: number) => `${col},${row}`;
  let leadingTies = 0;
  let streakCol = -1;
  let col = 0;
  let row = 0;
  let tail = false;
  for (const outcome of outcomes) {
    const last = cells[cells.length - 1];
    if (outcome === 'tie') {
      if (last) last.ties += 1;
      else leadingTies += 1;
      continue;
    }
    if (last && last.outcome === outcome) {
      if (!tail && row + 1 < ROAD_ROWS && !taken.has(key(col, row + 1))) row += 1;
      else {
        tail = true;
        col += 1;
      }
    } else {
      streakCol += 1;
      col = streakCol;
      row = 0;
      tail = false;
    }
    taken.add(key(col, row));
    cells.push({ col, row, outcome, ties: last ? 0 : leadingTies });
  }
  return cells;
}

/** A mark of a derived road: red where the big road repeats its pattern, blue where it breaks it. */
export interface DerivedCell {
  readonly col: number;
  readonly row: number;
  readonly color: 'red' | 'blue';
}

/** The big road's logical column lengths (streaks of player or banker wins; ties take no cell). */
export function streakLengths(outcomes: readonly Outcome[]): number[] {
  const lengths: number[] = [];
  let last: Outcome | null = null;
  for (const o of outcomes) {
    if (o === 'tie') continue;
    if (o === last) lengths[lengths.length - 1] = (lengths[lengths.length - 1] ?? 0) + 1;
    else lengths.push(1);
    last = o;
  }
  return lengths;
}

/**
 * The marks of a derived road in order: big eye boy compares with the column 1 to the left (k = 1), small road
 * 2, cockroach pig 3. A new column (row 0) is red when the two columns before it are of equal length; a cell
 * further down is red when the column k to the left has a cell at that row, or has already stopped above it
 * (both empty), blue when that column stopped exactly one row above. The road starts at the first big-road cell
 * from which the comparison column exists.
 */
export function derivedMarks(lengths: readonly number[], k: number): ('red' | 'blue')[] {
  const marks: ('red' | 'blue')[] = [];
  for (let c = 0; c < lengths.length; c++) {
    const len = lengths[c] ?? 0;
    for (let r = 0; r < len; r++) {
      if (r === 0) {
        if (c - 1 - k < 0) continue;
        marks.push(lengths[c - 1] === lengths[c - 1 - k] ? 'red' : 'blue');
      } else {
        if (c - k < 0) continue;
        const compared = lengths[c - k] ?? 0;
        marks.push(compared === r ? 'blue' : 'red');
      }
    }
  }
  return marks;
}

/**
 * Lays marks out as players draw them: a column per run of one colour, going down six rows and turning right
 * (along its row) when the bottom or an earlier tail stops it; a new run starts at the top of the next free column.
 */
export function layOutMarks(marks: readonly ('red' | 'blue')[]): DerivedCell[] {
  const taken = new Set<string>();
  const key = (c: number, r: number) => `${c},${r}`;
  const out: DerivedCell[] = [];
  let start = -1;
  let col = 0;
  let row = 0;
  let turned = false;
  let last: 'red' | 'blue' | null = null;
  for (const color of marks) {
    if (color !== last) {
      start += 1;
      while (taken.has(key(start, 0))) start += 1;
      col = start;
      row = 0;
      turned = false;
    } else if (!turned && row + 1 < ROAD_ROWS && !taken.has(key(col, row + 1))) {
      row += 1;
    } else {
      turned = true;
      col += 1;
    }
    taken.add(key(col, row));
    out.push({ col, row, color });
    last = color;
  }
  return out;
}

/** The three derived roads of a shoe's outcomes. */
export function derivedRoads(outcomes: readonly Outcome[]): {
  readonly bigEyeBoy: DerivedCell[];
  readonly smallRoad: DerivedCell[];
  readonly cockroachPig: DerivedCell[];
} {
  const lengths = streakLengths(outcomes);
  return {
    bigEyeBoy: layOutMarks(derivedMarks(lengths, 1)),
    smallRoad: layOutMarks(derivedMarks(lengths, 2)),
    cockroachPig: layOutMarks(derivedMarks(lengths, 3)),
  };
}
