import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { hashPassword, staff as staffAccounts, StaffStore } from '@coup/auth';
import { createEventStore, eventStoreConfigFromEnv, PRIVATE_DIR_MODE } from '@coup/event-store';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { EXIT, UsageError, type CliIo } from '../io';

const OPTIONS = {
  role: { type: 'string' },
  tables: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Who the CLI records as having made a change. */
const CLI_ACTOR = 'cli';

function rolesOf(raw: string | undefined): staffAccounts.StaffRole[] {
  if (!raw)
    throw new UsageError(
      `--role is required: one or more of ${staffAccounts.STAFF_ROLES.join(', ')}`,
      'staff',
    );
  const roles = raw.split(',').map((r) => r.trim());
  const bad = roles.filter((r) => !staffAccounts.isStaffRole(r));
  if (bad.length > 0 || new Set(roles).size !== roles.length)
    throw new UsageError(
      `--role takes staff roles separated by commas, each once (${staffAccounts.STAFF_ROLES.join(', ')}), not '${raw}'`,
      'staff',
    );
  return roles as staffAccounts.StaffRole[];
}

function tablesOf(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const tables = raw.split(',').map((t) => t.trim());
  if (tables.some((t) => !staffAccounts.TABLE_ID_PATTERN.test(t)))
    throw new UsageError(`--tables takes table ids separated by commas, not '${raw}'`, 'staff');
  return tables;
}

/** `coup staff add <user> --role ...`: makes the account in the store and prints its password once. */
async function add(args: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('staff', args, OPTIONS, true);
  const [username, ...extra] = positionals;
  if (username === undefined || extra.length > 0)
    throw new UsageError('give one user name: coup staff add <user> --role admin', 'staff');
  if (!staffAccounts.USERNAME_PATTERN.test(username))
    throw new UsageError(
      `'${username}' is not a user name: 1 to 64 of a-z 0-9 . _ -, a letter first, not online-... nor a system actor (${staffAccounts.SYSTEM_ACTOR_NAMES.join(', ')})`,
      'staff',
    );
  const roles = rolesOf(options.role);
  const tables = tablesOf(options.tables);
  const dataDir = resolve(process.env['COUP_DATA_DIR'] || 'data');
  let config;
  try {
    config = eventStoreConfigFromEnv({ ...process.env, COUP_DATA_DIR: dataDir });
  } catch (error) {
    throw new UsageError((error as Error).message, 'staff');
  }
  // The data folder is the service's alone (0700), whoever makes it first.
  if (config.kind === 'sqlite') mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const store = createEventStore(config);
  try {
    const password = randomBytes(15).toString('base64url');
    const { decision } = await new StaffStore(store).execute(
      {
        type: 'CreateAccount',
        username,
        roles,
        tables,
        passwordHash: await hashPassword(password),
        by: CLI_ACTOR,
        at: new Date().toISOString(),
      },
      { actor: CLI_ACTOR },
    );
    if (decision.refusal) {
      io.stderr.write(`coup staff: ${decision.refusal.code}: ${decision.refusal.message}\n`);
      return EXIT.failure;
    }
    if (options.json) io.stdout.write(`${JSON.stringify({ username, roles, tables, password })}\n`);
    else
      io.stdout.write(
        `made staff account ${username} (${roles.join(', ')}${tables ? `; tables ${tables.join(', ')}` : ''})\n` +
          `its password, shown once: ${password}\n` +
          `sign in with it (POST /api/auth/sign-in), then set your own: POST /api/staff/${username}/password\n`,
      );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** `coup staff`: staff accounts kept in the event store. */
export const staff: Command = {
  name: 'staff',
  summary: 'make a staff account (the first admin, or any other) in the event store',
  usage: [
    'coup staff add <user> --role ROLE[,ROLE...] [--tables T1,T2] [--json]',
    '',
    `  <user>     the user name: 1 to 64 of a-z 0-9 . _ -, a letter first`,
    `  --role     one or more of ${staffAccounts.STAFF_ROLES.join(', ')}, comma-separated (the first is the default at sign-in)`,
    '  --tables   dealers and supervisors: the tables the account may run (default: every table)',
    '  --json     print { username, roles, tables, password } as JSON',
    '',
    '  Writes the account to the store the service uses (COUP_DATA_DIR, default ./data; or COUP_EVENT_STORE=eventstoredb',
    "  with EVENTSTORE_CONNECTION_STRING), recorded as made by 'cli'; the service may be running. A random password is",
    '  printed once. Exit 1 if the account exists.',
  ].join('\n'),
  async run(args, io) {
    const [action, ...rest] = args;
    if (action !== 'add')
      throw new UsageError(`unknown action '${action ?? ''}' (coup staff add <user> --role ROLE)`, 'staff');
    return add(rest, io);
  },
};
