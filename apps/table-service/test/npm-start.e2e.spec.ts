/**
 * `npm start` as a user runs it: builds what is out of date, starts the service on the embedded store in the data
 * folder, prints local tokens when no secret is set, serves the API, and stops cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './process';

jest.setTimeout(300_000);

it('starts the whole product with nothing configured and stops on SIGTERM', async () => {
  const root = join(__dirname, '..', '..', '..');
  const dataDir = mkdtempSync(join(tmpdir(), 'coup-npm-start-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    COUP_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env['COUP_JWT_SECRET'];
  const child = spawn(process.execPath, [join(root, 'tools', 'start.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    let healthy = false;
    for (let i = 0; i < 2400 && !healthy && child.exitCode === null; i++) {
      healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 100));
    }
    expect({ healthy, output: healthy ? '' : output }).toEqual({ healthy: true, output: '' });
    for (let i = 0; i < 50 && !/analyst\s+\S+\.\S+\.\S+/.test(output); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(output).toMatch(/LOCAL USE ONLY/);
    const dealerToken = /dealer\s+(\S+\.\S+\.\S+)/.exec(output)![1]!;
    const tables = await fetch(`http://127.0.0.1:${port}/api/tables`, {
      headers: { authorization: `Bearer ${dealerToken}` },
    });
    expect(tables.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
