#!/usr/bin/env node
// Runs the `coup` command line from source: `npm run -s coup -- <command> [options]` from the repository root
// (the root script is `node tools/coup.mjs`). Spawns apps/cli/src/main.ts through tsx the same way
// tools/run-ts.mjs does, passing the arguments through, SIGTERM on, and the exit code back.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The service's V8 flags: `projections run` and `rebuild` fold as its read side does (a larger young generation).
const { flags } = JSON.parse(readFileSync(join(root, 'tools', 'service-node-flags.json'), 'utf8'));
const child = spawn(
  process.execPath,
  [...flags, '--import', 'tsx', resolve(root, 'apps/cli/src/main.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, TSX_TSCONFIG_PATH: resolve(root, 'tsconfig.json') } },
);
// A long-running command (`projections run`) stops cleanly on SIGTERM sent to this process: pass it on. SIGINT from
// a terminal reaches the child with its process group already, so it is only not allowed to end this one first.
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => undefined);
child.on('error', (error) => {
  console.error(`coup: could not start the CLI: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
