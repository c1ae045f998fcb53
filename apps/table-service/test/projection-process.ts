/**
 * The projection process of the process-level tests: the BUILT `coup projections run` (apps/cli/dist/main.js; build
 * it with `npx nx run @coup/cli:build`, which `npm test` does first) as a process of its own, its JSON log lines
 * collected.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The built CLI; COUP_CLI_MAIN runs another build. */
export const CLI_MAIN = process.env['COUP_CLI_MAIN'] || join(__dirname, '..', '..', 'cli', 'dist', 'main.js');

export interface ProjectionProcess {
  readonly child: ChildProcess;
  /** What it wrote, stdout and stderr. */
  output(): string;
  /** Its JSON log lines so far. */
  logs(): Record<string, unknown>[];
  /** Sends the signal (SIGTERM by default) and answers its exit code (null when a signal ended it). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the first log line `match` accepts (rejects when the process exits first). */
  until(match: (line: Record<string, unknown>) => boolean, what: string): Promise<Record<string, unknown>>;
}

/** Starts `coup projections run ...args` with `env` over the test's environment. */
export function spawnProjections(
  env: Record<string, string>,
  args: readonly string[] = [],
): ProjectionProcess {
  if (!existsSync(CLI_MAIN))
    throw new Error(`no built CLI at ${CLI_MAIN}: run \`npx nx run @coup/cli:build\` first`);
  let output = '';
  const waiters: {
    match: (line: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }[] = [];
  const parsed: Record<string, unknown>[] = [];
  const child = spawn(process.execPath, [CLI_MAIN, 'projections', 'run', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let partial = '';
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
    partial += d.toString();
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const text of lines) {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      parsed.push(line);
      for (const w of waiters.filter((x) => x.match(line))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    logs: () => [...parsed],
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    until(match, what) {
      const seen = parsed.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void exited.then((code) =>
          reject(new Error(`the projection process exited (${code}) before ${what}:\n${output}`)),
        );
      });
    },
  };
}
