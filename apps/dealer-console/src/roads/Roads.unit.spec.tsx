import { render, screen, waitFor, within } from '@testing-library/react';
import type { RoadEntry } from '../feed';
import { fromLive } from './data';
import { Roads, RoadsView } from './Roads';

const entries = (s: string): RoadEntry[] =>
  [...s].map((c, i) => ({
    roundNo: i + 1,
    outcome: c === 'P' ? 'player' : c === 'B' ? 'banker' : 'tie',
    natural: false,
    playerTotal: 0,
    bankerTotal: 0,
  }));

const drawn = (name: string) =>
  [...within(screen.getByLabelText(name)).getAllByLabelText(/^(red|blue)$/)].map((e) => ({
    cell: e.getAttribute('data-cell'),
    at: `${e.style.gridColumn}/${e.style.gridRow}`,
    cls: e.className,
  }));

describe('Roads drawing', () => {
  it('draws bead plate, big road and the three derived roads of a known shoe, red and blue with words', () => {
    render(<RoadsView data={fromLive(3, entries('BBPPTPBPPBB'))} />);
    const beads = within(screen.getByLabelText('bead plate')).getAllByText(/^[PBT]$/);
    expect(beads.map((b) => b.textContent).join('')).toBe('BBPPTPBPPBB');
    expect(beads[6]!.style.gridColumn).toBe('2'); // the seventh coup starts the second column
    const big = within(screen.getByLabelText('big road')).getAllByLabelText(/^(Player|Banker)/);
    expect(big).toHaveLength(10);
    expect(big[3]!.getAttribute('aria-label')).toBe('Player and 1 tie(s)');

    const eye = drawn('Big eye boy');
    expect(eye.map((c) => c.cell)).toEqual(['r0,0', 'b1,0', 'b1,1', 'b1,2', 'b1,3', 'b1,4', 'r2,0']);
    expect(eye[0]).toEqual({ cell: 'r0,0', at: '1/1', cls: 'derived derived-ring derived-red' });
    expect(eye[1]!.cls).toBe('derived derived-ring derived-blue');
    expect(drawn('Small road').map((c) => `${c.cell} ${c.cls.split(' ')[1]}`)).toEqual([
      'b0,0 derived-dot',
      'r1,0 derived-dot',
      'b2,0 derived-dot',
      'b2,1 derived-dot',
    ]);
    expect(drawn('Cockroach pig').map((c) => `${c.cell} ${c.cls.split(' ')[1]}`)).toEqual([
      'r0,0 derived-slash',
      'r0,1 derived-slash',
      'r0,2 derived-slash',
    ]);
    expect(screen.getByText('2 red, 5 blue')).toBeTruthy();
    expect(screen.getByText(/shoe 3, 11 coups \(seen live\)/)).toBeTruthy();
  });

  it('prefers the service roads of the current shoe (they survive a reload) over what it saw live', async () => {
    const service = {
      shoeNo: 3,
      coups: 12,
      beadPlate: [{ col: 0, row: 0, outcome: 'tie', natural: false, roundNo: 40 }],
      bigRoad: [],
      leadingTies: 1,
      bigEyeBoy: [{ col: 0, row: 0, color: 'blue' }],
      smallRoad: [],
      cockroachPig: [],
    };
    const fetchMock = jest.fn(async (url: string) => {
      expect(url).toBe('/api/tables/T1/roads?shoe=3');
      return { ok: true, status: 200, json: async () => service };
    });
    const real = globalThis.fetch;
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    try {
      render(
        <Roads
          token="t"
          tableId="T1"
          shoeNo={3}
          shoeCoups={12}
          everyCoup={false}
          lastRound={40}
          live={entries('BP')}
        />,
      );
      expect(screen.getByText(/2 coups \(seen live\)/)).toBeTruthy();
      await waitFor(() => expect(screen.getByText(/12 coups \(read model\)/)).toBeTruthy());
      expect(drawn('Big eye boy').map((c) => c.cell)).toEqual(['b0,0']);
    } finally {
      globalThis.fetch = real;
    }
  });

  it('asks nothing before the shoe has a coup (the service would answer 404)', () => {
    const real = globalThis.fetch;
    const fetchMock = jest.fn();
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    try {
      jest.useFakeTimers();
      render(
        <Roads token="t" tableId="T1" shoeNo={5} shoeCoups={0} everyCoup={false} lastRound={9} live={[]} />,
      );
      jest.advanceTimersByTime(10_000);
      expect(fetchMock).not.toHaveBeenCalled();
      expect(screen.getByText(/shoe 5, 0 coups \(seen live\)/)).toBeTruthy();
    } finally {
      jest.useRealTimers();
      globalThis.fetch = real;
    }
  });

  it('keeps the live roads while the service has no road for the shoe yet', async () => {
    const real = globalThis.fetch;
    const fetchMock = jest.fn(async () => ({
      ok: false,
      status: 404,
      statusText: 'Not Found',
      json: async () => ({ statusCode: 404, code: 'UNKNOWN_SHOE', message: 'no road' }),
    }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    try {
      render(
        <Roads
          token="t"
          tableId="T1"
          shoeNo={4}
          shoeCoups={3}
          everyCoup={false}
          lastRound={3}
          live={entries('BBB')}
        />,
      );
      await waitFor(() => expect(fetchMock).toHaveBeenCalled());
      expect(screen.getByText(/shoe 4, 3 coups \(seen live\)/)).toBeTruthy();
    } finally {
      globalThis.fetch = real;
    }
  });
});
