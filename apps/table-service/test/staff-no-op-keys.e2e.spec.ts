/**
 * A keyed staff command that changes nothing keeps its key on every store (ADR-43): a disable of a disabled account
 * made on one process, the account enabled on the other since, and the retry on either answers the first answer and
 * disables nothing; the same key with another body is refused. Two processes on one memory, SQLite or EventStoreDB
 * store (the built service on SQLite, with a restart: keyed-retry-processes.e2e).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staff } from '@coup/auth';
import type { EventStore } from '@coup/event-store';
import type { Harness } from './harness';
import { TWO_PROCESSES } from './two-processes';
import { twoStaffServices } from './two-staff-services';

jest.setTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), 'coup-staff-no-op-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const send = (h: Harness, path: string, body: unknown, key?: string) =>
  h
    .api('POST', `/api/staff${path}`, {
      token: h.token('admin', 'boss'),
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    })
    .then(({ status, body }) => ({ status, body: body as Record<string, unknown> }));

async function types(store: EventStore): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.readStream(staff.STAFF_STREAM)) out.push(e.type);
  return out;
}

describe.each(Object.keys(TWO_PROCESSES))('two processes on one %s store', (adapter) => {
  let a: Harness;
  let b: Harness;
  let store: EventStore;
  beforeAll(async () => {
    ({ a, b, store } = await twoStaffServices(adapter, mkdtempSync(join(dir, `${adapter}-`))));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a no-op disable retried after an enable on the other process answers the first answer, disables nothing', async () => {
    expect(
      (await send(a, '', { username: 'ann', password: 'correct horse battery', roles: ['dealer'] })).status,
    ).toBe(201);
    expect((await send(a, '/ann/disable', { reason: 'on leave' })).status).toBe(200);
    const first = await send(a, '/ann/disable', { reason: 'on leave' }, 'disable-ann');
    expect([first.status, first.body['disabled']]).toEqual([200, true]);
    expect((await send(b, '/ann/enable', undefined)).body['disabled']).toBe(false);
    for (const h of [b, a]) {
      expect(await send(h, '/ann/disable', { reason: 'on leave' }, 'disable-ann')).toEqual(first);
      const other = await send(h, '/ann/disable', { reason: 'another reason' }, 'disable-ann');
      expect([other.status, other.body['code']]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    }
    expect((await a.api('GET', '/api/staff/ann', { token: a.token('admin', 'boss') })).body.disabled).toBe(
      false,
    );
    expect(await types(store)).toEqual([
      'StaffAccountCreated',
      'StaffAccountDisabled',
      'StaffCommandUnchanged',
      'StaffAccountEnabled',
    ]);
  });
});
