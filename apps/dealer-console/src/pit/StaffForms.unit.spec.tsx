/** Making a staff account: what the service refuses is shown at the field it is about; a made account is reported. */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../api';
import '../i18n';
import { controlId } from './Field';
import type { PitApi, StaffAccount } from './pitApi';
import { CreateStaffForm, listOf, staffFieldOf } from './StaffForms';

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
  expect(described('password')).toMatch(
    /12 characters or more.*A value is not valid\..*password must be longer/,
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
