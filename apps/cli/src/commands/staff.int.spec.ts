/** `coup staff add`: the account in the store the service reads, made by the CLI, its password printed once. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staff as accounts, StaffStore, verifyPassword } from '@coup/auth';
import { createEventStore } from '@coup/event-store';
import { UsageError } from '../io';
import { fakeIo } from '../testing';
import { staff } from './staff';

jest.setTimeout(30_000);
let dir: string;
const saved = process.env['COUP_DATA_DIR'];

beforeAll(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'coup-cli-staff-')), 'data');
  process.env['COUP_DATA_DIR'] = dir;
});
afterAll(() => {
  if (saved === undefined) delete process.env['COUP_DATA_DIR'];
  else process.env['COUP_DATA_DIR'] = saved;
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

it('makes the first admin in a new data folder (0700), recorded as made by the CLI, with a password shown once', async () => {
  const io = fakeIo();
  expect(await staff.run(['add', 'boss', '--role', 'admin', '--json'], io)).toBe(0);
  const printed = JSON.parse(io.out()) as { username: string; roles: string[]; password: string };
  expect(printed).toMatchObject({ username: 'boss', roles: ['admin'], tables: null });
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  try {
    const account = (await new StaffStore(store).catchUp()).get('boss')!;
    expect(account).toMatchObject({ roles: ['admin'], createdBy: 'cli', source: 'password' });
    expect(await verifyPassword(printed.password, account.passwordHash!)).toBe(true);
    for await (const e of store.readStream(accounts.STAFF_STREAM)) expect(e.metadata['actor']).toBe('cli');
  } finally {
    await store.close();
  }
});

it('makes a dealer limited to tables; refuses an existing name (exit 1) and bad arguments (usage)', async () => {
  const io = fakeIo();
  expect(await staff.run(['add', 'ann', '--role', 'dealer,supervisor', '--tables', 'T1,T2'], io)).toBe(0);
  expect(io.out()).toMatch(
    /^made staff account ann \(dealer, supervisor; tables T1, T2\)\nits password, shown once: \S{20}\n/,
  );
  const again = fakeIo();
  expect(await staff.run(['add', 'ann', '--role', 'dealer'], again)).toBe(1);
  expect(again.err()).toMatch(/ACCOUNT_EXISTS/);
  for (const args of [
    ['add', 'ann'],
    ['add', 'Ann', '--role', 'dealer'],
    ['add', 'zed', '--role', 'player'],
    ['add', 'zed', '--role', 'dealer,dealer'],
    ['add', 'zed', '--role', 'dealer', '--tables', 'T 1'],
    ['remove', 'ann'],
  ])
    await expect(staff.run(args, fakeIo())).rejects.toThrow(UsageError);
});
