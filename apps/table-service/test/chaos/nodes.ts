/**
 * One table-service process of the chaos scenario, restartable on the same port and data folder (clients keep
 * its address, as behind a load balancer), and the faults done to it: kill -9, SIGSTOP / SIGCONT, SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sleep } from './util';

/** The V8 flags the service runs with in production (tools/service-node-flags.json). */
const SERVICE_FLAGS = (
  JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', '..', 'tools', 'service-node-flags.json'), 'utf8'),
  ) as { flags: string[] }
).flags;

/**
 * The scenario drives a whole floor from one address and a few staff tokens: the service's per-client limits
 * (commands per principal and per address, connections per address, live sockets per principal; 0 turns the first
 * three off) would throttle it as one abusive client.
 */
export const ONE_ADDRESS_FLOOR: Readonly<Record<string, string>> = {
  COUP_RATE_LIMIT_PER_MINUTE: '0',
  COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
  COUP_MAX_CONNECTIONS_PER_IP: '0',
  COUP_WS_MAX_SOCKETS_PER_PRINCIPAL: '1000',
};

/** An unused local port, chosen once per node and kept across its restarts. */
export function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export type NodeState = 'starting' | 'up' | 'down' | 'stopped';

const OUTPUT_KEPT = 20_000;

export class ServiceNode {
  state: NodeState = 'down';
  starts = 0;
  private child: ChildProcess | null = null;
  private exit: Promise<number | null> = Promise.resolve(null);
  private tail = '';

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly main: string,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The end of the process's output (the last run's and those before it). */
  output(): string {
    return this.tail;
  }

  /** Starts the process and waits until /health answers 200 (throws with its output if it exits or never does). */
  async start(timeoutMs = 60_000): Promise<void> {
    this.state = 'starting';
    this.starts++;
    const child = spawn(process.execPath, [...SERVICE_FLAGS, this.main], {
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      this.tail = (this.tail + d.toString()).slice(-OUTPUT_KEPT);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        this.state = 'down';
        throw new Error(
          `${this.name} exited (${child.exitCode ?? child.signalCode}) while starting:\n${this.tail.slice(-1500)}`,
        );
      }
      try {
        const res = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(1000) });
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        await this.exit;
        this.state = 'down';
        throw new Error(`${this.name} did not become healthy in ${timeoutMs} ms`);
      }
      await sleep(100);
    }
    this.state = 'up';
  }

  /** kill -9, and waits for the exit. */
  async kill(): Promise<void> {
    if (this.state === 'stopped') this.child?.kill('SIGCONT');
    this.state = 'down';
    this.child?.kill('SIGKILL');
    await this.exit;
  }

  /** SIGSTOP: the process holds its connections and locks but answers nothing. */
  pause(): void {
    this.child?.kill('SIGSTOP');
    this.state = 'stopped';
  }

  resume(): void {
    this.child?.kill('SIGCONT');
    this.state = 'up';
  }

  /** SIGTERM (graceful shutdown): the exit code, or null if it had to be killed after `timeoutMs`. */
  async terminate(timeoutMs = 30_000): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return null;
    if (this.state === 'stopped') this.child.kill('SIGCONT');
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)),
    );
    const result = await Promise.race([this.exit, timeout]);
    clearTimeout(timer);
    this.state = 'down';
    if (result === 'timeout') {
      this.child.kill('SIGKILL');
      await this.exit;
      return null;
    }
    return result;
  }
}
