import type { Outcome } from '@coup/engine';
import { beadPlate, bigRoad } from './roads';

const seq = (s: string): Outcome[] =>
  [...s].map((c) => (c === 'P' ? 'player' : c === 'B' ? 'banker' : 'tie'));
const cells = (outcomes: Outcome[]) =>
  bigRoad(outcomes).map(
    (c) => `${c.outcome[0]!.toUpperCase()}${c.col},${c.row}${c.ties ? `+${c.ties}` : ''}`,
  );

describe('roads', () => {
  it('bead plate: every coup, ties included, down six rows then the next column', () => {
    const coups = seq('BPTBBPBP').map((outcome, i) => ({ outcome, natural: i === 0, roundNo: i + 1 }));
    const plate = beadPlate(coups);
    expect(plate.map((b) => [b.col, b.row])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [1, 0],
      [1, 1],
    ]);
    expect(plate[2]!.outcome).toBe('tie');
    expect(plate[0]!.natural).toBe(true);
  });

  it('big road: a column per streak, ties on the cell before them', () => {
    expect(cells(seq('BBPTPBT'))).toEqual(['B0,0', 'B0,1', 'P1,0+1', 'P1,1', 'B2,0+1']);
  });

  it('big road: ties before the first coup count on the first cell', () => {
    expect(cells(seq('TTP'))).toEqual(['P0,0+2']);
    expect(cells(seq('TT'))).toEqual([]);
  });

  it('big road: a streak longer than six turns right along the bottom row (dragon tail)', () => {
    expect(cells(seq('BBBBBBBBP'))).toEqual([
      'B0,0',
      'B0,1',
      'B0,2',
      'B0,3',
      'B0,4',
      'B0,5',
      'B1,5',
      'B2,5',
      'P1,0',
    ]);
  });

  it('big road: a streak blocked by an earlier tail turns right early', () => {
    // B x7 makes a tail at (1,5); the P streak in column 1 stops above it and turns right at row 4.
    const out = cells(seq('BBBBBBBPPPPPPP'));
    expect(out.slice(7)).toEqual(['P1,0', 'P1,1', 'P1,2', 'P1,3', 'P1,4', 'P2,4', 'P3,4']);
  });
});
