/**
 * The admins' /api/staff commands honour Idempotency-Key as the table commands do, over real HTTP: a retry with the
 * same key, caller and body answers the first answer (status and body) and records nothing new; another body or
 * caller is refused 422 IDEMPOTENCY_KEY_REUSED; duplicates sent at once record once; and so after a restart and
 * from a second process on the same store (memory, SQLite, EventStoreDB).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staff } from '@coup/auth';
import type { EventStore } from '@coup/event-store';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { startService, type Harness } from './harness';
import { TWO_PROCESSES } from './two-processes';
import { CHEAP_SCRYPT, twoStaffServices } from './two-staff-services';

jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery';
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'coup-staff-keys-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Call = { status: number; body: Record<string, unknown> };

/** A keyed staff command as the admin `boss` (or `as`). */
const send = (
  h: Harness,
  method: string,
  path: string,
  body: unknown,
  key: string | null,
  as = 'boss',
): Promise<Call> =>
  h
    .api(method, `/api/staff${path}`, {
      token: h.token('admin', as),
      body,
      headers: key === null ? {} : { 'idempotency-key': key },
    })
    .then(({ status, body }) => ({ status, body }));

const newAccount = (username: string, roles = ['dealer'], password = PASSWORD) => ({
  username,
  password,
  roles,
});

/** The staff events of a type recorded for a user name. */
async function recorded(store: EventStore, type: string, username: string): Promise<number> {
  let n = 0;
  for await (const e of store.readStream(staff.STAFF_STREAM))
    if (e.type === type && (e.data as { username?: string }).username === username) n++;
  return n;
}

const storeOf = (h: Harness) => h.app.get(EventStoreHandle).store;

describe('one service', () => {
  const dir = tempDir();
  let h: Harness;
  const start = async () => {
    h = await startService({ COUP_PROJECTIONS: 'off' }, { scrypt: CHEAP_SCRYPT }, dir);
  };
  beforeAll(start);
  afterAll(() => h?.close());

  it('a retried create answers the first answer and records nothing new; another body or caller is refused', async () => {
    const first = await send(h, 'POST', '', newAccount('ann'), 'make-ann');
    expect(first.status).toBe(201);
    const retry = await send(h, 'POST', '', newAccount('ann'), 'make-ann');
    expect(retry).toEqual(first);
    expect(await recorded(storeOf(h), 'StaffAccountCreated', 'ann')).toBe(1);

    for (const other of [
      send(h, 'POST', '', newAccount('ann', ['supervisor']), 'make-ann'),
      send(h, 'POST', '', newAccount('ann', ['dealer'], 'another password'), 'make-ann'),
      send(h, 'POST', '', newAccount('ann'), 'make-ann', 'other-admin'),
      send(h, 'POST', '/ann/disable', { reason: 'on leave' }, 'make-ann'),
    ])
      expect([(await other).status, (await other).body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    // without a key (or with a new one) it is a new request
    expect((await send(h, 'POST', '', newAccount('ann'), null)).body.code).toBe('ACCOUNT_EXISTS');
    expect((await send(h, 'POST', '', newAccount('ann'), 'make-ann-2')).body.code).toBe('ACCOUNT_EXISTS');
    expect((await send(h, 'POST', '', newAccount('ann'), ' bad key')).body.code).toBe(
      'INVALID_IDEMPOTENCY_KEY',
    );
  });

  it('a retried password reset, disable or role change is applied once', async () => {
    expect((await send(h, 'POST', '', newAccount('bob'), 'make-bob')).status).toBe(201);
    const reset = await send(h, 'POST', '/bob/password', { password: 'new password 1' }, 'reset-bob');
    expect(reset.status).toBe(200);
    const signIn = await h.api('POST', '/api/auth/sign-in', {
      token: null,
      body: { username: 'bob', password: 'new password 1' },
    });
    expect(signIn.status).toBe(200);
    expect(await send(h, 'POST', '/bob/password', { password: 'new password 1' }, 'reset-bob')).toEqual(
      reset,
    );
    // a second reset would have ended the sign-in made after the first
    expect((await h.api('GET', '/api/tables', { token: signIn.body.token })).status).toBe(200);
    expect(await recorded(storeOf(h), 'StaffPasswordReset', 'bob')).toBe(1);

    const disabled = await send(h, 'POST', '/bob/disable', { reason: 'on leave' }, 'disable-bob');
    expect([disabled.status, disabled.body.disabled]).toEqual([200, true]);
    expect((await send(h, 'POST', '/bob/enable', undefined, 'enable-bob')).body.disabled).toBe(false);
    expect(await send(h, 'POST', '/bob/disable', { reason: 'on leave' }, 'disable-bob')).toEqual(disabled);
    expect((await h.api('GET', '/api/staff/bob', { token: h.token('admin', 'boss') })).body.disabled).toBe(
      false,
    );
    expect(await recorded(storeOf(h), 'StaffAccountDisabled', 'bob')).toBe(1);

    const roles = await send(h, 'PUT', '/bob/roles', { roles: ['supervisor'] }, 'roles-bob');
    expect((await send(h, 'PUT', '/bob/roles', { roles: ['dealer'] }, null)).status).toBe(200);
    expect(await send(h, 'PUT', '/bob/roles', { roles: ['supervisor'] }, 'roles-bob')).toEqual(roles);
    expect(await recorded(storeOf(h), 'StaffRolesChanged', 'bob')).toBe(2);
  });

  it('duplicates sent at once are recorded once and all get the first answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send(h, 'POST', '', newAccount('cat'), 'make-cat')),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(await recorded(storeOf(h), 'StaffAccountCreated', 'cat')).toBe(1);
  });

  it('after a restart a retry still answers the first answer', async () => {
    const first = await send(h, 'POST', '', newAccount('dan'), 'make-dan');
    expect(first.status).toBe(201);
    await h.close();
    await start();
    expect(await send(h, 'POST', '', newAccount('dan'), 'make-dan')).toEqual(first);
    expect((await send(h, 'POST', '', newAccount('dan', ['admin']), 'make-dan')).body.code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await recorded(storeOf(h), 'StaffAccountCreated', 'dan')).toBe(1);
  });
});

describe.each(Object.keys(TWO_PROCESSES))('two processes on one %s store', (adapter) => {
  let a: Harness;
  let b: Harness;
  let store: EventStore;
  beforeAll(async () => {
    ({ a, b, store } = await twoStaffServices(adapter, tempDir()));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a retry on the other process answers the first answer; duplicates at once on both record once', async () => {
    const first = await send(a, 'POST', '', newAccount('eve'), 'make-eve');
    expect(first.status).toBe(201);
    expect(await send(b, 'POST', '', newAccount('eve'), 'make-eve')).toEqual(first);
    expect((await send(b, 'POST', '', newAccount('eve', ['admin']), 'make-eve')).body.code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );

    const creates = await Promise.all(
      [a, b, a, b, a, b].map((h) => send(h, 'POST', '', newAccount('fay'), 'make-fay')),
    );
    for (const c of creates) expect(c).toEqual({ status: 201, body: creates[0]!.body });
    const resets = await Promise.all(
      [a, b, a, b].map((h) => send(h, 'POST', '/fay/password', { password: 'new password 2' }, 'reset-fay')),
    );
    for (const r of resets) expect(r).toEqual({ status: 200, body: resets[0]!.body });
    expect(await recorded(store, 'StaffAccountCreated', 'eve')).toBe(1);
    expect(await recorded(store, 'StaffAccountCreated', 'fay')).toBe(1);
    expect(await recorded(store, 'StaffPasswordReset', 'fay')).toBe(1);
  });
});
