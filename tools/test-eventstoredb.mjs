#!/usr/bin/env node
// `npm run test:eventstoredb [-- --server <connection string>]`: the EventStoreDB suites against a real server, started
// with Docker Compose (and always removed) unless --server names one. The steps: tools/eventstoredb/run-suites.ts.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { main } = await tsImport('./eventstoredb/run-suites.ts', import.meta.url);
process.exitCode = await main(root, process.argv.slice(2));
