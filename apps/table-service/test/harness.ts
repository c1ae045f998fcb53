import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken, type Role } from '@coup/auth';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../src/bootstrap';
import { loadConfig, type ServiceConfig } from '../src/config/config';
import type { AppOverrides } from '../src/app.module';

export const SECRET = 'e2e-secret-0123456789-0123456789-0123456789';
/** The key that seals unrevealed seeds in the tests' data folders (COUP_SEED_KEY). */
export const SEED_KEY = '5e'.repeat(32);

/**
 * Tests drive thousands of requests from one address and one token: the per-client limits are set far above that
 * here (a test of a limit sets its own), the defaults stay those of a real floor.
 */
export const GENEROUS_LIMITS: Readonly<Record<string, string>> = {
  COUP_RATE_LIMIT_PER_MINUTE: '100000000',
  COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
  COUP_AUTH_FAILURES_PER_MINUTE: '100000000',
  COUP_SIGN_INS_PER_IP_PER_MINUTE: '100000000',
  COUP_MAX_CONNECTIONS_PER_IP: '0',
};

export interface Harness {
  readonly app: NestFastifyApplication;
  readonly url: string;
  readonly config: ServiceConfig;
  readonly dataDir: string;
  token(role: Role, sub?: string, tables?: string[]): string;
  api(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** Starts the real service on an ephemeral port with a fresh SQLite store in a temp folder. */
export async function startService(
  env: Record<string, string> = {},
  overrides: AppOverrides = {},
  dataDir?: string,
): Promise<Harness> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'coup-e2e-'));
  const config = loadConfig({
    COUP_DATA_DIR: dir,
    COUP_JWT_SECRET: SECRET,
    COUP_SEED_KEY: SEED_KEY,
    LOG_LEVEL: 'error',
    PORT: '0',
    COUP_DOCS_UI: 'false',
    COUP_CONSOLE_DIR: join(dir, 'no-console'),
    ...GENEROUS_LIMITS,
    ...(process.env['E2E_STORE'] ? { COUP_EVENT_STORE: process.env['E2E_STORE'] } : {}),
    ...env,
  });
  const app = await createApp(config, overrides);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const tokens = new Map<string, string>();
  const token = (role: Role, sub = `${role}-1`, tables?: string[]) => {
    // `tables: []` (no table) and no claim (every table) are different tokens
    const key = `${role}|${sub}|${tables === undefined ? '*' : tables.join(',')}`;
    let t = tokens.get(key);
    if (!t) tokens.set(key, (t = signToken(SECRET, { sub, role, ...(tables ? { tables } : {}) })));
    return t;
  };
  return {
    app,
    url,
    config,
    dataDir: dir,
    token,
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      const auth = options.token === undefined ? token('admin') : options.token;
      if (auth !== null) headers['authorization'] = `Bearer ${auth}`;
      let body: string | undefined;
      if (options.raw !== undefined) body = options.raw;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
      const res = await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON (e.g. metrics)
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await app.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
