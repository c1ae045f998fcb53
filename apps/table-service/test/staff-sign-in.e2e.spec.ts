/**
 * Staff sign-in over HTTP: accounts made by an admin, sign-in with a password for a shift-long token, wrong
 * passwords and the lockout (its expiry driven by the service's injected clock), sign-out ending the token,
 * disabled accounts, role and table changes taking effect, the admin routes' roles and refusals, and every change
 * recorded in the staff stream with who made it (and never folded by the table side).
 */
import { staff } from '@coup/auth';
import type { RecordedEvent } from '@coup/event-store';
import { Clock } from '../src/tables/edge-inputs';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

/** The service's clock, moved by the test (the lockout reads it; tokens keep the real time). */
class TestClock extends Clock {
  ms = Date.parse('2030-01-01T08:00:00.000Z');
  override now(): string {
    return new Date(this.ms).toISOString();
  }
}

const clock = new TestClock();
const PASSWORD = 'correct horse battery';
let h: Harness;

beforeAll(async () => {
  h = await startService(
    {
      COUP_STAFF_LOCKOUT_ATTEMPTS: '3',
      COUP_STAFF_LOCKOUT_MINUTES: '15',
      COUP_STAFF_TOKEN_HOURS: '8',
    },
    // a cheap scrypt keeps the suite fast (the default's cost is the password tests')
    { clock, scrypt: { log2N: 10, r: 8, p: 1 } },
  );
});
afterAll(async () => {
  await h?.close();
});

const admin = () => h.token('admin', 'boss');
const createAccount = (username: string, roles: string[], tables?: string[]) =>
  h.api('POST', '/api/staff', {
    token: admin(),
    body: { username, password: PASSWORD, roles, ...(tables ? { tables } : {}) },
  });
const signIn = (username: string, password = PASSWORD, role?: string) =>
  h.api('POST', '/api/auth/sign-in', {
    token: null,
    body: { username, password, ...(role ? { role } : {}) },
  });
const tokenOf = async (username: string, role?: string): Promise<string> => {
  const r = await signIn(username, PASSWORD, role);
  expect([r.status, r.body.code]).toEqual([200, undefined]);
  return r.body.token as string;
};
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function staffEvents(): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of h.app.get(EventStoreHandle).store.readStream('staff')) out.push(e);
  return out;
}

it('signs in with a password: a shift-long token carrying the role, the roles and the tables', async () => {
  expect((await createAccount('ann', ['dealer', 'supervisor'], ['T1'])).status).toBe(201);
  const r = await signIn('Ann'); // user names compare in lower case
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({
    username: 'ann',
    role: 'dealer',
    roles: ['dealer', 'supervisor'],
    tables: ['T1'],
  });
  const claims = claimsOf(r.body.token);
  expect(claims).toMatchObject({
    sub: 'ann',
    role: 'dealer',
    roles: ['dealer', 'supervisor'],
    tables: ['T1'],
    gen: 0,
  });
  expect(Number(claims['exp']) - Number(claims['iat'])).toBe(8 * 3600);
  expect(r.body.expiresAt).toBe('2030-01-01T16:00:00.000Z');
  // the token works: a dealer's read, and its table limit holds
  expect((await h.api('GET', '/api/tables', { token: r.body.token })).status).toBe(200);
  expect((await h.api('POST', '/api/tables/T2/rounds', { token: r.body.token })).body.code).toBe('FORBIDDEN');
  const supervisor = await signIn('ann', PASSWORD, 'supervisor');
  expect(supervisor.body.role).toBe('supervisor');
  expect((await signIn('ann', PASSWORD, 'admin')).body.code).toBe('ROLE_NOT_HELD');
});

it('answers a wrong password and an unknown user alike, records the failure, and logs no token failure', async () => {
  const wrong = await signIn('ann', 'not the password');
  const unknown = await signIn('nobody', 'not the password');
  expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
  expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([
    401,
    'INVALID_CREDENTIALS',
    wrong.body.message,
  ]);
  const failed = (await staffEvents()).filter((e) => e.type === 'StaffSignInFailed');
  expect(failed.map((e) => e.data)).toEqual([
    expect.objectContaining({ username: 'ann', reason: 'password', failures: 1 }),
  ]);
  expect((await signIn('ann')).status).toBe(200); // a success starts the count again
  const invalid = await h.api('POST', '/api/auth/sign-in', { token: null, body: { username: 'ann' } });
  expect([invalid.status, invalid.body.code]).toEqual([400, 'VALIDATION_FAILED']);
});

it('locks an account after repeated wrong passwords, until the lock ends by the clock', async () => {
  expect((await createAccount('bob', ['dealer'])).status).toBe(201);
  expect((await signIn('bob', 'wrong one')).body.code).toBe('INVALID_CREDENTIALS');
  expect((await signIn('bob', 'wrong two')).body.code).toBe('INVALID_CREDENTIALS');
  const locked = await signIn('bob', 'wrong three');
  expect([locked.status, locked.body.code, locked.body.details]).toEqual([
    423,
    'ACCOUNT_LOCKED',
    { until: '2030-01-01T08:15:00.000Z' },
  ]);
  clock.ms += 14 * 60_000;
  expect((await signIn('bob')).body.code).toBe('ACCOUNT_LOCKED'); // even the right password
  clock.ms += 60_000;
  expect((await signIn('bob')).status).toBe(200);
  const types = (await staffEvents())
    .filter((e) => (e.data as { username?: string }).username === 'bob')
    .map((e) => e.type);
  expect(types).toEqual([
    'StaffAccountCreated',
    'StaffSignInFailed',
    'StaffSignInFailed',
    'StaffSignInFailed',
    'StaffAccountLocked',
    'StaffSignedIn',
  ]);
});

it('signing out ends every token of the account issued before', async () => {
  const first = await tokenOf('ann');
  const second = await tokenOf('ann', 'supervisor');
  const out = await h.api('POST', '/api/auth/sign-out', { token: first });
  expect(out.status).toBe(204);
  for (const token of [first, second]) {
    const r = await h.api('GET', '/api/tables', { token });
    expect([r.status, r.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(r.body.message).toMatch(/sign in again/);
  }
  expect((await h.api('GET', '/api/tables', { token: await tokenOf('ann') })).status).toBe(200);
  // a token no sign-in issued has nothing to end
  expect((await h.api('POST', '/api/auth/sign-out', { token: h.token('dealer') })).body.code).toBe(
    'NOT_A_SIGN_IN',
  );
});

it('a disabled account cannot sign in and its tokens stop working; enabled, it signs in again', async () => {
  expect((await createAccount('cat', ['analyst'])).status).toBe(201);
  const token = await tokenOf('cat');
  const disabled = await h.api('POST', '/api/staff/cat/disable', {
    token: admin(),
    body: { reason: 'left the casino' },
  });
  expect([disabled.status, disabled.body.disabled]).toEqual([200, true]);
  expect((await h.api('GET', '/api/stats', { token })).status).toBe(401);
  const refused = await signIn('cat');
  expect([refused.status, refused.body.code]).toEqual([403, 'ACCOUNT_DISABLED']);
  expect((await signIn('cat', 'a wrong password')).body.code).toBe('INVALID_CREDENTIALS'); // says nothing more
  expect((await h.api('POST', '/api/staff/cat/enable', { token: admin() })).body.disabled).toBe(false);
  expect((await h.api('GET', '/api/stats', { token: await tokenOf('cat') })).status).toBe(200);
});

it('role and table changes take effect: earlier tokens end, the next sign-in carries the new ones', async () => {
  expect((await createAccount('dan', ['dealer'], ['T1'])).status).toBe(201);
  const dealer = await tokenOf('dan');
  const changed = await h.api('PUT', '/api/staff/dan/roles', {
    token: admin(),
    body: { roles: ['analyst'] },
  });
  expect([changed.status, changed.body.roles]).toEqual([200, ['analyst']]);
  expect((await h.api('GET', '/api/tables', { token: dealer })).status).toBe(401);
  const analyst = await tokenOf('dan');
  expect(claimsOf(analyst)).toMatchObject({ role: 'analyst', roles: ['analyst'] });
  expect((await h.api('POST', '/api/tables/T1/rounds', { token: analyst })).body.code).toBe('FORBIDDEN');
  expect((await h.api('GET', '/api/stats', { token: analyst })).status).toBe(200);
  expect((await signIn('dan', PASSWORD, 'dealer')).body.code).toBe('ROLE_NOT_HELD');

  await h.api('PUT', '/api/staff/dan/roles', { token: admin(), body: { roles: ['dealer'] } });
  const limited = await tokenOf('dan');
  expect(claimsOf(limited)['tables']).toEqual(['T1']);
  const tables = await h.api('PUT', '/api/staff/dan/tables', { token: admin(), body: { tables: [] } });
  expect([tables.status, tables.body.tables]).toEqual([200, null]);
  expect((await h.api('GET', '/api/tables', { token: limited })).status).toBe(401);
  expect(claimsOf(await tokenOf('dan'))['tables']).toBeUndefined();
});

it('a password reset lifts a lock and ends the earlier tokens', async () => {
  expect((await createAccount('eve', ['compliance'])).status).toBe(201);
  const before = await tokenOf('eve');
  for (const guess of ['guess one', 'guess two', 'guess three']) await signIn('eve', guess);
  expect((await signIn('eve')).body.code).toBe('ACCOUNT_LOCKED');
  const reset = await h.api('POST', '/api/staff/eve/password', {
    token: admin(),
    body: { password: 'a brand new password' },
  });
  expect([reset.status, reset.body.lockedUntil]).toEqual([200, null]);
  expect((await h.api('GET', '/api/tables', { token: before })).status).toBe(401);
  expect((await signIn('eve')).body.code).toBe('INVALID_CREDENTIALS');
  expect((await signIn('eve', 'a brand new password')).status).toBe(200);
});

it('the account routes are for admins, refuse with stable codes, and never show a password', async () => {
  const dealer = await tokenOf('ann');
  expect((await h.api('GET', '/api/staff', { token: dealer })).body.code).toBe('FORBIDDEN');
  expect((await h.api('POST', '/api/staff', { token: h.token('supervisor'), body: {} })).body.code).toBe(
    'FORBIDDEN',
  );
  const list = await h.api('GET', '/api/staff', { token: admin() });
  expect(list.status).toBe(200);
  expect(list.body.map((a: { username: string }) => a.username)).toEqual(['ann', 'bob', 'cat', 'dan', 'eve']);
  expect(JSON.stringify(list.body)).not.toMatch(/scrypt|passwordHash/i);
  const cases: [string, string, unknown, number, string][] = [
    ['POST', '/api/staff', { username: 'ann', password: PASSWORD, roles: ['dealer'] }, 409, 'ACCOUNT_EXISTS'],
    [
      'POST',
      '/api/staff',
      { username: 'Bad Name', password: PASSWORD, roles: ['dealer'] },
      400,
      'VALIDATION_FAILED',
    ],
    [
      'POST',
      '/api/staff',
      { username: 'fay', password: 'short', roles: ['dealer'] },
      400,
      'VALIDATION_FAILED',
    ],
    [
      'POST',
      '/api/staff',
      { username: 'fay', password: PASSWORD, roles: ['player'] },
      400,
      'VALIDATION_FAILED',
    ],
    ['POST', '/api/staff', { username: 'fay', password: PASSWORD, roles: [] }, 400, 'VALIDATION_FAILED'],
    ['PUT', '/api/staff/ghost/roles', { roles: ['dealer'] }, 404, 'UNKNOWN_ACCOUNT'],
    ['PUT', '/api/staff/NOT%20A%20NAME/roles', { roles: ['dealer'] }, 400, 'INVALID_PARAMETER'],
    ['POST', '/api/staff/ann/disable', { reason: 'x' }, 400, 'VALIDATION_FAILED'],
    ['GET', '/api/staff/ghost', undefined, 404, 'UNKNOWN_ACCOUNT'],
  ];
  for (const [method, path, body, status, code] of cases) {
    const r = await h.api(method, path, { token: admin(), ...(body ? { body } : {}) });
    expect([method, path, r.status, r.body.code]).toEqual([method, path, status, code]);
  }
  expect((await h.api('GET', '/api/staff/ann', { token: admin() })).body).toMatchObject({
    username: 'ann',
    roles: ['dealer', 'supervisor'],
    createdBy: 'boss',
    source: 'password',
  });
});

it('the last enabled admin cannot be disabled or lose the role; an admin signed in runs the routes', async () => {
  expect((await createAccount('root', ['admin'])).status).toBe(201);
  const root = await tokenOf('root');
  const self = await h.api('POST', '/api/staff/root/disable', {
    token: root,
    body: { reason: 'going home' },
  });
  expect([self.status, self.body.code]).toEqual([409, 'LAST_ADMIN']);
  expect(
    (await h.api('PUT', '/api/staff/root/roles', { token: root, body: { roles: ['analyst'] } })).body.code,
  ).toBe('LAST_ADMIN');
  const made = await h.api('POST', '/api/staff', {
    token: root,
    body: { username: 'gus', password: PASSWORD, roles: ['admin'] },
  });
  expect([made.status, made.body.createdBy]).toEqual([201, 'root']);
});

it('records every change in the staff stream with who made it; the table side never folds it', async () => {
  // a keyed command that changes nothing is recorded too (ADR-43)
  const again = await h.api('POST', '/api/staff/gus/enable', {
    token: admin(),
    headers: { 'idempotency-key': 'enable-gus' },
  });
  expect([again.status, again.body.disabled]).toEqual([200, false]);
  const events = await staffEvents();
  const created = events.find(
    (e) => e.type === 'StaffAccountCreated' && (e.data as { username: string }).username === 'gus',
  )!;
  expect(created.data).toMatchObject({ by: 'root', source: 'password' });
  expect(created.metadata).toMatchObject({ actor: 'root', correlationId: expect.any(String) });
  const kinds = new Set(events.map((e) => e.type));
  for (const kind of staff.STAFF_EVENT_TYPES) expect([kind, kinds.has(kind)]).toEqual([kind, true]);
  // no table from staff events, and the read side keeps up
  expect((await h.api('GET', '/api/tables', { token: admin() })).body).toEqual([]);
  expect((await h.api('GET', '/api/projections', { token: admin() })).status).toBe(200);
});

it('limits sign-in attempts per client address (429 with Retry-After), right or wrong', async () => {
  const limited = await startService(
    { COUP_SIGN_INS_PER_IP_PER_MINUTE: '2' },
    { scrypt: { log2N: 10, r: 8, p: 1 } },
  );
  try {
    const attempt = () =>
      limited.api('POST', '/api/auth/sign-in', {
        token: null,
        body: { username: 'zed', password: 'whatever it is' },
      });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    const third = await attempt();
    expect([third.status, third.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  } finally {
    await limited.close();
  }
});
