#!/usr/bin/env node
// `npm start`: builds what is out of date (Nx caches the rest), then runs the table service on the embedded
// SQLite store in ./data, serving the dealer console at http://localhost:3000/ once it has been built.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
const { flags } = JSON.parse(readFileSync(join(root, 'tools', 'service-node-flags.json'), 'utf8'));
const service = spawn(
  process.execPath,
  ['--enable-source-maps', ...flags, join(root, 'apps', 'table-service', 'dist', 'main.js')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => service.kill(signal));
service.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
