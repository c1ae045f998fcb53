/** The pit boss's forms: a dealt card clicked to correct it, a settled coup's correction and void with a reason. */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { RoundView } from '@coup/table';
import { ApiError } from '../api';
import { setLanguage } from '../i18n';
import { CorrectCardForm, VoidForm } from './CorrectionForms';
import { RoundCards } from './RoundCards';

const round = {
  roundNo: 4,
  cards: [
    { index: 0, card: '2c', to: 'player', slot: 'player1' },
    { index: 1, card: '7d', to: 'banker', slot: 'banker1' },
  ],
  result: null,
} as unknown as RoundView;

afterEach(() => act(() => setLanguage('en')));

it('each dealt card is a button naming it, and clicking one picks it', () => {
  const onPick = jest.fn();
  render(<RoundCards round={round} clickable selected={1} onPick={onPick} />);
  fireEvent.click(screen.getByRole('button', { name: "Correct card 1, player's first card: 2 of clubs" }));
  expect(onPick).toHaveBeenCalledWith(0);
  const picked = screen.getByRole('button', { name: "Correct card 2, banker's first card: 7 of diamonds" });
  expect(picked.getAttribute('aria-pressed')).toBe('true');
});

it('cards are not buttons when they may not be corrected', () => {
  render(<RoundCards round={round} clickable={false} selected={null} onPick={jest.fn()} />);
  expect(screen.queryAllByRole('button')).toEqual([]);
  expect(screen.getByRole('img', { name: "card 1, player's first card: 2 of clubs" })).toBeTruthy();
});

it('a settled coup is corrected only with a reason; the card as typed goes in the one spelling', async () => {
  const onSubmit = jest.fn().mockResolvedValue({});
  const onDone = jest.fn();
  render(
    <CorrectCardForm
      index={1}
      current="7d"
      settled
      onSubmit={onSubmit}
      onDone={onDone}
      onCancel={jest.fn()}
    />,
  );
  fireEvent.change(screen.getByLabelText('The right card'), { target: { value: '10h' } });
  fireEvent.click(screen.getByRole('button', { name: 'Correct the card' }));
  expect(screen.getByLabelText('Reason').getAttribute('aria-invalid')).toBe('true');
  expect(onSubmit).not.toHaveBeenCalled();
  fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'misread the 10' } });
  expect(screen.getByLabelText('Reason').getAttribute('aria-invalid')).toBeNull(); // typed again: the refusal goes
  fireEvent.click(screen.getByRole('button', { name: 'Correct the card' }));
  await waitFor(() =>
    expect(onDone).toHaveBeenCalledWith('Card 2 corrected: 7 of diamonds is now 10 of hearts.'),
  );
  expect(onSubmit).toHaveBeenCalledWith('Th', 'misread the 10');
});

it("shows the service's refusal of a correction", async () => {
  const onSubmit = jest.fn().mockRejectedValue(new ApiError(409, 'CORRECTION_WINDOW_CLOSED', 'too late'));
  render(
    <CorrectCardForm
      index={0}
      current="2c"
      settled={false}
      onSubmit={onSubmit}
      onDone={jest.fn()}
      onCancel={jest.fn()}
    />,
  );
  fireEvent.change(screen.getByLabelText('The right card'), { target: { value: '3c' } });
  fireEvent.click(screen.getByRole('button', { name: 'Correct the card' }));
  expect((await screen.findByRole('alert')).textContent).toMatch(
    /Too late: this coup can no longer be corrected/,
  );
});

it('voids a settled coup with a reason, in Simplified Chinese too', async () => {
  act(() => setLanguage('zh'));
  const onSubmit = jest.fn().mockResolvedValue({});
  const onDone = jest.fn();
  render(<VoidForm roundNo={4} kind="settled" onSubmit={onSubmit} onDone={onDone} />);
  expect(screen.getByRole('heading', { name: '作废已结算的第 4 局' })).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '作废已结算的一局' }));
  expect(screen.getByLabelText('作废原因').getAttribute('aria-invalid')).toBe('true');
  fireEvent.change(screen.getByLabelText('作废原因'), { target: { value: '荷官发错牌' } });
  fireEvent.click(screen.getByRole('button', { name: '作废已结算的一局' }));
  await waitFor(() =>
    expect(onDone).toHaveBeenCalledWith('已结算的第 4 局已作废：结算已冲销，所有投注已退还。'),
  );
  expect(onSubmit).toHaveBeenCalledWith('荷官发错牌');
});
