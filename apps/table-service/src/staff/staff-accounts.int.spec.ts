/**
 * What a refused sign-in logs: the account's user name when the account exists, and never what was typed as the
 * user name otherwise (it may be a password typed into the wrong field): a keyed hash of it instead, the same for
 * the same text, so repeated tries of one name can still be told apart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { createEventStore } from '@coup/event-store';
import { JsonLogger } from '../common/logger';
import { loadConfig } from '../config/config';
import { Clock } from '../tables/edge-inputs';
import { StaffAccounts } from './staff-accounts';

const lines: string[] = [];
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(() => Logger.overrideLogger(new JsonLogger('debug', (line) => lines.push(line))));
afterAll(() => Logger.overrideLogger(['error', 'warn']));

async function accounts(): Promise<StaffAccounts> {
  const config = loadConfig({
    COUP_SEED_KEY: '5e'.repeat(32),
    COUP_JWT_SECRET: 'j'.repeat(40),
    COUP_EVENT_STORE: 'memory',
    COUP_DATA_DIR: mkdtempSync(join(tmpdir(), 'coup-staff-log-')),
  });
  const staff = new StaffAccounts(createEventStore({ kind: 'memory' }), config, new Clock(), {
    log2N: 10,
    r: 8,
    p: 1,
  });
  await staff.change(
    {
      type: 'CreateAccount',
      username: 'ann',
      roles: ['dealer'],
      tables: null,
      passwordHash: await staff.hash('correct horse battery'),
    },
    'cli',
    {},
  );
  return staff;
}

const refused = (staff: StaffAccounts, username: string, password: string) =>
  staff.signIn(username, password, null, { ip: '10.0.0.9', correlationId: 'c-1' }).then(
    () => 'signed in',
    (error: { code?: string }) => error.code,
  );

it('logs no user name that names no account, only a keyed hash of it', async () => {
  const staff = await accounts();
  for (const typed of ['Tr0ub4dor&3 horse', 'hunter2hunter2']) {
    lines.length = 0;
    expect(await refused(staff, typed, 'whatever it is')).toBe('INVALID_CREDENTIALS');
    expect(lines.join('\n')).not.toContain(typed);
    expect(lines.join('\n').toLowerCase()).not.toContain(typed.toLowerCase());
    const line = logged().find((l) => l['msg'] === 'staff sign-in refused')!;
    expect(line).toMatchObject({ account: null, usernameHash: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(line).not.toHaveProperty('username');
  }
  lines.length = 0;
  await refused(staff, 'hunter2hunter2', 'again');
  const again = logged().find((l) => l['msg'] === 'staff sign-in refused')!;
  await refused(staff, 'Hunter2Hunter2', 'again');
  const cased = logged().filter((l) => l['msg'] === 'staff sign-in refused')[1]!;
  expect(cased['usernameHash']).toBe(again['usernameHash']); // names compare in lower case
});

it('names the account when it exists: a wrong password, a lock', async () => {
  const staff = await accounts();
  lines.length = 0;
  expect(await refused(staff, 'Ann', 'not the password')).toBe('INVALID_CREDENTIALS');
  expect(logged().find((l) => l['msg'] === 'staff sign-in refused')).toMatchObject({
    account: 'ann',
    code: 'INVALID_CREDENTIALS',
    recorded: ['StaffSignInFailed'],
  });
  for (let i = 0; i < 4; i++) await refused(staff, 'ann', 'not the password');
  expect(
    logged().find((l) => l['msg'] === 'staff account locked after repeated wrong passwords'),
  ).toMatchObject({
    account: 'ann',
    code: 'ACCOUNT_LOCKED',
  });
  expect(lines.join('\n')).not.toContain('not the password');
});
