/** The console is served by the service at `/` and signs in with a token, in real Chromium. */
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
  await page.goto(stack.url + '/');
  await page.getByRole('textbox').first().fill(stack.token('dealer'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('SMOKE').first().waitFor({ timeout: 15_000 });
  expect(browser.errors).toEqual([]);
});
