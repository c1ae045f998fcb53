import { isIPv6 } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { signToken, ROLES } from '@coup/auth';
import { createApp } from './bootstrap';
import { TableProcessor } from './tables/table-processor';
import { ConfigError, loadConfig, type ServiceConfig } from './config/config';
import { JsonLogger } from './common/logger';
import { Metrics } from './common/metrics';
import { installUnexpectedErrorHandlers } from './ops/unexpected-errors';
import { firstLocalAdminDue, StaffAccounts } from './staff';

/** Pending connections the kernel queues for the service (capped by net.core.somaxconn). */
export const LISTEN_BACKLOG = 4096;

async function main(): Promise<void> {
  const config = configOrExit();
  const metrics = new Metrics();
  const app = await createApp(config, { metrics });
  // At a first local start, an admin account to sign in with (printed once, below).
  const firstAdmin = firstLocalAdminDue(config) ? await app.get(StaffAccounts).firstLocalAdmin() : null;
  // A floor's players connect at once (a thousand sockets when a round opens): with Node's default listen backlog
  // of 511 the kernel drops the overflow's handshakes and each of those clients waits a full second to retry.
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  process.stderr.write(startupBanner(config, firstAdmin).join('\n') + '\n');
  installUnexpectedErrorHandlers(new JsonLogger(config.logLevel), metrics, gracefulStop(app));
}

/** The configuration, or exit 2 with the reason when it is invalid. */
function configOrExit(): ServiceConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`coup: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * What the service prints once it listens: where it is, the local tokens when the secret was generated, and the
 * first admin's password when this start made that account.
 */
function startupBanner(config: ServiceConfig, firstAdmin: string | null): string[] {
  const url = `http://${displayHost(config.host)}:${config.port}`;
  const metricsAt = config.http.metricsPort === null ? `${url}/metrics` : `port ${config.http.metricsPort}`;
  const lines = [
    `Coup table service on ${url}, bound to ${config.host} (store: ${config.eventStore.kind}${config.eventStore.kind === 'sqlite' ? ` at ${config.eventStore.file}` : ''})`,
    `  API docs: ${url}/docs   health: ${url}/health   metrics: ${metricsAt}${config.consoleDir ? `   console: ${url}/` : ''}`,
  ];
  if (metricsExposed(config))
    lines.push(
      `  Metrics are readable by anyone who reaches ${config.host}: set COUP_METRICS_TOKEN or COUP_METRICS_PORT.`,
    );
  if (config.jwtSecretGenerated) {
    lines.push(
      '  No COUP_JWT_SECRET set: a secret was generated in the data folder. Tokens for LOCAL USE ONLY:',
    );
    for (const role of ROLES) {
      const sub = role === 'player' ? 'p1' : `${role}-1`;
      lines.push(
        `    ${role.padEnd(10)} ${signToken(config.jwtSecret, { sub, role, expiresInSeconds: 7 * 24 * 3600 })}`,
      );
    }
  }
  if (firstAdmin !== null)
    lines.push(
      `  No staff account existed: made 'admin' with the password ${firstAdmin} (shown once, never again).`,
      `  Sign in at ${url}/ (POST /api/auth/sign-in) and give it a password of your own: POST /api/staff/admin/password.`,
    );
  return lines;
}

/**
 * Graceful shutdown on SIGTERM and SIGINT (exit 0) and through the returned stop (an uncaught exception: exit 1, for
 * the supervisor to restart the service): stop taking connections, finish the commands in flight, close the store.
 */
function gracefulStop(app: NestFastifyApplication): (exitCode: number) => void {
  let stopping = false;
  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    // Finish the commands in flight first (new ones get 503 SHUTTING_DOWN), then close the app and the store.
    app
      .get(TableProcessor)
      .shutdown()
      .then(() => app.close())
      .then(
        () => process.exit(exitCode),
        (error: unknown) => {
          process.stderr.write(`coup: shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(0));
  return stop;
}

/** How to reach the bind address from this machine (a wildcard address is reached as localhost). */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return isIPv6(host) ? `[${host}]` : host;
}

/** Metrics readable without a token on an address other machines may reach. */
function metricsExposed(config: ServiceConfig): boolean {
  const loopback = config.host === 'localhost' || config.host === '::1' || config.host.startsWith('127.');
  return !loopback && config.http.metricsToken === null && config.http.metricsPort === null;
}

main().catch((error: unknown) => {
  process.stderr.write(`coup: the service could not start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
