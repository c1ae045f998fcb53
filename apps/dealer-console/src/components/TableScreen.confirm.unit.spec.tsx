/**
 * A live table whose rules ask the dealer to confirm each result (`confirmResult`): once the coup's last card is
 * shown the dealer screen shows the result it will settle with (winner, totals) and a Confirm button instead of the
 * card field; Enter confirms (`POST .../confirm`) and never sends a card. The screen runs on a scripted socket.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { RoundView, TableView } from '@coup/table';
import type { Api } from '../api';
import { TableScreen } from './TableScreen';

const RULES = {
  dealing: 'live',
  decks: 8,
  tiePays: 8,
  commission: 'deducted',
  shuffle: 'shoe',
  confirmResult: true,
  limits: {
    player: { min: 100, max: 100_000 },
    banker: { min: 100, max: 100_000 },
    tie: { min: 100, max: 20_000 },
  },
} as unknown as NonNullable<TableView['rules']>;

const dealt = (cards: readonly string[]): RoundView['cards'] =>
  cards.map((card, index) => ({
    index,
    card: card as never,
    to: index % 2 === 0 ? 'player' : 'banker',
    slot: (['player1', 'banker1', 'player2', 'banker2'] as const)[index] ?? 'player3',
  }));

/** Round 5 dealt 4s Kc 5s 7c: player 9, banker 7 (a natural), complete, not settled. */
function awaiting(cards = ['4s', 'Kc', '5s', '7c'], rules = RULES): TableView {
  const round = {
    roundNo: 5,
    shoeNo: 1,
    status: 'dealing',
    openedAt: '2026-01-01T00:00:00.000Z',
    deadline: null,
    bets: {
      totals: { player: 1000, banker: 0, tie: 0 },
      bettors: 1,
      players: [{ playerId: 'alice', player: 1000, banker: 0, tie: 0 }],
    },
    cards: dealt(cards),
    next: { to: 'complete' },
    result: null,
    voided: null,
  } as unknown as RoundView;
  return {
    tableId: 'T1',
    status: 'open',
    phase: 'dealing',
    rules,
    roundNo: 5,
    shoe: null,
    round,
    players: [{ playerId: 'alice', chips: 99_000, commissionOwed: 0 }],
    lastResult: null,
  } as unknown as TableView;
}

/** The service's socket, played by the test: it answers a subscribe with `view`. */
class FakeSocket {
  static view: TableView;
  static last: FakeSocket | null = null;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
    queueMicrotask(() => this.onopen?.({}));
  }
  send(data: string) {
    const m = JSON.parse(data) as { type: string; tableId: string };
    if (m.type === 'subscribe')
      this.serve({ type: 'view', tableId: m.tableId, revision: 20, view: FakeSocket.view });
  }
  serve(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  closed = false;
  close() {
    this.closed = true;
  }
}

const realSocket = globalThis.WebSocket;
const realFetch = globalThis.fetch;
beforeEach(() => {
  globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
  // the read side (roads, edge monitor) has nothing yet
  globalThis.fetch = (async () => ({
    ok: false,
    status: 404,
    statusText: 'Not Found',
    json: async () => ({ code: 'NOT_FOUND', message: 'none' }),
  })) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.WebSocket = realSocket;
  globalThis.fetch = realFetch;
});

function fakeApi(view: () => TableView) {
  return {
    view: jest.fn(async () => view()),
    dealCard: jest.fn(async () => ({})),
    confirmResult: jest.fn(async () => ({})),
  } as unknown as Api & {
    dealCard: jest.Mock;
    confirmResult: jest.Mock;
  };
}

/** The screen at the table, once its socket has served the view. */
async function renderScreen(view: TableView, role = 'dealer') {
  FakeSocket.view = view;
  const api = fakeApi(() => FakeSocket.view);
  const { container } = render(<TableScreen api={api} token="tok" role={role} tableId="T1" />);
  await waitFor(() => expect(container.querySelector('.conn-live')).not.toBeNull());
  return api;
}

describe('the dealer confirms a complete coup before it settles (rule confirmResult)', () => {
  it('shows the result it will settle with and a Confirm button, no card field', async () => {
    await renderScreen(awaiting());
    expect(screen.getByRole('button', { name: /Confirm/ })).toBeTruthy();
    const pending = screen.getByRole('region', { name: 'result to confirm' });
    expect(pending.textContent).toMatch(/Player wins\s*9 to 7/);
    expect(pending.textContent).toContain('natural');
    expect(screen.queryByLabelText(/Enter card/)).toBeNull();
  });

  it('Enter confirms the coup, once, and never sends a card', async () => {
    const api = await renderScreen(awaiting());
    expect(screen.getByRole('button', { name: /Confirm/ })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: 'Enter' });
    fireEvent.keyDown(document.body, { key: 'Enter' }); // pressed again before the answer: not sent twice
    await waitFor(() => expect(api.confirmResult).toHaveBeenCalledWith('T1', 5));
    expect(api.confirmResult).toHaveBeenCalledTimes(1);
    expect(api.dealCard).not.toHaveBeenCalled();
  });

  it('the Confirm button confirms too; after a correction the result shown is the corrected one', async () => {
    const api = await renderScreen(awaiting());
    expect(screen.getByRole('button', { name: /Confirm/ })).toBeTruthy();
    // a supervisor corrects card 4 (7c to 9c): the service's view after the event
    FakeSocket.view = awaiting(['4s', 'Kc', '5s', '9c']);
    await act(async () => {
      FakeSocket.last?.serve({
        type: 'event',
        tableId: 'T1',
        revision: 21,
        event: { type: 'CardCorrected', data: { at: '2026-01-01T00:00:01.000Z' } },
      });
    });
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'result to confirm' }).textContent).toMatch(/Tie\s*9 to 9/),
    );
    fireEvent.click(screen.getByRole('button', { name: /Confirm/ }));
    await waitFor(() => expect(api.confirmResult).toHaveBeenCalledWith('T1', 5));
  });

  it('a table without the rule settles on its last card: nothing to confirm', async () => {
    const { confirmResult: _, ...plain } = RULES as unknown as Record<string, unknown>;
    await renderScreen(awaiting(['4s', 'Kc', '5s', '7c'], plain as never));
    expect(screen.queryByRole('button', { name: /Confirm/ })).toBeNull();
  });
});
