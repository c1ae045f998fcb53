/** Making a staff account: what the service refuses is shown at the field it is about; a made account is reported. */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../api';
import { act } from 'react';
import { setLanguage } from '../i18n';
import { controlId } from './Field';
import type { PitApi, StaffAccount } from './pitApi';
import { CreateStaffForm, listOf, staffFieldOf, staffRefusals } from './StaffForms';

const control = (name: string) => document.getElementById(controlId(name)) as HTMLInputElement;
const described = (name: string) =>
  (control(name).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

const account: StaffAccount = {
  username: 'dealer.dan',
  roles: ['dealer', 'supervisor'],
  tables: ['T1'],
  source: 'password',
  disabled: false,
  lockedUntil: null,
  failures: 0,
  createdAt: '2030-01-01T00:00:00.000Z',
  createdBy: 'admin',
  lastSignInAt: null,
};

it.each([
  [new ApiError(409, 'ACCOUNT_EXISTS', 'exists'), 'username'],
  [
    new ApiError(400, 'VALIDATION_FAILED', 'password must be longer than or equal to 12 characters'),
    'password',
  ],
  [new ApiError(400, 'VALIDATION_FAILED', 'roles must contain at least 1 elements'), 'roles'],
  [new ApiError(400, 'INVALID_TABLES', 'bad'), 'tables'],
  [new ApiError(409, 'LAST_ADMIN', 'last'), 'roles'],
  [new ApiError(400, 'VALIDATION_FAILED', 'property x should not exist'), null],
  [new ApiError(500, 'INTERNAL_ERROR', 'boom'), null],
])('a refusal %#: %s is shown at %s', (error, field) => expect(staffFieldOf(error)).toBe(field));

it('reads tables as a list', () => expect(listOf(' T1, T2  T3,')).toEqual(['T1', 'T2', 'T3']));

it('shows a refused password at the password, then makes the account with its roles and tables', async () => {
  const createStaff = jest
    .fn()
    .mockRejectedValueOnce(
      new ApiError(400, 'VALIDATION_FAILED', 'password must be longer than or equal to 12 characters'),
    )
    .mockResolvedValueOnce(account);
  const onCreated = jest.fn();
  render(<CreateStaffForm pit={{ createStaff } as unknown as PitApi} onCreated={onCreated} />);
  fireEvent.change(screen.getByLabelText('User name'), { target: { value: ' dealer.dan ' } });
  fireEvent.change(control('password'), { target: { value: 'short' } });
  fireEvent.click(screen.getByRole('checkbox', { name: 'supervisor' }));
  fireEvent.change(control('tables'), { target: { value: 'T1' } });
  fireEvent.click(screen.getByText('Create the account'));
  await waitFor(() => expect(control('password').getAttribute('aria-invalid')).toBe('true'));
  expect(described('password')).toBe(
    '12 characters or more 12 characters or more. (VALIDATION_FAILED: password must be longer than or equal to 12 characters)',
  );
  fireEvent.change(control('password'), { target: { value: 'correct horse battery' } });
  fireEvent.click(screen.getByText('Create the account'));
  await waitFor(() => expect(onCreated).toHaveBeenCalledWith(account));
  expect(createStaff).toHaveBeenLastCalledWith({
    username: 'dealer.dan',
    password: 'correct horse battery',
    roles: ['dealer', 'supervisor'],
    tables: ['T1'],
  });
  expect(control('username').value).toBe('');
  expect(control('password').value).toBe('');
});

it('a validation naming several problems has each at its field', () => {
  const error = new ApiError(
    400,
    'VALIDATION_FAILED',
    'username must be 1 to 64 of a-z 0-9 . _ -, starting with a letter (lower case; not online-); password must be longer than or equal to 12 characters; each value in roles must be one of the following values: admin, dealer; property x should not exist',
  );
  expect(staffRefusals(error).map((r) => r.field)).toEqual(['username', 'password', 'roles', null]);
  expect(staffRefusals(error)[0]?.detail).toMatch(/\(lower case; not online-\)$/);
});

it('in Chinese, each refused field says why in Chinese, the service English beside it marked lang="en"', async () => {
  act(() => setLanguage('zh'));
  try {
    const createStaff = jest
      .fn()
      .mockRejectedValue(
        new ApiError(
          400,
          'VALIDATION_FAILED',
          'username must be 1 to 64 of a-z 0-9 . _ -, starting with a letter (lower case; not online-); password must be longer than or equal to 12 characters',
        ),
      );
    render(<CreateStaffForm pit={{ createStaff } as unknown as PitApi} onCreated={jest.fn()} />);
    fireEvent.change(control('username'), { target: { value: 'Bad Name' } });
    fireEvent.change(control('password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByText('创建账户'));
    await waitFor(() => expect(control('password').getAttribute('aria-invalid')).toBe('true'));
    const error = (name: string) => document.getElementById(`${controlId(name)}-error`)!;
    expect(error('password').textContent).toMatch(
      /^至少 12 个字符。 \(VALIDATION_FAILED: password must be longer/,
    );
    expect(error('username').textContent).toMatch(
      /^1 至 64 个 a-z 0-9 \. _ - 字符，以字母开头（小写）。 \(VALIDATION_FAILED: username must/,
    );
    expect(error('password').textContent).not.toMatch(/username/);
    for (const name of ['username', 'password'])
      expect(error(name).querySelector('.refusal-detail')?.getAttribute('lang')).toBe('en');
    expect(screen.queryByRole('alert')).toBeNull();
  } finally {
    act(() => setLanguage('en'));
  }
});
