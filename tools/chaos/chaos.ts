/**
 * npm run chaos -- [--seconds 600] [--seed 14] [...]: the chaos scenario of issue 14
 * (apps/table-service/test/chaos/scenario.ts,
 * docs/reliability.md) for as long as asked. Builds the service first (unless --main names another build), prints
 * progress on stderr and a JSON summary on stdout (command, commit, dates, counts, violations), and exits 1 when
 * an invariant was violated.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CHAOS, runChaos } from '../../apps/table-service/test/chaos/scenario';

const root = resolve(__dirname, '..', '..');
const d = DEFAULT_CHAOS;
const range = (r: readonly [number, number]) => `${r[0]}-${r[1]}`;
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: String(d.seconds) },
    seed: { type: 'string', default: String(d.seed) },
    players: { type: 'string', default: String(d.players) },
    watchers: { type: 'string', default: String(d.watchers) },
    'kill-every-ms': { type: 'string', default: range(d.killEveryMs) },
    'restart-after-ms': { type: 'string', default: range(d.restartAfterMs) },
    'pause-ms': { type: 'string', default: String(d.pauseMs) },
    'snapshot-every': { type: 'string', default: String(d.snapshotEvery) },
    'think-ms': { type: 'string', default: range(d.thinkMs) },
    'betting-ms': { type: 'string', default: range(d.bettingMs) },
    'timeout-ms': { type: 'string', default: String(d.timeoutMs) },
    'repeat-at-end': { type: 'string', default: String(d.repeatAtEnd) },
    main: { type: 'string' },
    'keep-data': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write(
    'npm run chaos -- [--seconds N] [--seed N] [--players N] [--watchers N] [--kill-every-ms A-B]\n' +
      '  [--restart-after-ms A-B] [--pause-ms N] [--snapshot-every N] [--think-ms A-B] [--betting-ms A-B]\n' +
      '  [--timeout-ms N] [--repeat-at-end N] [--main path/to/main.js] [--keep-data]\n',
  );
  process.exit(0);
}

function number(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`chaos: --${name} must be a number, not '${value}'\n`);
    process.exit(2);
  }
  return n;
}

function span(name: string, value: string | undefined): readonly [number, number] {
  const [lo, hi = lo] = String(value).split('-');
  const r = [number(name, lo), number(name, hi)] as const;
  if (r[0] > r[1]) {
    process.stderr.write(`chaos: --${name} must be LOW-HIGH, not '${value}'\n`);
    process.exit(2);
  }
  return r;
}

async function main(): Promise<void> {
  if (values.main === undefined) {
    const build = spawnSync(
      process.execPath,
      [join(root, 'node_modules/.bin/nx'), 'run', '@coup/table-service:build'],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } },
    );
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const main = resolve(values.main ?? join(root, 'apps/table-service/dist/main.js'));
  const git = (args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();
  const summary = await runChaos({
    seconds: number('seconds', values.seconds),
    seed: number('seed', values.seed),
    players: number('players', values.players),
    watchers: number('watchers', values.watchers),
    killEveryMs: span('kill-every-ms', values['kill-every-ms']),
    restartAfterMs: span('restart-after-ms', values['restart-after-ms']),
    pauseMs: number('pause-ms', values['pause-ms']),
    snapshotEvery: number('snapshot-every', values['snapshot-every']),
    thinkMs: span('think-ms', values['think-ms']),
    bettingMs: span('betting-ms', values['betting-ms']),
    timeoutMs: number('timeout-ms', values['timeout-ms']),
    repeatAtEnd: number('repeat-at-end', values['repeat-at-end']),
    main,
    secret: randomBytes(32).toString('hex'),
    keepData: values['keep-data'],
    log: (line) => process.stderr.write(`chaos: ${line}\n`),
  });
  const report = {
    command: `npm run chaos -- ${process.argv.slice(2).join(' ')}`.trim(),
    commit: git(['rev-parse', '--short', 'HEAD']),
    uncommittedChanges: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    service: main,
    node: process.version,
    ...summary,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exit(summary.ok ? 0 : 1);
}

void main();
