/**
 * Staff sign in with a user name and password in real Chromium: the console gets a shift's token from the service,
 * lists the tables, and signing out ends the token at the service. A launch link (`/#token=...`) signs a player
 * in and leaves the address at once.
 */
import { launchBrowser, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await stack.api('POST', '/api/staff', {
    username: 'pit.ann',
    password: 'correct horse battery',
    roles: ['dealer'],
  });
  await stack.api('POST', '/api/tables', { tableId: 'STAFF1', rules: { dealing: 'rng' } });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it('signs a dealer in with a password, and signing out ends the token at the service', async () => {
  const page = await browser.page();
  await page.goto(`${stack.url}/`);
  await page.getByLabel('User name').fill('pit.ann');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').getByText('Wrong user name or password.').waitFor();
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('STAFF1').first().waitFor({ timeout: 15_000 });
  await page.getByText('pit.ann (dealer)').waitFor();
  const token = (await page.evaluate(() => sessionStorage.getItem('coup.token')))!;
  expect(
    (await fetch(`${stack.url}/api/tables`, { headers: { authorization: `Bearer ${token}` } })).status,
  ).toBe(200);
  const signedOut = page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-out'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  expect((await signedOut).status()).toBe(204);
  await page.getByLabel('User name').waitFor();
  const status = (await fetch(`${stack.url}/api/tables`, { headers: { authorization: `Bearer ${token}` } }))
    .status;
  expect(status).toBe(401);
  // the one error is the browser's note of the wrong password's 401
  expect(browser.errors).toEqual([
    'console: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
  ]);
});

it("a player's launch link signs the player in and leaves the address", async () => {
  const page = await browser.page();
  const token = stack.token('player', 'p7');
  await page.goto(`${stack.url}/#token=${token}`);
  await page.waitForFunction(() => window.location.hash === '' || window.location.hash === '#/play');
  expect(page.url()).not.toContain('token=');
  expect(await page.evaluate(() => sessionStorage.getItem('coup.token'))).toBe(token);
});
