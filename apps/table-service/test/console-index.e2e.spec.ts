/**
 * The built service serves the console's page with the casino's time zone (COUP_GAMING_DAY's) for the console's
 * clocks, at `/` and `/index.html`; its other files as they are.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService } from './process';

// A built service starts in a process of its own: seconds on a loaded machine, past jest's default 5 s.
jest.setTimeout(60_000);

it('the console page names the casino time zone; the assets are served unchanged', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coup-console-index-'));
  const consoleDir = join(dir, 'console');
  mkdirSync(join(consoleDir, 'assets'), { recursive: true });
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><html><head><title>c</title></head></html>');
  writeFileSync(join(consoleDir, 'assets', 'app.js'), 'console.log(1)');
  const s = await spawnService(join(dir, 'data'), {
    COUP_CONSOLE_DIR: consoleDir,
    COUP_GAMING_DAY: '06:00 Asia/Macau',
  });
  try {
    for (const path of ['/', '/index.html']) {
      const r = await fetch(s.url + path);
      expect({ path, status: r.status, type: r.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: 'text/html; charset=utf-8',
      });
      expect(await r.text()).toContain('<head><meta name="coup-time-zone" content="Asia/Macau" /><title>');
    }
    expect(await (await fetch(`${s.url}/assets/app.js`)).text()).toBe('console.log(1)');
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
