import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROLES, isRole, signToken } from '@coup/auth';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { EXIT, UsageError } from '../io';

const OPTIONS = {
  role: { type: 'string' },
  sub: { type: 'string' },
  tables: { type: 'string' },
  'expires-in': { type: 'integer', min: 60, max: 366 * 24 * 3600 },
} as const;

/** The secret the service uses: COUP_JWT_SECRET, or the local one `npm start` generated in the data folder. */
export function configuredSecret(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const configured = env['COUP_JWT_SECRET'];
  if (configured) return configured;
  const file = join(resolve(cwd, env['COUP_DATA_DIR'] || 'data'), 'jwt-secret.local');
  if (!existsSync(file)) {
    throw new UsageError(
      `no COUP_JWT_SECRET is set and there is no local secret at ${file} (start the service once, or set COUP_JWT_SECRET)`,
      'token',
    );
  }
  return readFileSync(file, 'utf8').trim();
}

/** `coup token`: prints a bearer token signed with the configured secret. */
export const token: Command = {
  name: 'token',
  summary: 'print a bearer token for a role, signed with the configured secret',
  usage: [
    'coup token --role ROLE --sub ID [--tables T1,T2] [--expires-in SECONDS]',
    '',
    `  --role         one of ${ROLES.join(', ')}`,
    '  --sub          who the token is for (a player id for players)',
    '  --tables       dealers and supervisors: the tables the token may run, comma-separated',
    '  --expires-in   lifetime in seconds (default: no expiry)',
    '',
    '  The secret is COUP_JWT_SECRET, or the local secret in COUP_DATA_DIR (default ./data) that `npm start` made.',
  ].join('\n'),
  run(args, io) {
    const { options } = parseArgs('token', args, OPTIONS, false);
    if (!options.role || !isRole(options.role))
      throw new UsageError(`--role must be one of ${ROLES.join(', ')}`, 'token');
    if (!options.sub || !/^[A-Za-z0-9_.:@-]{1,128}$/.test(options.sub))
      throw new UsageError('--sub must be 1 to 128 letters, digits or _.:@-', 'token');
    const tables =
      options.tables === undefined
        ? undefined
        : options.tables
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean);
    if (
      tables !== undefined &&
      (tables.length === 0 || tables.some((t) => !/^[A-Za-z0-9_-]{1,64}$/.test(t)))
    ) {
      throw new UsageError('--tables must be table ids separated by commas', 'token');
    }
    const signed = signToken(configuredSecret(), {
      sub: options.sub,
      role: options.role,
      ...(tables ? { tables } : {}),
      ...(options['expires-in'] !== undefined ? { expiresInSeconds: options['expires-in'] } : {}),
    });
    io.stdout.write(signed + '\n');
    return EXIT.ok;
  },
};
