/**
 * Opening a table: the form refuses what the service refuses, at the field the service names, before any call;
 * what the service still refuses is shown at its field too; an accepted table goes to `onOpened`.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../api';
import { setLanguage } from '../i18n';
import { controlId } from './Field';
import { OpenTable } from './OpenTable';
import type { PitApi } from './pitApi';

function fakePit(openTable: PitApi['openTable']): PitApi {
  return { openTable } as unknown as PitApi;
}

// Controls are found by their id (the form is large: label and role queries scan all of it); one test reads them
// by their labels.
const control = (name: string) => document.getElementById(controlId(name)) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(control(name), { target: { value } });
const submit = (label = 'Open the table') => fireEvent.click(screen.getByText(label, { selector: 'button' }));

/** The refusal shown at a control: it is marked invalid and described by the message. */
function refusalAt(name: string): string {
  const control = document.getElementById(controlId(name))!;
  expect(control.getAttribute('aria-invalid')).toBe('true');
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ');
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

afterEach(() => act(() => setLanguage('en')));

it('refuses a cut card outside the shoe at the cut card field, without calling the service', async () => {
  const openTable = jest.fn();
  render(<OpenTable pit={fakePit(openTable)} onOpened={jest.fn()} />);
  type('tableId', 'T9');
  type('decks', '2');
  fireEvent.change(screen.getByLabelText('Cut card (cards behind it)'), { target: { value: '60' } });
  submit();
  expect(refusalAt('cutCard')).toMatch(
    /A whole number of cards from 12 to 52: half the shoe of 2 decks\. \(Invalid table rules: cutCard must be an integer from 12 to 52/,
  );
  expect(screen.getByRole('alert').textContent).toMatch(/1 rule\(s\) to put right, each marked at its field/);
  await waitFor(() => expect(document.activeElement?.id).toBe('field-cutCard'));
  expect(openTable).not.toHaveBeenCalled();
  // checked again as the pit types: the refusal goes once the value is right
  type('cutCard', '26');
  expect(control('cutCard').getAttribute('aria-invalid')).toBeNull();
});

it('refuses a side bet the game mode does not offer at that side bet', () => {
  render(<OpenTable pit={fakePit(jest.fn())} onOpened={jest.fn()} />);
  type('tableId', 'T9');
  fireEvent.click(control('sideBets.dragon7'));
  submit();
  expect(refusalAt('sideBets.dragon7')).toMatch(
    /Not offered with this game mode or shuffle\. \(.*sideBets\.dragon7 is not allowed: Dragon 7 is offered only on ez tables/,
  );
});

it("shows the service's refusal at the field it names (details.field), and the table id's at the table id", async () => {
  const openTable = jest
    .fn()
    .mockRejectedValueOnce(
      new ApiError(400, 'INVALID_RULES', 'Invalid table rules: limits.tie.max too high', {
        field: 'limits.tie.max',
      }),
    )
    .mockRejectedValueOnce(new ApiError(409, 'TABLE_EXISTS', "table 'T9' exists"));
  render(<OpenTable pit={fakePit(openTable)} onOpened={jest.fn()} />);
  type('tableId', 'T9');
  submit();
  await waitFor(() =>
    expect(refusalAt('limits.tie.max')).toMatch(
      /Dollars in steps of the chips.*\(INVALID_RULES: Invalid table rules: limits\.tie\.max too high\)/,
    ),
  );
  submit();
  await waitFor(() => expect(refusalAt('tableId')).toMatch(/A table with this id exists already\./));
  expect(control('limits.tie.max').getAttribute('aria-invalid')).toBeNull();
});

it('sends every rule set and reports the table opened', async () => {
  const openTable = jest.fn().mockResolvedValue({});
  const onOpened = jest.fn();
  render(<OpenTable pit={fakePit(openTable)} onOpened={onOpened} />);
  type('tableId', 'EZ1');
  type('game', 'ez');
  type('bettingSeconds', '15');
  fireEvent.click(control('sideBets.panda8'));
  type('commission', 'deducted');
  submit();
  await waitFor(() => expect(onOpened).toHaveBeenCalledWith('EZ1'));
  const [tableId, rules] = openTable.mock.calls[0] as [string, Record<string, unknown>];
  expect(tableId).toBe('EZ1');
  expect(rules).toMatchObject({
    game: 'ez',
    bettingSeconds: 15,
    sideBets: { panda8: { paytable: '25-to-1' } },
  });
  expect(rules).not.toHaveProperty('commission');
});

it('speaks Simplified Chinese when chosen', () => {
  act(() => setLanguage('zh'));
  render(<OpenTable pit={fakePit(jest.fn())} onOpened={jest.fn()} />);
  expect(screen.getByText('开台', { selector: 'h2' })).toBeTruthy();
  expect(screen.getByText('赌台编号', { selector: 'label' }).getAttribute('for')).toBe('field-tableId');
  type('tableId', 'bad id');
  submit('开台');
  expect(refusalAt('tableId')).toBe('1 至 64 个字母、数字、_ 或 - 赌台编号为 1 至 64 个字母、数字、_ 或 -。');
});

it('shows every refused rule at once, each at its field, in Chinese with the English detail marked as such', async () => {
  act(() => setLanguage('zh'));
  const openTable = jest.fn();
  render(<OpenTable pit={fakePit(openTable)} onOpened={jest.fn()} />);
  type('tableId', 'bad id');
  type('decks', '9');
  type('chips', '1, 1');
  type('cutCard', '999');
  type('bettingSeconds', '601');
  submit('开台');
  expect(screen.getByRole('alert').textContent).toBe('未能开台：有 5 项规则需更正，已在各字段标出。');
  expect(refusalAt('tableId')).toMatch(/赌台编号为 1 至 64 个字母、数字、_ 或 -。$/);
  expect(refusalAt('decks')).toMatch(/^副数须为 1 至 8 的整数。 \(Invalid table rules: decks must be/);
  expect(refusalAt('chips')).toMatch(/1 至 20 个美元筹码面额，每个大于前一个。/);
  expect(refusalAt('bettingSeconds')).toMatch(/1 至 600 秒，或留空不计时/);
  // the decks refused, the cut card is checked against the default shoe of 8 decks
  expect(refusalAt('cutCard')).toMatch(/须为 12 至 208 的整数：8 副牌牌靴的一半。/);
  for (const detail of document.querySelectorAll('.field-error .refusal-detail'))
    expect(detail.getAttribute('lang')).toBe('en');
  expect(document.querySelectorAll('.field-error .refusal-detail')).toHaveLength(4);
  await waitFor(() => expect(document.activeElement?.id).toBe('field-tableId'));
  expect(openTable).not.toHaveBeenCalled();
  // the first refused field as the form shows them is focused, whatever the order the rules are checked in
  type('tableId', 'T9');
  submit('开台');
  await waitFor(() => expect(document.activeElement?.id).toBe('field-decks'));
  // put right one by one, each refusal goes from its field
  type('decks', '6');
  expect(control('decks').getAttribute('aria-invalid')).toBeNull();
  expect(refusalAt('cutCard')).toMatch(/须为 12 至 156 的整数：6 副牌牌靴的一半。/);
});
