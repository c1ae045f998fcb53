/**
 * The tab's session and a launch link (`#token=`): a link opened in a tab already signed in as staff ends that
 * sign-in at the service (POST /api/auth/sign-out with its token) before the link's token is taken.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { TOKEN_KEY, useSession } from './session';

const jwt = (payload: object) =>
  `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.c2ln`;
const staff = jwt({ sub: 'pit.ann', role: 'admin', gen: 1 });
const player = jwt({ sub: 'p1', role: 'player' });
const player2 = jwt({ sub: 'p2', role: 'player' });

/** The sign-outs sent, each with the token it ended, in the order sent. */
let signOuts: string[];
let fetchMock: jest.Mock;

beforeEach(() => {
  sessionStorage.clear();
  window.history.replaceState(null, '', '/#/');
  signOuts = [];
  fetchMock = jest.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/auth/sign-out' && init?.method === 'POST')
      signOuts.push(String((init.headers as Record<string, string>)['authorization']));
    return { ok: true, status: 204, statusText: '', text: async () => '' } as Response;
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
});

function openLink(token: string) {
  act(() => {
    window.history.replaceState(null, '', `/#token=${token}`);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
}

it("a link opened in a tab signed in as staff signs the staff out first, then takes the link's token", async () => {
  sessionStorage.setItem(TOKEN_KEY, staff);
  const { result } = renderHook(() => useSession());
  expect(result.current.token).toBe(staff);
  openLink(player);
  await waitFor(() => expect(result.current.token).toBe(player));
  expect(signOuts).toEqual([`Bearer ${staff}`]);
  expect(sessionStorage.getItem(TOKEN_KEY)).toBe(player);
});

it('a link that opens the tab while a staff sign-in is kept ends that sign-in too', async () => {
  sessionStorage.setItem(TOKEN_KEY, staff);
  window.history.replaceState(null, '', `/#token=${player}`);
  const { result } = renderHook(() => useSession());
  expect(result.current.token).toBe(player);
  expect(signOuts).toEqual([`Bearer ${staff}`]);
  expect(window.location.hash).toBe('');
});

it('a player token replaced by another link, or the same token again, has no sign-in to end', async () => {
  sessionStorage.setItem(TOKEN_KEY, player);
  const { result } = renderHook(() => useSession());
  openLink(player);
  openLink(player2);
  await waitFor(() => expect(result.current.token).toBe(player2));
  expect(fetchMock).not.toHaveBeenCalled();
});
