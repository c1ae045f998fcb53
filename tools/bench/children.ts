/**
 * The processes a benchmark starts, killed when the benchmark's process exits for any reason (an error in the
 * middle of a run included), so a failed run leaves no service or load process behind.
 */
import type { ChildProcess } from 'node:child_process';

const started = new Set<ChildProcess>();
let hooked = false;

/** Registers a child to be killed at exit; returns it. */
export function track<C extends ChildProcess>(child: C): C {
  started.add(child);
  child.once('exit', () => started.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });
  }
  return child;
}

/** The JWT secret the benchmarks' services run with (their tokens are signed with it). */
export const BENCH_SECRET = 'bench-secret-0123456789-0123456789-0123456789';

/** What every benchmark's service process runs with beside its own variables: loopback on `port`, its store in `dataDir`. */
export function serviceEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    COUP_DATA_DIR: dataDir,
    COUP_JWT_SECRET: BENCH_SECRET,
    COUP_SEED_KEY: 'be'.repeat(32),
    LOG_LEVEL: 'error',
  };
}
