/**
 * The tables claim of a single sign-on, read so that it never widens what the provider says: absent is the
 * configuration's (no table by default), present and empty is no table, and anything but table ids refuses the
 * sign-in.
 */
import { ApiError } from '../common/api-error';
import { claimAt, tablesOfClaim } from './sso-claims';

const refusal = (value: unknown): string => {
  try {
    tablesOfClaim(value, 'all');
  } catch (error) {
    return error instanceof ApiError ? `${error.status} ${error.code}` : String(error);
  }
  return 'accepted';
};

it('an absent claim means what COUP_OIDC_TABLES_WHEN_ABSENT says: no table (default) or every table', () => {
  expect(tablesOfClaim(undefined, 'none')).toEqual([]);
  expect(tablesOfClaim(undefined, 'all')).toBeNull();
  expect(tablesOfClaim(claimAt({ sub: 'x' }, 'coup_tables'), 'none')).toEqual([]);
});

it('a present claim names the tables, an empty one none, whatever the configuration', () => {
  for (const whenAbsent of ['none', 'all'] as const) {
    expect(tablesOfClaim(['T1', 'T2', 'T1'], whenAbsent)).toEqual(['T1', 'T2']);
    expect(tablesOfClaim('T1, T2', whenAbsent)).toEqual(['T1', 'T2']);
    expect(tablesOfClaim([], whenAbsent)).toEqual([]);
    expect(tablesOfClaim('', whenAbsent)).toEqual([]);
    expect(tablesOfClaim(null, whenAbsent)).toEqual([]);
  }
});

it.each([
  [['T1', 'not a table!']],
  [['../T1']],
  [['T1', 7]],
  [[{ id: 'T1' }]],
  [7],
  [{ T1: true }],
  ['T1 $x'],
])(
  'refuses the sign-in for the claim %j (403 SSO_INVALID_TABLES), never reading it as every table',
  (value) => {
    expect(refusal(value)).toBe('403 SSO_INVALID_TABLES');
  },
);
