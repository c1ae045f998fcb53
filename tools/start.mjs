#!/usr/bin/env node
// `npm start`: builds what is out of date (Nx caches the rest), then runs the table service on the embedded
// SQLite store in ./data, serving the dealer console at http://localhost:3000/ once it has been built. With no seed
// key configured, it makes a local one, ./seed-key.local, beside the data folder and never inside it: a copy of the
// data folder alone must not reveal the seeds of shoes still in play.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules', '.bin', 'nx'), 'run-many', '-t', 'build', '--outputStyle=static'],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env },
);
if (build.status !== 0) {
  console.error('coup: the build failed; run `npm run build` to see why');
  process.exit(build.status ?? 1);
}
const serviceEnv = { ...process.env };
if (!serviceEnv.COUP_SEED_KEY && !serviceEnv.COUP_SEED_KEY_FILE) {
  const keyFile = join(root, 'seed-key.local');
  if (!existsSync(keyFile)) {
    try {
      writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      console.error(
        `coup: made a local seed key, ${keyFile}: the data folder's unrevealed seeds open only with it (keep it, apart from the data folder)`,
      );
    } catch (error) {
      if (error.code !== 'EEXIST') throw error; // another start made it first
    }
  }
  chmodSync(keyFile, 0o600);
  serviceEnv.COUP_SEED_KEY_FILE = keyFile;
}
const { flags } = JSON.parse(readFileSync(join(root, 'tools', 'service-node-flags.json'), 'utf8'));
const service = spawn(
  process.execPath,
  ['--enable-source-maps', ...flags, join(root, 'apps', 'table-service', 'dist', 'main.js')],
  {
    cwd: root,
    stdio: 'inherit',
    env: serviceEnv,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => service.kill(signal));
service.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
