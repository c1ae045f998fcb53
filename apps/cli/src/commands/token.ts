import { TABLE_ID_PATTERN } from '@coup/table';
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
  ttl: { type: 'string', default: '12h' },
} as const;

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 24 * 3600 } as const;
const MIN_TTL = 60;
const MAX_TTL = 366 * 24 * 3600;

/** A token lifetime: a whole number and a unit (`90s`, `30m`, `12h`, `7d`), one minute to 366 days, in seconds. */
export function ttlSeconds(raw: string): number {
  const match = /^([1-9]\d{0,8})([smhd])$/.exec(raw);
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : NaN;
  if (!(seconds >= MIN_TTL && seconds <= MAX_TTL)) {
    throw new UsageError(
      `--ttl must be a whole number of s, m, h or d (e.g. 30m, 12h, 7d) from 60s to 366d, got '${raw}'`,
      'token',
    );
  }
  return seconds;
}

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
    'coup token --role ROLE --sub ID [--tables T1,T2] [--ttl 12h]',
    '',
    `  --role         one of ${ROLES.join(', ')}`,
    '  --sub          who the token is for (a player id for players)',
    '  --tables       dealers and supervisors: the tables the token may run, comma-separated',
    '  --ttl          how long the token is valid: 90s, 30m, 12h, 7d (default 12h, at most 366d)',
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
    if (tables !== undefined && (tables.length === 0 || tables.some((t) => !TABLE_ID_PATTERN.test(t)))) {
      throw new UsageError('--tables must be table ids separated by commas', 'token');
    }
    const expiresInSeconds = ttlSeconds(options.ttl);
    const signed = signToken(configuredSecret(), {
      sub: options.sub,
      role: options.role,
      ...(tables ? { tables } : {}),
      expiresInSeconds,
    });
    io.stdout.write(signed + '\n');
    return EXIT.ok;
  },
};
