#!/usr/bin/env node
// Runs a TypeScript entry point from source (tools, benchmarks, the CLI) with tsx, resolving the
// workspace's @coup/* paths from tsconfig.json. Usage: node tools/run-ts.mjs [--service-flags] <file.ts> [args...]
// `--service-flags`: with the V8 flags the service and the CLI run with (tools/service-node-flags.json), for a
// benchmark that measures in its own process what they do (bench:projections' rebuilds).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const serviceFlags = argv[0] === '--service-flags';
const [file, ...args] = serviceFlags ? argv.slice(1) : argv;
const flags = serviceFlags
  ? JSON.parse(readFileSync(join(root, 'tools', 'service-node-flags.json'), 'utf8')).flags
  : [];
if (!file) {
  console.error('usage: node tools/run-ts.mjs <file.ts> [args...]');
  process.exit(2);
}
const result = spawnSync(
  process.execPath,
  [...flags, '--import', 'tsx', resolve(process.cwd(), file), ...args],
  {
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: resolve(root, 'tsconfig.json') },
  },
);
process.exit(result.status ?? 1);
