import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { GENEROUS_LIMITS, SECRET, SEED_KEY } from './harness';

/** The built service; COUP_SERVICE_MAIN runs another build (e.g. an older one, to reproduce a defect). */
export const MAIN = process.env['COUP_SERVICE_MAIN'] || join(__dirname, '..', 'dist', 'main.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs the built service (`dist/main.js`) as its own process on a data folder, and waits until it is healthy (with
 * `waitHealthy: false`, only until it is spawned). A service not healthy in time is killed, then the error (with
 * its `pid`) thrown.
 */
export async function spawnService(
  dataDir: string,
  env: Record<string, string> = {},
  options: { waitHealthy?: boolean; healthyWithinMs?: number } = {},
): Promise<ServiceProcess> {
  // A test that must know the port before the start (a redirect URL in the environment) passes PORT.
  const port = env['PORT'] ? Number(env['PORT']) : await freePort();
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      COUP_DATA_DIR: dataDir,
      COUP_JWT_SECRET: SECRET,
      COUP_SEED_KEY: SEED_KEY,
      LOG_LEVEL: 'warn',
      ...GENEROUS_LIMITS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.healthyWithinMs ?? 30_000);
  while (options.waitHealthy !== false) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) })).ok) break;
    } catch {
      // not listening yet (or not answering)
    }
    if (Date.now() > deadline) {
      // Never leave it running: an orphan holds its port and jest's exit.
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      throw Object.assign(new Error(`the service did not become healthy:\n${output}`), { pid: child.pid });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
