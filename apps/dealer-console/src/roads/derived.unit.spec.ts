import type { Outcome } from '@coup/engine';
import { derivedMarks, derivedRoads, layOutMarks, streakLengths } from './roads';

const seq = (s: string): Outcome[] =>
  [...s].map((c) => (c === 'P' ? 'player' : c === 'B' ? 'banker' : 'tie'));
const cells = (road: readonly { color: string; col: number; row: number }[]) =>
  road.map((c) => `${c.color[0]}${c.col},${c.row}`);

describe('derived roads', () => {
  // big road columns: BB | PPP | B | PP | BB  (lengths 2 3 1 2 2); the tie takes no cell
  const outcomes = seq('BBPPTPBPPBB');

  it('the big road column lengths ignore ties', () => {
    expect(streakLengths(outcomes)).toEqual([2, 3, 1, 2, 2]);
  });

  it('big eye boy starts at the second column, second row, and compares with the column before', () => {
    // (1,1): col 0 has row 1 -> red; (1,2): col 0 stopped one row above -> blue; new columns compare the two
    // before: 3 vs 2 blue, 1 vs 3 blue; (3,1): col 2 stopped one row above -> blue; (4,0): 2 vs 1 blue;
    // (4,1): col 3 has row 1 -> red
    expect(derivedMarks(streakLengths(outcomes), 1)).toEqual([
      'red',
      'blue',
      'blue',
      'blue',
      'blue',
      'blue',
      'red',
    ]);
    expect(cells(derivedRoads(outcomes).bigEyeBoy)).toEqual([
      'r0,0',
      'b1,0',
      'b1,1',
      'b1,2',
      'b1,3',
      'b1,4',
      'r2,0',
    ]);
  });

  it('small road compares two columns back, cockroach pig three', () => {
    const roads = derivedRoads(outcomes);
    // (3,0): 1 vs 2 blue; (3,1): col 1 has row 1 -> red; (4,0): 2 vs 3 blue; (4,1): col 2 stopped above -> blue
    expect(cells(roads.smallRoad)).toEqual(['b0,0', 'r1,0', 'b2,0', 'b2,1']);
    // (3,1): col 0 has row 1 -> red; (4,0): 2 vs 2 red; (4,1): col 1 has row 1 -> red
    expect(cells(roads.cockroachPig)).toEqual(['r0,0', 'r0,1', 'r0,2']);
  });

  it('a cell below the end of the compared column and the row above it is red (both empty)', () => {
    // lengths 1 | 4: (1,1) col 0 stopped one above -> blue; (1,2) and (1,3): col 0 empty at both -> red
    expect(derivedMarks([1, 4], 1)).toEqual(['blue', 'red', 'red']);
  });

  it('a run longer than six turns right along the bottom row; the next run starts in the next free column', () => {
    const marks = [...Array<'red'>(7).fill('red'), 'blue', 'blue'] as ('red' | 'blue')[];
    expect(cells(layOutMarks(marks))).toEqual([
      'r0,0',
      'r0,1',
      'r0,2',
      'r0,3',
      'r0,4',
      'r0,5',
      'r1,5',
      'b1,0',
      'b1,1',
    ]);
  });

  it('no marks until the compared columns exist', () => {
    expect(derivedRoads(seq('BBBPPP'))).toEqual({
      bigEyeBoy: [
        { col: 0, row: 0, color: 'red' },
        { col: 0, row: 1, color: 'red' },
      ],
      smallRoad: [],
      cockroachPig: [],
    });
  });
});
