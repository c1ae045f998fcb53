import { isSignInToken, takeTokenFromLink } from './session-link';

const jwt = (payload: object) =>
  `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.c2ln`;

describe('a token in the address (a launch link, a single sign-on return)', () => {
  it('is taken once and removed from the address', () => {
    const token = jwt({ sub: 'p1', role: 'player' });
    const replaceState = jest.fn();
    const location = {
      hash: `#token=${token}&expiresAt=2030-01-01T16%3A00%3A00.000Z`,
      pathname: '/',
      search: '',
    };
    expect(takeTokenFromLink(location, { replaceState })).toBe(token);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
  });

  it('leaves other addresses alone, and takes nothing that is not a token', () => {
    const replaceState = jest.fn();
    expect(
      takeTokenFromLink({ hash: '#/tables/T1', pathname: '/', search: '' }, { replaceState }),
    ).toBeNull();
    expect(replaceState).not.toHaveBeenCalled();
    expect(
      takeTokenFromLink({ hash: '#token=<script>', pathname: '/', search: '' }, { replaceState }),
    ).toBeNull();
    expect(replaceState).toHaveBeenCalledTimes(1); // removed all the same
  });

  it('tells a staff sign-in token (gen) from others', () => {
    expect(isSignInToken(jwt({ sub: 'ann', role: 'dealer', roles: ['dealer'], gen: 0 }))).toBe(true);
    expect(isSignInToken(jwt({ sub: 'p1', role: 'player' }))).toBe(false);
    expect(isSignInToken('not a token')).toBe(false);
  });
});
