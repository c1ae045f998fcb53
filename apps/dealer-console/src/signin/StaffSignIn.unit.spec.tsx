/** The staff sign-in form: the service's answer becomes the session's token; refusals are said for people. */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setLanguage } from '../i18n';
import { StaffSignIn } from './StaffSignIn';

const answer = (status: number, body: unknown) =>
  Promise.resolve({
    ok: status < 300,
    status,
    statusText: '',
    json: () => Promise.resolve(body),
    text: () => Promise.resolve(JSON.stringify(body)),
  } as Response);

function withService(signIn: (body: Record<string, unknown>) => Promise<Response>, sso = false) {
  const fetchMock = jest.fn((url: string, init?: RequestInit) =>
    url === '/api/auth/options'
      ? answer(200, { password: true, sso: sso ? { start: '/api/auth/oidc/start' } : null })
      : signIn(JSON.parse(String(init?.body)) as Record<string, unknown>),
  );
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

function fill(username: string, password: string, role = '') {
  fireEvent.change(screen.getByLabelText('User name'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  if (role) fireEvent.change(screen.getByLabelText('Act as'), { target: { value: role } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

afterEach(() => act(() => setLanguage('en')));

it('signs in with the user name, the password and the role asked for', async () => {
  const sent: Record<string, unknown>[] = [];
  withService((body) => {
    sent.push(body);
    return answer(200, { token: 'a.b.c', role: 'supervisor' });
  });
  const onSignIn = jest.fn();
  render(<StaffSignIn onSignIn={onSignIn} />);
  fill('ann', 'correct horse battery', 'supervisor');
  await waitFor(() => expect(onSignIn).toHaveBeenCalledWith('a.b.c'));
  expect(sent).toEqual([{ username: 'ann', password: 'correct horse battery', role: 'supervisor' }]);
});

it.each([
  [
    401,
    { code: 'INVALID_CREDENTIALS', message: 'wrong user name or password' },
    /Wrong user name or password/,
  ],
  [
    423,
    { code: 'ACCOUNT_LOCKED', message: 'locked', details: { until: '2030-01-01T08:15:00.000Z' } },
    /locked until \d/,
  ],
  [423, { code: 'ACCOUNT_LOCKED', message: 'locked' }, /locked for a while/],
  [403, { code: 'ACCOUNT_DISABLED', message: 'disabled' }, /disabled: ask an admin/],
  [429, { code: 'RATE_LIMITED', message: 'too many' }, /wait a minute/],
  [500, { code: 'INTERNAL_ERROR', message: 'boom' }, /refused \(INTERNAL_ERROR\): boom/],
])('says a refusal (%i) for people, and signs nobody in', async (status, body, said) => {
  withService(() => answer(status, body));
  const onSignIn = jest.fn();
  render(<StaffSignIn onSignIn={onSignIn} />);
  fill('ann', 'not the password');
  expect((await screen.findByRole('alert')).textContent).toMatch(said);
  expect(onSignIn).not.toHaveBeenCalled();
});

it("offers the casino's single sign-on only when the service has it", async () => {
  withService(() => answer(500, {}), true);
  render(<StaffSignIn onSignIn={jest.fn()} />);
  expect((await screen.findByRole('link', { name: /single sign-on/ })).getAttribute('href')).toBe(
    '/api/auth/oidc/start',
  );
});

it('speaks Simplified Chinese, refusals too', async () => {
  act(() => setLanguage('zh'));
  withService(() => answer(401, { code: 'INVALID_CREDENTIALS', message: 'wrong user name or password' }));
  render(<StaffSignIn onSignIn={jest.fn()} />);
  fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'ann' } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'x' } });
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  expect((await screen.findByRole('alert')).textContent).toBe('用户名或密码错误。');
});
