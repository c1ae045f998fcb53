/** The console is served by the service at `/` and signs in with a launch link's token, in real Chromium. */
import { openWithToken } from './session';
import { launchBrowser, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it('serves the console at / and lists the tables after sign-in, with no console errors', async () => {
  await stack.api('POST', '/api/tables', { tableId: 'SMOKE', rules: { dealing: 'rng' } });
  const page = await browser.page();
  await openWithToken(page, stack.url, stack.token('dealer'));
  await page.getByText('SMOKE').first().waitFor({ timeout: 15_000 });
  expect(browser.errors).toEqual([]);
});
