/**
 * The edge monitor's alert on the dealer console: shown while a bet favours the player, only from an answer about
 * the shoe and coup the table is at (the read model is asked again until it has folded the last coup).
 */
import { render, screen, waitFor } from '@testing-library/react';
import type { EdgeTableView } from '@coup/projections/wire';
import type { ShoeView } from '@coup/table';
import { EdgeAlert, edgeCurrent, useEdgeMonitor } from './EdgeAlert';

const SHOE = { shoeNo: 1, coups: 1, everyCoup: false, ended: false } as ShoeView;

const dragon7 = {
  spot: 'dragon7',
  paytable: '40-to-1',
  ev: 0.1234,
  evExact: '1234/10000',
  win: 0.02,
  push: 0,
  lose: 0.98,
} as const;

function edge(over: Partial<EdgeTableView>): EdgeTableView {
  return {
    tableId: 'T1',
    shoeNo: 1,
    roundNo: 2,
    coupInShoe: 1,
    cardsSeen: 5,
    cardsLeft: 47,
    computedAt: '2026-01-01T00:00:00.000Z',
    position: 10,
    favourable: [dragon7],
    values: [dragon7],
    ...over,
  };
}

function Probe({ shoe, amendedAt }: { readonly shoe: ShoeView | null; readonly amendedAt?: string | null }) {
  return <EdgeAlert edge={useEdgeMonitor('tok', 'T1', shoe, amendedAt)} />;
}

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A fetch answering `answers` in turn (the last one again after), recording the paths asked. */
function fetchAnswering(...answers: EdgeTableView[][]): string[] {
  const asked: string[] = [];
  globalThis.fetch = jest.fn(async (input: string) => {
    asked.push(String(input));
    const tables = answers[Math.min(asked.length - 1, answers.length - 1)];
    return { ok: true, status: 200, json: async () => ({ tables }) };
  }) as unknown as typeof fetch;
  return asked;
}

describe('the edge alert', () => {
  it('is current only for the shoe and coup the view is at', () => {
    expect(edgeCurrent(edge({}), SHOE)).toBe(true);
    expect(edgeCurrent(edge({ coupInShoe: 0 }), SHOE)).toBe(false);
    expect(edgeCurrent(edge({ shoeNo: 2 }), SHOE)).toBe(false);
    expect(edgeCurrent(undefined, SHOE)).toBe(false);
  });

  it('names each favourable bet with its EV and the cards left; nothing when none favours the player', () => {
    const { rerender } = render(<EdgeAlert edge={edge({})} />);
    expect(screen.getByTestId('edge-alert').textContent).toContain(
      'Player-favourable now: Dragon 7 (EV +12.34% of the stake) with 47 cards unseen in shoe 1, before round 2',
    );
    rerender(<EdgeAlert edge={edge({ favourable: [] })} />);
    expect(screen.queryByTestId('edge-alert')).toBeNull();
  });

  it('asks the monitor again until it has folded the last coup, then shows the alert', async () => {
    const asked = fetchAnswering([edge({ coupInShoe: 0, favourable: [] })], [edge({})]);
    render(<Probe shoe={SHOE} />);
    await screen.findByTestId('edge-alert');
    expect(asked).toEqual(['/api/edge/favourable?tableId=T1', '/api/edge/favourable?tableId=T1']);
  });

  it("after a settled coup's correction or void (the coup count unchanged), asks again and shows only a reading after it", async () => {
    const amendedAt = '2026-01-01T00:01:00.000Z';
    // the monitor answers with the reading from before the correction, then with one that has folded it
    const asked = fetchAnswering(
      [edge({})],
      [edge({})],
      [edge({ computedAt: amendedAt, favourable: [], values: [{ ...dragon7, ev: -0.2 }] })],
    );
    const { rerender } = render(<Probe shoe={SHOE} amendedAt={null} />);
    await screen.findByTestId('edge-alert');
    expect(asked).toHaveLength(1);
    rerender(<Probe shoe={SHOE} amendedAt={amendedAt} />);
    await waitFor(() => expect(asked).toHaveLength(3));
    await waitFor(() => expect(screen.queryByTestId('edge-alert')).toBeNull());
    expect(edgeCurrent(edge({}), SHOE, amendedAt)).toBe(false);
    expect(edgeCurrent(edge({ computedAt: amendedAt }), SHOE, amendedAt)).toBe(true);
  });

  it('asks nothing on every-coup tables or between shoes', async () => {
    const asked = fetchAnswering([edge({})]);
    render(
      <>
        <Probe shoe={{ ...SHOE, everyCoup: true }} />
        <Probe shoe={null} />
        <Probe shoe={{ ...SHOE, ended: true }} />
      </>,
    );
    await waitFor(() => expect(screen.queryByTestId('edge-alert')).toBeNull());
    expect(asked).toEqual([]);
  });
});
