/**
 * A test run leaves the committed screenshots alone: the browser tests write to tmp/screenshots (git-ignored)
 * unless UPDATE_SCREENSHOTS=1 asks them to retake docs/screenshots (the README's pictures). The README shows every
 * committed screenshot, and a browser test takes each one.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DOCS_SCREENSHOTS,
  ROOT,
  TMP_SCREENSHOTS,
  launchBrowser,
  screenshot,
  screenshotDir,
  type BrowserSession,
} from './stack';

let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Each committed screenshot's size and modification time. */
function docsState(): Record<string, string> {
  if (!existsSync(DOCS_SCREENSHOTS)) return {};
  return Object.fromEntries(
    readdirSync(DOCS_SCREENSHOTS).map((f) => {
      const st = statSync(join(DOCS_SCREENSHOTS, f));
      return [f, `${st.size}@${st.mtimeMs}`];
    }),
  );
}

it('goes to tmp/screenshots by default and to docs/screenshots only with UPDATE_SCREENSHOTS=1', () => {
  expect(TMP_SCREENSHOTS).toBe(join(ROOT, 'tmp', 'screenshots'));
  expect(DOCS_SCREENSHOTS).toBe(join(ROOT, 'docs', 'screenshots'));
  expect(screenshotDir({})).toBe(TMP_SCREENSHOTS);
  expect(screenshotDir({ UPDATE_SCREENSHOTS: '0' })).toBe(TMP_SCREENSHOTS);
  expect(screenshotDir({ UPDATE_SCREENSHOTS: '1' })).toBe(DOCS_SCREENSHOTS);
});

it('a screenshot taken in a plain test run changes nothing in docs/screenshots', async () => {
  const saved = process.env['UPDATE_SCREENSHOTS'];
  delete process.env['UPDATE_SCREENSHOTS'];
  try {
    const before = docsState();
    const page = await browser.page(320, 200);
    await page.setContent('<h1>screenshot check</h1>');
    for (const name of ['console-table-1280', 'screenshot-check']) {
      const file = await screenshot(page, name);
      expect(file).toBe(join(TMP_SCREENSHOTS, `${name}.png`));
      expect(statSync(file).size).toBeGreaterThan(0);
    }
    expect(docsState()).toEqual(before);
    expect(existsSync(join(DOCS_SCREENSHOTS, 'screenshot-check.png'))).toBe(false);
  } finally {
    if (saved !== undefined) process.env['UPDATE_SCREENSHOTS'] = saved;
  }
});

it('the README shows every committed screenshot, each taken by a browser test', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const shown = [...readme.matchAll(/\]\(docs\/screenshots\/([\w-]+)\.png\)/g)].map((m) => m[1]).sort();
  const committed = readdirSync(DOCS_SCREENSHOTS)
    .filter((f) => f.endsWith('.png'))
    .map((f) => f.slice(0, -'.png'.length))
    .sort();
  expect(shown).toEqual(committed);
  const e2e = join(ROOT, 'apps', 'dealer-console', 'e2e');
  const taken = new Set(
    readdirSync(e2e)
      .filter((f) => f.endsWith('.e2e.spec.ts'))
      .flatMap((f) => [...readFileSync(join(e2e, f), 'utf8').matchAll(/screenshot\(\w+, '([\w-]+)'\)/g)])
      .map((m) => m[1]),
  );
  expect(committed.filter((name) => !taken.has(name))).toEqual([]);
});
