#!/usr/bin/env node
// Runs a TypeScript entry point from source (tools, benchmarks, the CLI) with tsx, resolving the
// workspace's @coup/* paths from tsconfig.json. Usage: node tools/run-ts.mjs <file.ts> [args...]
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tools/run-ts.mjs <file.ts> [args...]');
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', resolve(process.cwd(), file), ...args], {
  stdio: 'inherit',
  env: { ...process.env, TSX_TSCONFIG_PATH: resolve(root, 'tsconfig.json') },
});
process.exit(result.status ?? 1);
