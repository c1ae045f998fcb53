/**
 * `npm run test:eventstoredb`: the EventStoreDB suites against a real server.
 *
 * With Docker: checks that Docker, its Compose plugin and a daemon are there (each within a deadline, so nothing
 * hangs), builds what the specs run (the service, the CLI), starts the single node of docker-compose.yml in a compose project of its own (its own
 * container and volume, on a free host port, so a local `docker compose up` is left alone), waits for its health
 * check, runs the suites with EVENTSTORE_CONNECTION_STRING pointing at it, and removes the project, volume included,
 * whatever happened. With `--server <connection string>` it runs the suites against that server instead (hosted CI's
 * service containers). Every process goes through an `Exec`, so the tests drive all of it without Docker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface ExecOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Kill the process (SIGTERM) after this long. */
  timeoutMs?: number;
  /** Share this terminal (the suites' and the build's output) instead of capturing the output. */
  inherit?: boolean;
  /** Stopped when the run is interrupted (SIGINT, SIGTERM); the clean-up never is. */
  interruptible?: boolean;
}

export interface ExecResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The process could not be started (`ENOENT`: no such command) or was killed at its deadline (`ETIMEDOUT`). */
  error?: { code?: string; message: string };
}

export type Exec = (command: string, args: string[], options?: ExecOptions) => Promise<ExecResult>;

export interface RunOptions {
  root: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  exec: Exec;
  log: (line: string) => void;
  listDir?: (dir: string) => string[];
  /** Reads a source file (the specs' imports name what must be built first). */
  readFile?: (file: string) => string;
  interrupted?: () => boolean;
}

export interface Suite {
  name: string;
  /** The jest project's folder. */
  cwd: string;
  /** Spec files, relative to `cwd`. */
  files: string[];
  /** The Nx projects whose build the files run (see BUILT_BY). */
  builds: string[];
}

/**
 * The test modules that run a build's output rather than sources, and the Nx project that builds it: a spec that
 * imports one (directly or through other modules of the repository) needs that project built first. A test module
 * that names a `dist` folder must be listed here (eventstoredb-runner.unit.spec.ts checks it).
 */
export const BUILT_BY: Readonly<Record<string, string>> = {
  'apps/table-service/test/process.ts': '@coup/table-service', // spawnService: apps/table-service/dist/main.js
  'apps/table-service/test/projection-process.ts': '@coup/cli', // spawnProjections: apps/cli/dist/main.js
};

const STATIC_IMPORT = /^[ \t]*(?:import|export)\s+(type\s+)?(?:[^;'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const CALL_IMPORT = /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The repository files a module's relative runtime imports name (type-only imports load nothing). */
function relativeImports(file: string, text: string): string[] {
  const named = [
    ...[...text.matchAll(STATIC_IMPORT)].filter((m) => !m[1]).map((m) => m[2] ?? ''),
    ...[...text.matchAll(CALL_IMPORT)].map((m) => m[1] ?? ''),
  ].filter((spec) => spec.startsWith('.'));
  return named.flatMap((spec) => {
    const base = resolve(dirname(file), spec);
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
      (candidate) => /\.(ts|tsx)$/.test(candidate) && existsSync(candidate),
    );
    return found ? [found] : [];
  });
}

/** The Nx projects `spec` runs the build of: BUILT_BY's entries among the modules it imports, however deep. */
export function buildsOf(
  root: string,
  spec: string,
  readFile: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): string[] {
  const seen = new Set<string>();
  const builds = new Set<string>();
  const queue = [resolve(spec)];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const project = BUILT_BY[relative(root, file).split('\\').join('/')];
    if (project) builds.add(project);
    queue.push(...relativeImports(file, readFile(file)));
  }
  return [...builds].sort();
}

/** The compose project the run owns: separate from `docker compose up`'s (`coup`), removed at the end. */
export const COMPOSE_PROJECT = 'coup-eventstoredb-test';
export const EXIT_FAILED = 1;
/** Docker, its Compose plugin or a daemon is missing, or the arguments are wrong: nothing was run. */
export const EXIT_SETUP = 2;
export const EXIT_INTERRUPTED = 130;

const CHECK_TIMEOUT_MS = 30_000;
const WAIT_HEALTHY_S = 180;
const UP_TIMEOUT_MS = 20 * 60_000; // pulling the image on a slow link, then the health wait
const DOWN_TIMEOUT_MS = 2 * 60_000;
// docker-compose.yml requires these for the table service, which this run never starts; compose still reads them.
const UNUSED_SERVICE_SECRETS = {
  COUP_JWT_SECRET: 'unused-the-table-service-is-not-started-here',
  COUP_SEED_KEY: '0'.repeat(64),
};
const USAGE = 'usage: npm run test:eventstoredb [-- --server <EventStoreDB connection string>]';

/** A suite of `files` in `cwd`, with what they need built. */
function suite(
  root: string,
  name: string,
  cwd: string,
  files: string[],
  readFile?: (file: string) => string,
): Suite {
  const builds = new Set(files.flatMap((file) => buildsOf(root, join(cwd, file), readFile)));
  return { name, cwd, files, builds: [...builds].sort() };
}

/** The EventStoreDB contract suite, then the service's e2e specs named `*esdb*` (if any). */
export function eventStoreDbSuites(
  root: string,
  listDir: (dir: string) => string[] = readdirSync,
  readFile?: (file: string) => string,
): Suite[] {
  const suites: Suite[] = [
    suite(
      root,
      'the event-store contract suite on the EventStoreDB adapter',
      join(root, 'libs', 'event-store'),
      ['src/eventstoredb.int.spec.ts'],
      readFile,
    ),
  ];
  const e2e = listDir(join(root, 'apps', 'table-service', 'test'))
    .filter((name) => /esdb/i.test(name) && name.endsWith('.spec.ts'))
    .sort()
    .map((name) => `test/${name}`);
  if (e2e.length > 0)
    suites.push(
      suite(root, 'the table service on EventStoreDB', join(root, 'apps', 'table-service'), e2e, readFile),
    );
  return suites;
}

/** The Nx projects to build before `suites` run: every build one of their specs runs. */
export function buildsFor(suites: readonly Suite[]): string[] {
  return [...new Set(suites.flatMap((s) => s.builds))].sort();
}

/** The host port in `docker compose port` output (`0.0.0.0:49153`, `[::]:49153`), or undefined. */
export function parsePublishedPort(output: string): number | undefined {
  const match = /:(\d+)\s*$/m.exec(output.trim().split('\n')[0] ?? '');
  const port = match ? Number(match[1]) : NaN;
  return port > 0 && port < 65536 ? port : undefined;
}

function firstLine(result: ExecResult): string {
  if (result.error?.code === 'ETIMEDOUT') return 'no answer in time';
  const text = (
    result.stderr ||
    result.stdout ||
    result.error?.message ||
    `exit code ${result.status}`
  ).trim();
  return text.split('\n')[0] ?? text;
}

const ok = (result: ExecResult) => !result.error && result.status === 0;

/** Why Docker cannot run the server here, or undefined when it can. */
export async function dockerProblem(exec: Exec, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const options = { env, timeoutMs: CHECK_TIMEOUT_MS };
  const cli = await exec('docker', ['--version'], options);
  if (cli.error?.code === 'ENOENT')
    return (
      'Docker is not installed (no `docker` command on the PATH). Install Docker Engine with the Compose plugin ' +
      '(or Docker Desktop), or run the suites against a server you have: ' +
      "npm run test:eventstoredb -- --server 'esdb://localhost:2113?tls=false'"
    );
  if (!ok(cli)) return `\`docker --version\` failed: ${firstLine(cli)}`;
  const compose = await exec('docker', ['compose', 'version'], options);
  if (!ok(compose))
    return `the Docker Compose plugin is missing (\`docker compose version\`: ${firstLine(compose)}); install it (docker-compose-plugin)`;
  const daemon = await exec('docker', ['info', '--format', '{{.ServerVersion}}'], options);
  if (!ok(daemon))
    return `the Docker daemon cannot be reached (\`docker info\`: ${firstLine(daemon)}); start it, or set DOCKER_HOST`;
  return undefined;
}

function parseArgs(argv: string[]): { server?: string; error?: string } {
  if (argv.length === 0) return {};
  if (argv[0] === '--server' && argv.length === 2 && argv[1]) return { server: argv[1] };
  return { error: USAGE };
}

/** A package's command-line script as the repository installs it (nx keeps its own under dist/). */
export function binOf(root: string, script: string): string {
  return createRequire(join(root, 'package.json')).resolve(script);
}

async function build(options: RunOptions, suites: Suite[]): Promise<boolean> {
  // Specs that run a build's output (the service, the CLI) need it built; the rest run from the sources.
  const projects = buildsFor(suites);
  if (projects.length === 0) return true;
  const nx = binOf(options.root, 'nx/bin/nx');
  const result = await options.exec(
    process.execPath,
    [nx, 'run-many', '-t', 'build', `--projects=${projects.join(',')}`, '--outputStyle=static'],
    {
      cwd: options.root,
      env: { ...options.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
      inherit: true,
      interruptible: true,
    },
  );
  if (!ok(result)) options.log(`test:eventstoredb: the build failed (${firstLine(result)})`);
  return ok(result);
}

async function runSuites(options: RunOptions, suites: Suite[], connectionString: string): Promise<number> {
  const jest = binOf(options.root, 'jest/bin/jest');
  const failed: string[] = [];
  for (const suite of suites) {
    if (options.interrupted?.()) return EXIT_INTERRUPTED;
    options.log(`test:eventstoredb: ${suite.name} against ${connectionString}`);
    const result = await options.exec(
      process.execPath,
      [jest, '--ci', '--runInBand', '--runTestsByPath', ...suite.files],
      {
        cwd: suite.cwd,
        env: { ...options.env, EVENTSTORE_CONNECTION_STRING: connectionString },
        inherit: true,
        interruptible: true,
      },
    );
    if (!ok(result)) failed.push(suite.name);
  }
  if (options.interrupted?.()) return EXIT_INTERRUPTED;
  for (const name of failed) options.log(`test:eventstoredb: FAILED: ${name}`);
  if (failed.length === 0) options.log(`test:eventstoredb: ${suites.length} suite(s) passed`);
  return failed.length === 0 ? 0 : EXIT_FAILED;
}

/** Starts the single node (waiting for its health check) and runs the suites against it. */
async function startAndRun(options: RunOptions, suites: Suite[], compose: string[], env: NodeJS.ProcessEnv) {
  const { exec, log } = options;
  log(
    `test:eventstoredb: starting EventStoreDB (compose project ${COMPOSE_PROJECT}) and waiting for its health check`,
  );
  const upArgs = [...compose, 'up', '-d', '--wait', '--wait-timeout', String(WAIT_HEALTHY_S), 'eventstore'];
  const up = await exec('docker', upArgs, {
    env,
    inherit: true,
    timeoutMs: UP_TIMEOUT_MS,
    interruptible: true,
  });
  if (!ok(up)) {
    if (options.interrupted?.()) return EXIT_INTERRUPTED;
    log(`test:eventstoredb: EventStoreDB did not start healthy (${firstLine(up)}); its log:`);
    const logsArgs = [...compose, 'logs', '--no-color', '--tail', '100', 'eventstore'];
    await exec('docker', logsArgs, { env, inherit: true, timeoutMs: CHECK_TIMEOUT_MS });
    return EXIT_FAILED;
  }
  const published = await exec('docker', [...compose, 'port', 'eventstore', '2113'], {
    env,
    timeoutMs: CHECK_TIMEOUT_MS,
  });
  const port = ok(published) ? parsePublishedPort(published.stdout) : undefined;
  if (port === undefined) {
    log(`test:eventstoredb: cannot tell EventStoreDB's host port (${firstLine(published)})`);
    return EXIT_FAILED;
  }
  return runSuites(options, suites, `esdb://127.0.0.1:${port}?tls=false`);
}

/** Starts, runs, and removes the compose project (its volume too) whatever happened, failing if it cannot. */
async function runWithDocker(options: RunOptions, suites: Suite[]): Promise<number> {
  const compose = ['compose', '-p', COMPOSE_PROJECT, '-f', join(options.root, 'docker-compose.yml')];
  const env = {
    ...UNUSED_SERVICE_SECRETS,
    ...options.env,
    EVENTSTORE_HOST_PORT: options.env['EVENTSTORE_HOST_PORT'] || '0', // 0: any free port
  };
  let code = EXIT_FAILED;
  let removed = false;
  try {
    code = await startAndRun(options, suites, compose, env);
  } finally {
    const down = await options.exec('docker', [...compose, 'down', '--volumes', '--remove-orphans'], {
      env,
      timeoutMs: DOWN_TIMEOUT_MS,
    });
    removed = ok(down);
    if (!removed) {
      options.log(
        `test:eventstoredb: could not remove compose project ${COMPOSE_PROJECT} (${firstLine(down)})`,
      );
      options.log(`  remove it with: docker compose -p ${COMPOSE_PROJECT} down --volumes`);
    }
  }
  return removed || code !== 0 ? code : EXIT_FAILED;
}

/** The whole run; resolves to the process's exit code. */
export async function runEventStoreDbSuites(options: RunOptions): Promise<number> {
  const args = parseArgs(options.argv);
  if (args.error) {
    options.log(args.error);
    return EXIT_SETUP;
  }
  const suites = eventStoreDbSuites(options.root, options.listDir, options.readFile);
  if (!args.server) {
    const problem = await dockerProblem(options.exec, options.env);
    if (problem) {
      options.log(`test:eventstoredb: cannot start EventStoreDB: ${problem}`);
      return EXIT_SETUP;
    }
  }
  if (!(await build(options, suites))) return options.interrupted?.() ? EXIT_INTERRUPTED : EXIT_FAILED;
  if (args.server) return runSuites(options, suites, args.server);
  return runWithDocker(options, suites);
}

/** Runs processes for real: a signal to this process stops the interruptible ones and marks the run interrupted. */
export function processExec(): { exec: Exec; interrupted: () => boolean; dispose: () => void } {
  const running = new Set<ChildProcess>();
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    for (const child of running) child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  for (const signal of signals) process.on(signal, onSignal);
  const exec: Exec = (command, args, options = {}) =>
    new Promise((resolve) => {
      let stdout = '';
      let stderr = '';
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: options.env,
        stdio: options.inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      });
      if (options.interruptible) running.add(child);
      child.stdout?.on('data', (data: Buffer) => (stdout += data.toString()));
      child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
      let timedOut = false;
      const timer = options.timeoutMs
        ? setTimeout(() => {
            timedOut = true;
            child.kill('SIGTERM');
          }, options.timeoutMs)
        : undefined;
      const settle = (result: ExecResult) => {
        clearTimeout(timer);
        running.delete(child);
        resolve(result);
      };
      child.once('error', (error: NodeJS.ErrnoException) =>
        settle({ status: null, stdout, stderr, error: { code: error.code, message: error.message } }),
      );
      child.once('close', (status) =>
        settle(
          timedOut
            ? {
                status,
                stdout,
                stderr,
                error: { code: 'ETIMEDOUT', message: `timed out after ${options.timeoutMs} ms` },
              }
            : { status, stdout, stderr },
        ),
      );
    });
  const dispose = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  return { exec, interrupted: () => interrupted, dispose };
}

/** The command line's entry point (tools/test-eventstoredb.mjs). */
export async function main(root: string, argv: string[]): Promise<number> {
  const { exec, interrupted, dispose } = processExec();
  try {
    return await runEventStoreDbSuites({
      root,
      argv,
      env: process.env,
      exec,
      interrupted,
      log: (line) => console.error(line),
    });
  } finally {
    dispose();
  }
}
