/**
 * bench:pg-lag's processes: the built service instances (COUP_PROJECTIONS=off, reading COUP_READ_MODELS), the
 * built `coup projections run` folding the log into those read models, the checkpoint poller
 * (pg-lag-poll.ts), and the CPU each of them and the PostgreSQL server used (from /proc).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { serviceEnv, track } from './children';

export const root = resolve(__dirname, '..', '..');
const SERVICE_MAIN = join(root, 'apps/table-service/dist/main.js');
const CLI_MAIN = join(root, 'apps/cli/dist/main.js');
const SERVICE_FLAGS = (
  JSON.parse(readFileSync(join(root, 'tools', 'service-node-flags.json'), 'utf8')) as { flags: string[] }
).flags;

/** The load comes from one address at thousands of bets a second: the per-client limits are lifted (bench:service's). */
const LIFTED_LIMITS: Readonly<Record<string, string>> = {
  COUP_RATE_LIMIT_PER_MINUTE: '100000000',
  COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
  COUP_AUTH_FAILURES_PER_MINUTE: '100000000',
  COUP_MAX_CONNECTIONS_PER_IP: '0',
};

/** Builds the service and the CLI where out of date (Nx caches the rest). */
export function buildAll(): void {
  for (const project of ['@coup/table-service', '@coup/cli']) {
    const built = spawnSync(
      process.execPath,
      [join(root, 'node_modules/.bin/nx'), 'run', `${project}:build`],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, NX_DAEMON: 'false' },
      },
    );
    if (built.status !== 0) throw new Error(`the ${project} build failed`);
  }
}

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

export interface Instance {
  readonly url: string;
  readonly child: ChildProcess;
}

/** One service instance on `dataDir`, healthy. */
export async function startInstance(dataDir: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, [...SERVICE_FLAGS, SERVICE_MAIN], {
      env: {
        ...LIFTED_LIMITS,
        ...process.env,
        ...env,
        ...serviceEnv(port, dataDir),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`a service instance exited ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

/** Resolves with the child once a line of its standard output passes `match`; rejects if it exits first. */
function untilLine(child: ChildProcess, match: (line: string) => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').some(match)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}):\n${out}`)));
  });
}

/** `coup projections run` on the store in `dataDir` into `readModels`, following the log. */
export async function startProjector(dataDir: string, readModels: string): Promise<ChildProcess> {
  const child = track(
    spawn(process.execPath, [...SERVICE_FLAGS, CLI_MAIN, 'projections', 'run'], {
      env: {
        ...process.env,
        COUP_DATA_DIR: dataDir,
        COUP_READ_MODELS: readModels,
        COUP_SEED_KEY: 'be'.repeat(32),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  await untilLine(child, (l) => l.includes('"following the log"'), 'the projection process');
  child.stdout!.resume();
  return child;
}

/** The poller: one line `<Date.now()> <lowest checkpoint>` each time the checkpoints move. */
export async function startPoller(readModels: string, everyMs: number): Promise<ChildProcess> {
  const child = track(
    spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'pg-lag-poll.ts'), readModels, String(everyMs)],
      {
        env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  await untilLine(child, (l) => l === 'polling', 'the poller');
  return child;
}

/** CPU seconds (user + system) of a process's threads, and of its reaped children when `reaped`. */
export function cpuSeconds(pid: number, reaped = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // Fields 14-17 of proc(5), counted from 3 after the name: utime, stime, cutime, cstime.
    return (f[11]! + f[12]! + (reaped ? f[13]! + f[14]! : 0)) / 100;
  } catch {
    return 0; // ended
  }
}

/** Seconds a process's threads spent waiting for a CPU while runnable (from /proc/<pid>/task/<tid>/schedstat). */
export function waitedSeconds(pid: number): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`))
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
      } catch {
        // the thread ended
      }
  } catch {
    // ended
  }
  return ns / 1e9;
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The PostgreSQL server's main process (the postmaster), found from a backend of `url`. */
export async function postmasterOf(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return parentOf(rows[0]!.pid);
  } finally {
    await client.end();
  }
}

/**
 * The server's CPU seconds (the postmaster, its live processes: backends, writers, and the ones it reaped) and the
 * seconds its live processes waited for a CPU.
 */
export function serverSeconds(postmaster: number): { cpu: number; waited: number } {
  let cpu = cpuSeconds(postmaster, true);
  let waited = waitedSeconds(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (parentOf(Number(entry)) !== postmaster) continue;
      cpu += cpuSeconds(Number(entry));
      waited += waitedSeconds(Number(entry));
    } catch {
      // ended
    }
  }
  return { cpu, waited };
}

/**
 * PostgreSQL's processes each start a session of their own (setsid), hence an autogroup of their own at nice 0:
 * under a benchmark run at high priority (`echo -15 > /proc/self/autogroup`), the server would wait behind every
 * other process. Gives the postmaster's processes' autogroups this process's autogroup nice (as root; a new backend
 * needs it again).
 */
export function serverPriority(postmaster: number): void {
  let nice: string;
  try {
    nice = /nice (-?\d+)/.exec(readFileSync('/proc/self/autogroup', 'utf8'))?.[1] ?? '0';
  } catch {
    return; // no autogroups here
  }
  if (nice === '0') return;
  for (const entry of [String(postmaster), ...readdirSync('/proc')]) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (entry === String(postmaster) || parentOf(Number(entry)) === postmaster)
        writeFileSync(`/proc/${entry}/autogroup`, nice);
    } catch {
      // ended, or not allowed
    }
  }
}

/** Sends SIGTERM and waits for the exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
