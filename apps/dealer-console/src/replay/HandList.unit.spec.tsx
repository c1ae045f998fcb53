import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReadApi } from './api';
import { HAND_LIST_REFRESH_MS, HandList, toFilter } from './HandList';
import type { HandSummary } from '@coup/projections/wire';

const hand = (roundNo: number): HandSummary => ({
  tableId: 'T1',
  roundNo,
  shoeNo: 1,
  status: 'resolved',
  openedAt: '2026-11-29T12:00:00.000Z',
  resolvedAt: '2026-11-29T12:00:30.000Z',
  outcome: roundNo % 2 ? 'banker' : 'player',
  natural: false,
  playerCards: ['2c', '3s', '9c'],
  bankerCards: ['7d', 'Th'],
  playerTotal: 4,
  bankerTotal: 7,
  players: ['alice'],
  betCount: 1,
  totalStaked: 1000,
  totalPaid: 1950,
  commission: 50,
  houseResult: -950,
  dealer: 'dealer-1',
  voidReason: null,
  amended: false,
});

describe('HandList', () => {
  it('sends the filters to the hand-history query and pages with the cursor, back and forth', async () => {
    const hands = jest.fn(async (_t: string, _f: unknown, cursor?: string | null) =>
      cursor ? { items: [hand(1)], nextCursor: null } : { items: [hand(3), hand(2)], nextCursor: 'c2' },
    );
    render(<HandList token="t" tableId="T1" api={{ hands } as unknown as ReadApi} />);
    expect(await screen.findByRole('link', { name: 'Hand 3' })).toHaveProperty('hash', '#/tables/T1/hands/3');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByRole('link', { name: 'Hand 1' });
    expect(hands).toHaveBeenLastCalledWith('T1', {}, 'c2');
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await screen.findByRole('link', { name: 'Hand 3' });

    fireEvent.change(screen.getByLabelText('Shoe'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Rounds from'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('to'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Outcome'), { target: { value: 'banker' } });
    fireEvent.change(screen.getByLabelText('Player'), { target: { value: 'alice' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(hands).toHaveBeenLastCalledWith(
        'T1',
        { shoe: 1, roundFrom: 2, roundTo: 3, outcome: 'banker', player: 'alice' },
        null,
      ),
    );
  });

  it('reads the first page again every few seconds (a hand recorded later appears), other pages once', async () => {
    jest.useFakeTimers();
    try {
      let recorded = [hand(1)];
      const hands = jest.fn(async (_t: string, _f: unknown, cursor?: string | null) =>
        cursor ? { items: [hand(1)], nextCursor: null } : { items: recorded, nextCursor: 'c1' },
      );
      render(<HandList token="t" tableId="T1" api={{ hands } as unknown as ReadApi} />);
      await screen.findByRole('link', { name: 'Hand 1' });
      expect(screen.queryByRole('link', { name: 'Hand 2' })).toBeNull();
      recorded = [hand(2), hand(1)];
      await act(async () => {
        jest.advanceTimersByTime(HAND_LIST_REFRESH_MS);
      });
      expect(await screen.findByRole('link', { name: 'Hand 2' })).toBeTruthy();
      // On the next page nothing is read again.
      fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
      await waitFor(() => expect(hands).toHaveBeenLastCalledWith('T1', {}, 'c1'));
      const calls = hands.mock.calls.length;
      await act(async () => {
        jest.advanceTimersByTime(3 * HAND_LIST_REFRESH_MS);
      });
      expect(hands.mock.calls.length).toBe(calls);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a malformed filter at its field', () => {
    expect(toFilter({ shoe: 'x', roundFrom: '', roundTo: '', outcome: '', player: '' })).toEqual({
      ok: false,
      field: 'shoe',
      key: 'hands.errors.shoe',
    });
    expect(toFilter({ shoe: '', roundFrom: '5', roundTo: '2', outcome: '', player: '' })).toEqual({
      ok: false,
      field: 'roundFrom',
      key: 'hands.errors.order',
    });
  });

  it('shows the refusal in words at the field, and sends nothing', async () => {
    const hands = jest.fn(async () => ({ items: [hand(1)], nextCursor: null }));
    render(<HandList token="t" tableId="T1" api={{ hands } as unknown as ReadApi} />);
    await screen.findByRole('link', { name: 'Hand 1' });
    const calls = hands.mock.calls.length;
    fireEvent.change(screen.getByLabelText('Shoe'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert').textContent).toBe('Shoe must be a whole number');
    expect(screen.getByLabelText('Shoe').getAttribute('aria-invalid')).toBe('true');
    expect(hands.mock.calls.length).toBe(calls);
  });
});
