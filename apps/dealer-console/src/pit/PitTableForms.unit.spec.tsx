/** The pit's commands at a table: a buy-in checked before it is sent; closing, with every player cashed out. */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../api';
import '../i18n';
import { controlId } from './Field';
import type { PitApi } from './pitApi';
import { BuyInForm, CloseTable, checkBuyIn } from './PitTableForms';
import { Receipts } from './PitTable';

const control = (name: string) => document.getElementById(controlId(name)) as HTMLInputElement;

it.each([
  ['alice', '100', null],
  ['alice', '0.5', null],
  ['', '100', 'playerId'],
  ['has space', '100', 'playerId'],
  ['alice', '0', 'amount'],
  ['alice', 'lots', 'amount'],
  ['alice', '', 'amount'],
])('checkBuyIn(%j, %j) refuses %s', (player, amount, field) =>
  expect(checkBuyIn(player, amount)?.field ?? null).toBe(field),
);

it('refuses a bad amount at the amount, then buys the player in for cents and says so', async () => {
  const buyIn = jest.fn().mockResolvedValue({ playerId: 'alice', amount: 25_050, chips: 25_050 });
  const onDone = jest.fn();
  render(<BuyInForm pit={{ buyIn } as unknown as PitApi} tableId="T1" onDone={onDone} />);
  fireEvent.change(screen.getByLabelText('Player id'), { target: { value: 'alice' } });
  fireEvent.change(screen.getByLabelText('Amount (dollars)'), { target: { value: 'lots' } });
  fireEvent.click(screen.getByText('Buy in', { selector: 'button' }));
  expect(control('amount').getAttribute('aria-invalid')).toBe('true');
  expect(buyIn).not.toHaveBeenCalled();
  fireEvent.change(control('amount'), { target: { value: '250.50' } });
  fireEvent.click(screen.getByText('Buy in', { selector: 'button' }));
  expect((await screen.findByRole('status')).textContent).toBe('alice bought in $250.50: $250.50 in chips.');
  expect(buyIn).toHaveBeenCalledWith('T1', 'alice', 25_050);
  expect(onDone).toHaveBeenCalled();
});

it('closing a table with players seated offers to cash every player out, and reports each cash-out', async () => {
  const closeTable = jest
    .fn()
    .mockRejectedValueOnce(new ApiError(409, 'PLAYERS_SEATED', '2 players hold chips'))
    .mockResolvedValueOnce({
      tableId: 'T1',
      closed: true,
      cashedOut: [{ playerId: 'bob', paid: 9_500, commissionCollected: 500 }],
    });
  const onClosed = jest.fn();
  render(
    <CloseTable
      pit={{ closeTable } as unknown as PitApi}
      tableId="T1"
      onClosed={onClosed}
      onDone={jest.fn()}
    />,
  );
  expect(screen.queryByText('Cash out every player and close')).toBeNull();
  fireEvent.click(screen.getByText('Close the table', { selector: 'button' }));
  expect((await screen.findByRole('alert')).textContent).toMatch(/Players still hold chips/);
  fireEvent.click(screen.getByText('Cash out every player and close'));
  await waitFor(() => expect(onClosed).toHaveBeenCalled());
  expect(closeTable.mock.calls).toEqual([
    ['T1', false],
    ['T1', true],
  ]);
  render(<Receipts receipts={onClosed.mock.calls[0][0]} />);
  expect(screen.getByText('bob: paid $95 in cash, commission collected $5')).toBeTruthy();
});
