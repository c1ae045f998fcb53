#!/usr/bin/env node
// Runs the `coup` command line from source: `npm run -s coup -- <command> [options]` from the repository root
// (the root script is `node tools/coup.mjs`). Spawns apps/cli/src/main.ts through tsx the same way
// tools/run-ts.mjs does, passing the arguments through and the exit code back.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', resolve(root, 'apps/cli/src/main.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, TSX_TSCONFIG_PATH: resolve(root, 'tsconfig.json') } },
);
if (result.error) {
  console.error(`coup: could not start the CLI: ${result.error.message}`);
  process.exit(1);
}
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
