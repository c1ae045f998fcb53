import { act, render, screen, waitFor, within } from '@testing-library/react';
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
    // the read model has the shoe's 12 coups; the console, opened at round 11, saw the last two
    const service = { ...fromLive(3, entries('BBPPTPBPPBBP')), leadingTies: 0 };
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
          lastRound={12}
          live={entries('BBPPTPBPPBBP').slice(10)}
        />,
      );
      expect(screen.getByText(/2 coups \(seen live\)/)).toBeTruthy();
      await waitFor(() => expect(screen.getByText(/12 coups \(read model\)/)).toBeTruthy());
      expect(drawn('Big eye boy').map((c) => c.cell)).toEqual(
        fromLive(3, entries('BBPPTPBPPBBP')).bigEyeBoy.map((c) => `${c.color[0]}${c.col},${c.row}`),
      );
    } finally {
      globalThis.fetch = real;
    }
  });

  /** The read model's roads of shoe 3 holding `outcomes` (rounds 1, 2, ...), drawn by the same rules. */
  const serviceRoads = (outcomes: string) => {
    const d = fromLive(3, entries(outcomes));
    return d;
  };
  const beads = () =>
    within(screen.getByLabelText('bead plate'))
      .queryAllByText(/^[PBT]$/)
      .map((b) => b.textContent)
      .join('');

  /** Roads on a fetch answering `answers` in turn (the last one again after). */
  function withService(answers: object[], body: (fetchMock: jest.Mock) => Promise<void>) {
    const real = globalThis.fetch;
    let n = 0;
    const fetchMock = jest.fn(async () => {
      const body = answers[Math.min(n, answers.length - 1)];
      n += 1;
      return { ok: true, status: 200, json: async () => body };
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    return body(fetchMock).finally(() => {
      globalThis.fetch = real;
    });
  }

  const props = {
    token: 't',
    tableId: 'T1',
    shoeNo: 3,
    everyCoup: false,
    lastRound: 2,
  } as const;

  it('a coup corrected after it settled: the corrected result, even while the read model still has the old one', () =>
    withService([serviceRoads('BP')], async () => {
      // the console, open since round 2, saw it corrected from player to tie; the read model has round 1 too
      const live = entries('BT').slice(1);
      render(<Roads {...props} shoeCoups={2} live={live} amendments={1} />);
      expect(beads()).toBe('T'); // what it saw, until the read model answers
      await waitFor(() => expect(beads()).toBe('BT'));
    }));

  it('a coup voided after it settled leaves the road, even while the read model still has it', () =>
    withService([serviceRoads('BPB')], async () => {
      // the console, open since round 2, saw rounds 2 and 3 resolve and round 2 voided after it settled
      const live = entries('BPB').slice(2);
      render(<Roads {...props} shoeCoups={2} live={live} voided={[2]} amendments={1} />);
      expect(beads()).toBe('B');
      await waitFor(() => expect(beads()).toBe('BB'));
      expect(screen.getByText(/shoe 3, 2 coups/)).toBeTruthy();
    }));

  it('asks the read model again after a correction or a void (the coup count is unchanged by a correction)', async () => {
    jest.useFakeTimers();
    const real = globalThis.fetch;
    const fetchMock = jest.fn(async () => ({ ok: true, status: 200, json: async () => serviceRoads('BP') }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    try {
      const { rerender } = render(<Roads {...props} shoeCoups={2} live={entries('BP')} amendments={0} />);
      await act(async () => jest.advanceTimersByTime(10_000));
      const asked = fetchMock.mock.calls.length;
      expect(asked).toBeGreaterThan(0);
      rerender(<Roads {...props} shoeCoups={2} live={entries('BT')} amendments={1} />);
      await act(async () => jest.advanceTimersByTime(10_000));
      expect(fetchMock.mock.calls.length).toBeGreaterThan(asked);
    } finally {
      jest.useRealTimers();
      globalThis.fetch = real;
    }
  });

  it('the first coup seen live is asked for a moment later, not at once (the read model folds it after the push)', async () => {
    jest.useFakeTimers();
    const real = globalThis.fetch;
    const fetchMock = jest.fn(async () => ({ ok: true, status: 200, json: async () => serviceRoads('B') }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const at = (coups: number) => (
      <Roads
        token="t"
        tableId="T1"
        shoeNo={1}
        shoeCoups={coups}
        everyCoup={false}
        lastRound={coups || null}
        live={entries('B'.repeat(coups))}
      />
    );
    try {
      const { rerender } = render(at(0));
      rerender(at(1));
      await act(async () => jest.advanceTimersByTime(299));
      expect(fetchMock).not.toHaveBeenCalled();
      await act(async () => jest.advanceTimersByTime(1));
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
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
