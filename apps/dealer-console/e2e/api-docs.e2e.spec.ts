/**
 * The API's own page (`/docs`, Swagger UI) in real Chromium: authorized with a bearer token, a command executed
 * with "Try it out" gets the service's 2xx answer (the table is opened), and the same command again its refusal,
 * the 409 with its stable code, which the page lists among the operation's error answers (each status with its
 * codes, in the ErrorResponse format).
 */
import type { Locator, Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { launchBrowser, startStack, type BrowserSession, type Stack } from './stack';

/**
 * Serious violations in Swagger UI's own markup, which the service does not write (swagger-ui-dist 5): its default
 * theme's colours (method badges, the Authorize button, the version stamp: color-contrast), the operation summary's
 * deep link inside its expand button (nested-interactive), the authorization dialog's close button without a name
 * (button-name) and its Authorize button named "Apply credentials" (label-content-name-mismatch), and after "Try it
 * out" the request body's textarea without a label (label) and the curl command's scrolling box that takes no
 * keyboard focus (scrollable-region-focusable).
 */
const SWAGGER_UI_RULES = [
  'color-contrast',
  'nested-interactive',
  'button-name',
  'label-content-name-mismatch',
  'label',
  'scrollable-region-focusable',
];

let stack: Stack;
let browser: BrowserSession;
let page: Page;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  page = await browser.page(1280, 900);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The live answer Swagger UI shows once the request came back: its status and body. */
async function answer(op: Locator, status: string): Promise<string> {
  const live = op.locator('.live-responses-table');
  await live.locator('.response-col_status', { hasText: status }).waitFor({ timeout: 15_000 });
  return (await live.locator('.response-col_description pre').first().textContent()) ?? '';
}

it('opens a table from the page with "Try it out", then shows the refusal of the same command with its code', async () => {
  await page.goto(`${stack.url}/docs`);
  const op = page.locator('#operations-tables-TablesController_create');
  await op.waitFor({ timeout: 15_000 });
  await expectNoSeriousA11yViolations(page, { disableRules: SWAGGER_UI_RULES });

  await page.locator('.auth-wrapper').getByRole('button', { name: 'Authorize' }).click();
  await page.locator('#auth-bearer-value').fill(stack.token('admin', 'docs-admin'));
  await page.getByRole('button', { name: 'Apply credentials' }).click();
  await page.locator('.modal-ux').getByRole('button', { name: 'Close', exact: true }).click();

  await op.locator('.opblock-summary-control').click();
  // The operation's error answers, each status with its codes.
  const documented = (status: number) => op.locator(`.responses-table tr.response[data-code="${status}"]`);
  expect(await documented(409).textContent()).toContain('TABLE_EXISTS');
  // ... in the ErrorResponse format: its example is the code's answer.
  expect(JSON.parse((await documented(409).locator('pre').first().textContent()) ?? '')).toMatchObject({
    statusCode: 409,
    code: 'TABLE_EXISTS',
  });
  expect(await documented(400).textContent()).toContain('INVALID_RULES');
  expect(await documented(503).textContent()).toContain('STORE_UNAVAILABLE');

  await op.getByRole('button', { name: 'Try it out' }).click();
  await op.locator('textarea.body-param__text').fill(JSON.stringify({ tableId: 'DOCS1' }));
  await op.getByRole('button', { name: 'Execute' }).click();
  expect(JSON.parse(await answer(op, '201'))).toMatchObject({ tableId: 'DOCS1' });
  // The request the page sent: the token, and no Idempotency-Key (it is optional).
  const curl = (await op.locator('.curl-command').textContent()) ?? '';
  expect(curl).toContain('Authorization: Bearer');
  expect(curl.toLowerCase()).not.toContain('idempotency-key');
  expect(await stack.api('GET', '/api/tables/DOCS1')).toMatchObject({ tableId: 'DOCS1' });

  await op.getByRole('button', { name: 'Execute' }).click();
  expect(JSON.parse(await answer(op, '409'))).toMatchObject({ statusCode: 409, code: 'TABLE_EXISTS' });
  await expectNoSeriousA11yViolations(page, { disableRules: SWAGGER_UI_RULES });
  // Nothing failed but the refusal asked for (which Chromium also logs as a failed load).
  expect(browser.failures).toEqual(['409 POST /api/tables']);
  expect(browser.errors).toEqual([expect.stringContaining('status of 409 (Conflict)')]);
});
