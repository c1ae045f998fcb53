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
