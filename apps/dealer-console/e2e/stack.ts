/**
 * Browser tests' stack: the built table service (serving the built console at `/`) on a fresh SQLite store, and
 * Debian's Chromium driven by playwright-core (never a downloaded browser). Build first: Nx's `test:e2e` target
 * depends on this app's build and the service's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { signToken, type Role } from '@coup/auth';

export const ROOT = resolve(__dirname, '..', '..', '..');
/** The screenshots the README shows (committed): written only with UPDATE_SCREENSHOTS=1. */
export const DOCS_SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
/** Where a test run writes its screenshots otherwise: git-ignored (`tmp/`), to look at after a run. */
export const TMP_SCREENSHOTS = join(ROOT, 'tmp', 'screenshots');

/** docs/screenshots with UPDATE_SCREENSHOTS=1, else tmp/screenshots: a test run never changes committed files. */
export function screenshotDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['UPDATE_SCREENSHOTS'] === '1' ? DOCS_SCREENSHOTS : TMP_SCREENSHOTS;
}
const SECRET = 'browser-e2e-secret-0123456789-0123456789';

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

export interface Stack {
  readonly url: string;
  token(role: Role, sub?: string, tables?: string[]): string;
  /** Calls the REST API as `token` (default admin) and returns the parsed answer; throws on a non-2xx. */
  api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<T>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the built service on a free port with a temp data folder (and `env`'s variables); `restart` keeps the data
 * (a crash and back).
 */
export async function startStack(env: Readonly<Record<string, string>> = {}): Promise<Stack> {
  const main = join(ROOT, 'apps', 'table-service', 'dist', 'main.js');
  const consoleDir = join(ROOT, 'apps', 'dealer-console', 'dist');
  for (const f of [main, join(consoleDir, 'index.html')]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npx nx run-many -t build\` first`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'coup-browser-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let output = '';
  const launch = async () => {
    child = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        COUP_DATA_DIR: dataDir,
        COUP_JWT_SECRET: SECRET,
        COUP_SEED_KEY: '5e'.repeat(32),
        COUP_CONSOLE_DIR: consoleDir,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) throw new Error(`service exited ${child.exitCode}:\n${output}`);
      try {
        if ((await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) })).ok) return;
      } catch {
        // not yet listening
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await kill('SIGKILL'); // never leave it running: an orphan holds its port and the test run's exit
    throw new Error(`service not healthy:\n${output}`);
  };
  const kill = async (signal: NodeJS.Signals) => {
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  await launch();
  const token = (role: Role, sub = `${role}-1`, tables?: string[]) =>
    signToken(SECRET, { sub, role, ...(tables ? { tables } : {}) });
  return {
    url,
    token,
    async api(method, path, body, auth = token('admin')) {
      const res = await fetch(url + path, {
        method,
        headers: {
          authorization: `Bearer ${auth}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as never;
    },
    async restart() {
      await kill('SIGKILL');
      await launch();
    },
    async stop() {
      await kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BrowserSession {
  readonly browser: Browser;
  /** A new page at the given size; console errors and page errors are collected in `errors`. */
  page(width?: number, height?: number): Promise<Page>;
  readonly errors: string[];
  /** Every answer of 400 or more the pages received: `<status> <method> <path>`. */
  readonly failures: string[];
  close(): Promise<void>;
}

/** Debian's Chromium, headless, as the brief prescribes. */
export async function launchBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  const errors: string[] = [];
  const failures: string[] = [];
  return {
    browser,
    errors,
    failures,
    async page(width = 1280, height = 800) {
      // a context of its own per page (axe-core's playwright builder opens its pages in the page's context)
      const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
      page.on('response', (r) => {
        if (r.status() >= 400)
          failures.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
      });
      return page;
    },
    close: () => browser.close(),
  };
}

/**
 * Saves a screenshot as `<name>.png` in {@link screenshotDir}: tmp/screenshots, or docs/screenshots (shown in the
 * README) when the run is meant to retake them (`UPDATE_SCREENSHOTS=1`). Returns the file written.
 */
export async function screenshot(page: Page, name: string, dir = screenshotDir()): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
