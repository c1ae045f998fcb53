/**
 * The service's Content-Security-Policy against the real console in real Chromium: the player page (#/play, a coup
 * dealt), the dealer console (live over the WebSocket), the replay screen and the API docs page load and work with
 * no CSP violation, seen both as `securitypolicyviolation` events and as the browser's console messages. A control
 * (an inline script injected on purpose) proves that a violation would be seen.
 */
import type { Page } from 'playwright-core';
import { openWithToken } from './session';
import { launchBrowser, startStack, type BrowserSession, type Stack } from './stack';

const TABLE = 'CSP1';
let stack: Stack;
let browser: BrowserSession;

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  // An rng table with one dealt coup: the console shows it live, the replay screen replays it.
  const dealer = stack.token('dealer', 'dora');
  await stack.api('POST', '/api/tables', { tableId: TABLE, rules: { dealing: 'rng' } });
  await stack.api('POST', `/api/tables/${TABLE}/players/alice/buy-in`, { amount: 100_000 });
  await stack.api('POST', `/api/tables/${TABLE}/shoes`, undefined, dealer);
  await stack.api('POST', `/api/tables/${TABLE}/rounds`, undefined, dealer);
  await stack.api(
    'POST',
    `/api/tables/${TABLE}/rounds/1/bets`,
    { playerId: 'alice', spot: 'banker', amount: 1_000 },
    stack.token('player', 'alice'),
  );
  await stack.api('POST', `/api/tables/${TABLE}/rounds/1/close`, undefined, dealer);
  await stack.api('POST', `/api/tables/${TABLE}/rounds/1/deal`, undefined, dealer);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface Watched {
  readonly page: Page;
  /** Every CSP violation so far: the page's events and the browser's console lines about the policy. */
  violations(): Promise<string[]>;
}

/** A page that records CSP violations from its first script on. */
async function watchedPage(): Promise<Watched> {
  const page = await browser.page(1280, 900);
  const logged: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) logged.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(
        `event: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  return {
    page,
    async violations() {
      const events = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
      return [...events, ...logged];
    },
  };
}

/** Signs in with the token through a launch link (`/#token=`), back at the address the page was at. */
async function signIn(page: Page, token: string): Promise<void> {
  await openWithToken(page, stack.url, token, new URL(page.url()).hash || '#/');
}

it('the served pages carry the policy', async () => {
  const { page } = await watchedPage();
  const response = await page.goto(`${stack.url}/`);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
  await page.close();
});

it('control: an inline script is blocked and the violation is seen', async () => {
  const w = await watchedPage();
  await w.page.goto(`${stack.url}/`);
  await w.page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__ran = true';
    document.body.appendChild(s);
  });
  await w.page.waitForFunction(() => ((window as unknown as { __csp?: string[] }).__csp ?? []).length > 0);
  expect(await w.page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
  expect((await w.violations()).join('\n')).toMatch(/script-src/);
  await w.page.close();
});

it('the player page: sign in, buy in, bet and deal a coup, with no CSP violation', async () => {
  const w = await watchedPage();
  const { page } = w;
  await page.goto(`${stack.url}/`);
  await signIn(page, stack.token('player', 'pia'));
  await page.waitForFunction(() => window.location.hash === '#/play');
  await page.getByLabel('Amount in dollars').fill('100');
  await page.getByRole('button', { name: 'Buy in' }).click();
  await page.getByRole('button', { name: '$5 chip', exact: true }).click();
  await page.getByRole('button', { name: /^Bet on Banker/ }).click();
  await page.getByRole('button', { name: 'DEAL', exact: true }).click();
  await page.getByTestId('coup-result').waitFor({ timeout: 15_000 });
  expect(await w.violations()).toEqual([]);
  await page.close();
});

it('the dealer console, live over the WebSocket, and the replay screen, with no CSP violation', async () => {
  const w = await watchedPage();
  const { page } = w;
  await page.goto(`${stack.url}/#/tables/${TABLE}`);
  await signIn(page, stack.token('dealer', 'dora'));
  await page.locator('.conn-live').waitFor({ timeout: 15_000 });
  await page.goto(`${stack.url}/#/tables/${TABLE}/hands/1?step=3`);
  await page.locator('.replay-events li').first().waitFor({ timeout: 15_000 });
  expect(await w.violations()).toEqual([]);
  await page.close();
});

it('the API docs page, with no CSP violation', async () => {
  const w = await watchedPage();
  await w.page.goto(`${stack.url}/docs`);
  await w.page.locator('.swagger-ui .opblock').first().waitFor({ timeout: 15_000 });
  expect(await w.violations()).toEqual([]);
  await w.page.close();
});
