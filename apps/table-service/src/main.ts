import { signToken, ROLES } from '@coup/auth';
import { createApp } from './bootstrap';
import { TableProcessor } from './tables/table-processor';
import { ConfigError, loadConfig } from './config/config';

/** Pending connections the kernel queues for the service (capped by net.core.somaxconn). */
export const LISTEN_BACKLOG = 4096;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`coup: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const app = await createApp(config);
  // A floor's players connect at once (a thousand sockets when a round opens): with Node's default listen backlog
  // of 511 the kernel drops the overflow's handshakes and each of those clients waits a full second to retry.
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  const url = `http://localhost:${config.port}`;
  const lines = [
    `Coup table service on ${url} (store: ${config.eventStore.kind}${config.eventStore.kind === 'sqlite' ? ` at ${config.eventStore.file}` : ''})`,
    `  API docs: ${url}/docs   health: ${url}/health   metrics: ${url}/metrics${config.consoleDir ? `   console: ${url}/` : ''}`,
  ];
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
  process.stderr.write(lines.join('\n') + '\n');
  // Graceful shutdown: stop taking connections, finish the commands in flight, close the store, exit 0.
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
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
          () => process.exit(0),
          (error: unknown) => {
            process.stderr.write(`coup: shutdown failed: ${String(error)}\n`);
            process.exit(1);
          },
        );
    });
  }
}

void main();
