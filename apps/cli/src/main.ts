/**
 * The `coup` program: `node --import tsx apps/cli/src/main.ts <command> ...` (what `npm run -s coup -- ...` and
 * `tools/coup.mjs` run), or `node apps/cli/dist/main.js` once built. Commands live in `src/commands/` and are
 * listed in `src/commands/index.ts`.
 */
import { runCli } from './cli';

// A reader that stops early (`coup odds | head -1`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});

void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: process.stderr.isTTY === true,
}).then((code) => {
  process.exitCode = code;
});
