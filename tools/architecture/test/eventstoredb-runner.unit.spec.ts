// `npm run test:eventstoredb` (tools/eventstoredb/run-suites.ts) without Docker: a fake `Exec` answers for docker and
// the suites, so each step, its order and the clean-up are checked; one test runs the real script with no docker.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- tools/ scripts belong to no project; their tests live here
import {
  BUILT_BY,
  buildsFor,
  buildsOf,
  COMPOSE_PROJECT,
  EXIT_FAILED,
  EXIT_INTERRUPTED,
  EXIT_SETUP,
  eventStoreDbSuites,
  parsePublishedPort,
  processExec,
  runEventStoreDbSuites,
  type Exec,
  type ExecOptions,
  type ExecResult,
} from '../../eventstoredb/run-suites';

const ROOT = join(__dirname, '..', '..', '..');

interface Call {
  command: string;
  args: string[];
  options: ExecOptions;
}

const passed: ExecResult = { status: 0, stdout: '', stderr: '' };
const failed: ExecResult = { status: 1, stdout: '', stderr: 'it went wrong' };

/** What a call is, in a word: `docker:up`, `docker:down`, `jest`, `nx`... */
function kind(call: Call): string {
  if (call.command === 'docker') {
    const verbs = ['--version', 'version', 'info', 'up', 'port', 'logs', 'down'];
    return `docker:${call.args.find((arg) => verbs.includes(arg))}`;
  }
  return /jest\.js$/.test(call.args[0] ?? '')
    ? 'jest'
    : /nx\.js$/.test(call.args[0] ?? '')
      ? 'nx'
      : call.command;
}

/** An Exec that records its calls and answers `answers[kind]` (passed otherwise, `docker port`: 49153). */
function fakeExec(answers: Record<string, ExecResult | ((call: Call) => ExecResult)> = {}) {
  const calls: Call[] = [];
  const exec: Exec = async (command, args, options = {}) => {
    const call = { command, args, options };
    calls.push(call);
    const answer = answers[kind(call)];
    if (typeof answer === 'function') return answer(call);
    if (answer) return answer;
    return kind(call) === 'docker:port' ? { ...passed, stdout: '0.0.0.0:49153\n' } : passed;
  };
  return { exec, calls, kinds: () => calls.map(kind) };
}

const esdbSpecs = ['esdb-service.e2e.spec.ts', 'esdb-standin.ts', 'live-push.e2e.spec.ts'];

async function run(exec: Exec, overrides: Partial<Parameters<typeof runEventStoreDbSuites>[0]> = {}) {
  const lines: string[] = [];
  const code = await runEventStoreDbSuites({
    root: ROOT,
    argv: [],
    env: { PATH: '/usr/bin' },
    exec,
    log: (line) => lines.push(line),
    listDir: () => esdbSpecs,
    ...overrides,
  });
  return { code, output: lines.join('\n') };
}

describe('npm run test:eventstoredb', () => {
  it('says Docker is not installed and runs nothing when there is no docker command', async () => {
    const fake = fakeExec({
      'docker:--version': {
        status: null,
        stdout: '',
        stderr: '',
        error: { code: 'ENOENT', message: 'spawn docker ENOENT' },
      },
    });
    const { code, output } = await run(fake.exec);
    expect(code).toBe(EXIT_SETUP);
    expect(output).toMatch(/Docker is not installed/);
    expect(output).toMatch(/--server/);
    expect(fake.kinds()).toEqual(['docker:--version']);
  });

  it('names the missing Compose plugin, and an unreachable daemon', async () => {
    const noCompose = fakeExec({
      'docker:version': { ...failed, stderr: 'docker: unknown command: docker compose' },
    });
    const first = await run(noCompose.exec);
    expect(first.code).toBe(EXIT_SETUP);
    expect(first.output).toMatch(/Compose plugin is missing.*unknown command/);
    expect(noCompose.kinds()).toEqual(['docker:--version', 'docker:version']);

    const noDaemon = fakeExec({
      'docker:info': { ...failed, stderr: 'Cannot connect to the Docker daemon' },
    });
    const second = await run(noDaemon.exec);
    expect(second.code).toBe(EXIT_SETUP);
    expect(second.output).toMatch(/daemon cannot be reached.*Cannot connect/);
    expect(noDaemon.kinds()).not.toContain('docker:up');
  });

  it('gives every docker call a deadline, so none can hang', async () => {
    const fake = fakeExec();
    await run(fake.exec);
    for (const call of fake.calls.filter((c) => c.command === 'docker'))
      expect(call.options.timeoutMs).toBeGreaterThan(0);
    const timedOut = fakeExec({
      'docker:info': {
        status: null,
        stdout: '',
        stderr: '',
        error: { code: 'ETIMEDOUT', message: 'timed out' },
      },
    });
    expect((await run(timedOut.exec)).output).toMatch(/daemon cannot be reached.*no answer in time/);
  });

  it('builds, starts the node and waits for its health check, runs the suites against it, then removes it', async () => {
    const fake = fakeExec();
    const { code } = await run(fake.exec);
    expect(code).toBe(0);
    expect(fake.kinds()).toEqual([
      'docker:--version',
      'docker:version',
      'docker:info',
      'nx',
      'docker:up',
      'docker:port',
      'jest',
      'jest',
      'docker:down',
    ]);
    // The scripts it runs are where the installed packages keep them.
    for (const call of fake.calls.filter((c) => kind(c) === 'nx' || kind(c) === 'jest'))
      expect([call.args[0], existsSync(call.args[0]!)]).toEqual([call.args[0], true]);
    const [up, port, contract, e2e, down] = fake.calls.slice(4);
    const project = ['compose', '-p', COMPOSE_PROJECT, '-f', join(ROOT, 'docker-compose.yml')];
    expect(up!.args).toEqual([...project, 'up', '-d', '--wait', '--wait-timeout', '180', 'eventstore']);
    expect(up!.options.env).toMatchObject({ EVENTSTORE_HOST_PORT: '0' });
    expect(port!.args).toEqual([...project, 'port', 'eventstore', '2113']);
    expect(down!.args).toEqual([...project, 'down', '--volumes', '--remove-orphans']);
    expect(contract!.options.cwd).toBe(join(ROOT, 'libs', 'event-store'));
    expect(contract!.args).toContain('src/eventstoredb.int.spec.ts');
    expect(e2e!.options.cwd).toBe(join(ROOT, 'apps', 'table-service'));
    expect(e2e!.args.filter((arg) => arg.startsWith('test/'))).toEqual(['test/esdb-service.e2e.spec.ts']);
    for (const suite of [contract!, e2e!])
      expect(suite.options.env?.['EVENTSTORE_CONNECTION_STRING']).toBe('esdb://127.0.0.1:49153?tls=false');
  });

  it('fills in the secrets compose asks of the (unstarted) table service only when they are not set', async () => {
    const fake = fakeExec();
    await run(fake.exec);
    const env = fake.calls.find((call) => kind(call) === 'docker:up')!.options.env!;
    expect(env['COUP_JWT_SECRET']!.length).toBeGreaterThanOrEqual(32);
    expect(env['COUP_SEED_KEY']).toMatch(/^[0-9a-f]{64}$/);

    const own = fakeExec();
    await run(own.exec, { env: { COUP_JWT_SECRET: 'mine', EVENTSTORE_HOST_PORT: '2200' } });
    expect(own.calls.find((call) => kind(call) === 'docker:up')!.options.env).toMatchObject({
      COUP_JWT_SECRET: 'mine',
      EVENTSTORE_HOST_PORT: '2200',
    });
  });

  it('runs every suite when one fails, removes the node, and fails', async () => {
    const fake = fakeExec({
      jest: (call) => (call.args.includes('src/eventstoredb.int.spec.ts') ? failed : passed),
    });
    const { code, output } = await run(fake.exec);
    expect(code).toBe(EXIT_FAILED);
    expect(output).toMatch(/FAILED: the event-store contract suite/);
    expect(fake.kinds().filter((k) => k === 'jest')).toHaveLength(2);
    expect(fake.kinds().at(-1)).toBe('docker:down');
  });

  it('shows the log and removes the node when it does not become healthy, running no suite', async () => {
    const fake = fakeExec({ 'docker:up': failed });
    const { code, output } = await run(fake.exec);
    expect(code).toBe(EXIT_FAILED);
    expect(output).toMatch(/did not start healthy/);
    expect(fake.kinds().slice(4)).toEqual(['docker:up', 'docker:logs', 'docker:down']);
  });

  it('removes the node when a step throws', async () => {
    const fake = fakeExec({
      'docker:port': () => {
        throw new Error('boom');
      },
    });
    await expect(run(fake.exec)).rejects.toThrow('boom');
    expect(fake.kinds().at(-1)).toBe('docker:down');
  });

  it('fails when the node cannot be removed, saying how to remove it', async () => {
    const fake = fakeExec({ 'docker:down': failed });
    const { code, output } = await run(fake.exec);
    expect(code).toBe(EXIT_FAILED);
    expect(output).toContain(`docker compose -p ${COMPOSE_PROJECT} down --volumes`);
  });

  it('stops after the running suite when interrupted, and still removes the node', async () => {
    let interrupted = false;
    const fake = fakeExec({
      jest: () => {
        interrupted = true;
        return { status: null, stdout: '', stderr: '' };
      },
    });
    const { code } = await run(fake.exec, { interrupted: () => interrupted });
    expect(code).toBe(EXIT_INTERRUPTED);
    expect(fake.kinds().filter((k) => k === 'jest')).toHaveLength(1);
    expect(fake.kinds().at(-1)).toBe('docker:down');
  });

  it('with --server, runs the suites against that server and touches no docker', async () => {
    const fake = fakeExec();
    const server = 'esdb://es.example:2113?tls=false';
    const { code } = await run(fake.exec, { argv: ['--server', server] });
    expect(code).toBe(0);
    expect(fake.kinds()).toEqual(['nx', 'jest', 'jest']);
    for (const call of fake.calls.filter((c) => kind(c) === 'jest'))
      expect(call.options.env?.['EVENTSTORE_CONNECTION_STRING']).toBe(server);
  });

  it('refuses unknown arguments', async () => {
    const fake = fakeExec();
    for (const argv of [['--bogus'], ['--server'], ['--server', 'a', 'b']]) {
      const { code, output } = await run(fake.exec, { argv });
      expect(code).toBe(EXIT_SETUP);
      expect(output).toMatch(/^usage:/);
    }
    expect(fake.calls).toHaveLength(0);
  });

  it('runs the contract suite alone, without a build, when no e2e spec is named esdb', async () => {
    expect(eventStoreDbSuites(ROOT, () => ['live-push.e2e.spec.ts'])).toHaveLength(1);
    const fake = fakeExec();
    await run(fake.exec, { listDir: () => [] });
    expect(fake.kinds()).not.toContain('nx');
    expect(fake.kinds().filter((k) => k === 'jest')).toHaveLength(1);
  });

  it('builds, before any suite, every project whose build a selected spec runs (the real specs)', async () => {
    const fake = fakeExec();
    expect((await run(fake.exec, { listDir: readdirSync })).code).toBe(0);
    const nx = fake.calls.find((call) => kind(call) === 'nx')!;
    expect(nx.args.slice(1, 4)).toEqual(['run-many', '-t', 'build']);
    const built = /^--projects=(.+)$/
      .exec(nx.args.find((arg) => arg.startsWith('--projects='))!)![1]!
      .split(',');
    const suites = eventStoreDbSuites(ROOT);
    for (const suite of suites)
      for (const file of suite.files)
        expect(built).toEqual(expect.arrayContaining(buildsOf(ROOT, join(suite.cwd, file))));
    expect(built).toEqual(buildsFor(suites));
    // The projection process's spec runs the built CLI (apps/cli/dist), the others the built service.
    const service = join(ROOT, 'apps', 'table-service');
    expect(buildsOf(ROOT, join(service, 'test', 'esdb-projection-process.e2e.spec.ts'))).toEqual([
      '@coup/cli',
      '@coup/table-service',
    ]);
    expect(buildsOf(ROOT, join(service, 'test', 'esdb-service.e2e.spec.ts'))).toEqual([
      '@coup/table-service',
    ]);
    expect(fake.kinds().indexOf('nx')).toBeLessThan(fake.kinds().indexOf('jest'));
  });

  it('runs only specs that take the server EVENTSTORE_CONNECTION_STRING names (the stand-in without it)', () => {
    for (const suite of eventStoreDbSuites(ROOT))
      for (const file of suite.files) {
        const text = readFileSync(join(suite.cwd, file), 'utf8');
        expect([file, /\b(esdbForTests|esdbTarget)\(/.test(text)]).toEqual([file, true]);
        expect([file, /\b(standinForTests|standinTarget|startStandin\w*)\(/.test(text)]).toEqual([
          file,
          false,
        ]);
      }
  });

  it('knows every test module that runs a build: each one naming a dist folder is in BUILT_BY', () => {
    const names = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.name === 'node_modules' || entry.name === 'dist'
          ? []
          : entry.isDirectory()
            ? names(join(dir, entry.name))
            : /\.tsx?$/.test(entry.name)
              ? [join(dir, entry.name)]
              : [],
      );
    const runsABuild = [join(ROOT, 'apps', 'table-service', 'test'), join(ROOT, 'libs', 'event-store', 'src')]
      .flatMap(names)
      .filter((file) => /['"`]dist['"`]|['"`][^'"`\n]*\/dist\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(runsABuild.length).toBeGreaterThan(0);
    expect(runsABuild.sort()).toEqual(Object.keys(BUILT_BY).sort());
  });

  it("follows a spec's runtime imports through other modules, and not its type-only imports", () => {
    const root = mkdtempSync(join(tmpdir(), 'builds-of-'));
    try {
      const test = join(root, 'apps', 'table-service', 'test');
      mkdirSync(join(test, 'deep'), { recursive: true });
      const files: Record<string, string> = {
        'process.ts': 'export const MAIN = 1;\n',
        'projection-process.ts': 'export const CLI = 1;\n',
        'deep/index.ts': "import {\n  CLI,\n} from '../projection-process';\nexport { CLI };\n",
        'a.spec.ts': "import { CLI } from './deep';\nimport type { MAIN } from './process';\n",
        'b.spec.ts': "const p = require('./process');\n",
        'c.spec.ts': "import type { CLI } from './deep';\nexport type { MAIN } from './process';\n",
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(join(test, name), text);
      expect(buildsOf(root, join(test, 'a.spec.ts'))).toEqual(['@coup/cli']);
      expect(buildsOf(root, join(test, 'b.spec.ts'))).toEqual(['@coup/table-service']);
      expect(buildsOf(root, join(test, 'c.spec.ts'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads the host port from `docker compose port`', () => {
    expect(parsePublishedPort('0.0.0.0:49153\n')).toBe(49153);
    expect(parsePublishedPort('127.0.0.1:2113')).toBe(2113);
    expect(parsePublishedPort('[::]:49154\n0.0.0.0:49153\n')).toBe(49154);
    expect(parsePublishedPort('')).toBeUndefined();
    expect(parsePublishedPort('0.0.0.0:0')).toBeUndefined();
    expect(parsePublishedPort('no such port')).toBeUndefined();
  });

  it('runs processes for real: output, exit code, a missing command, a deadline', async () => {
    const { exec, dispose } = processExec();
    try {
      const node = process.execPath;
      expect(await exec(node, ['-e', 'console.log("out"); process.exit(3)'])).toEqual({
        status: 3,
        stdout: 'out\n',
        stderr: '',
      });
      expect((await exec('coup-no-such-command', [])).error?.code).toBe('ENOENT');
      const slow = await exec(node, ['-e', 'setTimeout(() => {}, 60000)'], { timeoutMs: 100 });
      expect(slow.error?.code).toBe('ETIMEDOUT');
    } finally {
      dispose();
    }
  });

  it('as a command, exits 2 at once with a clear message when docker is not on the PATH', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-docker-'));
    try {
      const result = spawnSync(process.execPath, [join(ROOT, 'tools', 'test-eventstoredb.mjs')], {
        env: { PATH: empty, HOME: empty },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.error).toBeUndefined();
      expect(result.status).toBe(EXIT_SETUP);
      expect(result.stderr).toMatch(/Docker is not installed \(no `docker` command on the PATH\)/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
