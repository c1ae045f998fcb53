/**
 * The pit (admin) in real Chromium against the built service: signing in with a password, every table at a
 * glance, opening a table with every refused rule shown at its field in words, buying a player in (once, though its
 * answer was lost and the pit clicked again) and cashing out with the box commission collected, closing a table
 * with every player cashed out, a staff account made in Simplified Chinese, signing out, and a launch link opened
 * over the pit's sign-in. Each test has its own page, signed in on its own, and its own table: none needs another
 * to have run. axe finds no serious violation on any screen.
 */
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { signInWithPassword } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
let dealer: string;
const ADMIN = { username: 'pit.ann', password: 'correct horse battery' };

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  dealer = stack.token('dealer', 'dora');
  await stack.api('POST', '/api/staff', { ...ADMIN, roles: ['admin'] });
  // the overview's tables: a timed round open (its countdown), a live table with a shoe, an EZ table without
  // one, a closed table
  await stack.api('POST', '/api/tables', { tableId: 'BAC1', rules: { dealing: 'rng', bettingSeconds: 600 } });
  await stack.api('POST', '/api/tables/BAC1/players/carol/buy-in', { amount: 50_000 });
  await stack.api('POST', '/api/tables/BAC1/shoes', {}, dealer);
  await stack.api('POST', '/api/tables/BAC1/rounds', {}, dealer);
  await stack.api('POST', '/api/tables/BAC1/rounds/1/bets', { playerId: 'carol', spot: 'tie', amount: 1000 });
  await stack.api('POST', '/api/tables', { tableId: 'LIVE9', rules: { dealing: 'live', decks: 6 } });
  await stack.api('POST', '/api/tables/LIVE9/shoes', { firstCard: '9c' }, dealer);
  await stack.api('POST', '/api/tables', { tableId: 'EZ3', rules: { game: 'ez' } });
  await stack.api('POST', '/api/tables', { tableId: 'OLD1', rules: {} });
  await stack.api('DELETE', '/api/tables/OLD1');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A page of a test's own: what the browser logged as errors, and every answer of 400 or more it received. */
interface Tab {
  readonly page: Page;
  readonly errors: string[];
  readonly failures: string[];
}

async function newTab(): Promise<Tab> {
  const page = await browser.page(1280, 800);
  const errors: string[] = [];
  const failures: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400)
      failures.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return { page, errors, failures };
}

/** A tab of its own, signed in as the pit with the password, at `hash`. */
async function pitAt(hash: string): Promise<Tab> {
  const tab = await newTab();
  await signInWithPassword(tab.page, stack.url, ADMIN.username, ADMIN.password);
  await tab.page.evaluate((h) => (window.location.hash = h), hash);
  return tab;
}

const field = (page: Page, name: string) => page.locator(`#field-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`);
/** The refusal shown at a field: it is marked invalid, and its message is the field's description. */
async function refusalAt(page: Page, name: string): Promise<string> {
  await page.locator(`#field-${name}[aria-invalid=true]`).waitFor();
  return (await page.locator(`#field-${name}-error`).textContent()) ?? '';
}

/** A table opened for one test, with players bought in (cents). */
async function tableWith(tableId: string, rules: object, players: Record<string, number> = {}) {
  await stack.api('POST', '/api/tables', { tableId, rules });
  for (const [playerId, amount] of Object.entries(players))
    await stack.api('POST', `/api/tables/${tableId}/players/${playerId}/buy-in`, { amount });
}

it('signs in with a password and shows every table at a glance', async () => {
  const { page, errors, failures } = await newTab();
  await page.goto(`${stack.url}/`);
  await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
  expect(await page.getByLabel('Bearer token').count()).toBe(0);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'sign-in');
  await signInWithPassword(page, stack.url, ADMIN.username, ADMIN.password);
  const row = page.locator('tr[data-table=BAC1]');
  await row.getByText('betting', { exact: true }).waitFor({ timeout: 15_000 });
  expect(await row.textContent()).toMatch(
    /BAC1.*rng.*betting.*1.*of 416 cards left.*players: 1 · betting: 1.*closes in (9|10):\d\d/,
  );
  expect(await page.getByText('pit.ann (admin)').count()).toBe(1);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'pit-overview');
  expect({ errors, failures }).toEqual({ errors: [], failures: [] });
  await page.context().close();
});

it('opens a table: every refused rule at its field in words, by the form and by the service', async () => {
  const { page, errors, failures } = await pitAt('#/pit/open');
  await field(page, 'tableId').fill('BAC1');
  await field(page, 'decks').fill('6');
  await field(page, 'cutCard').fill('200');
  await field(page, 'bettingSeconds').fill('700');
  await page.getByRole('button', { name: 'Open the table' }).click();
  expect(await refusalAt(page, 'cutCard')).toMatch(
    /^A whole number of cards from 12 to 156: half the shoe of 6 decks\. \(Invalid table rules: cutCard must be an integer from 12 to 156/,
  );
  expect(await refusalAt(page, 'bettingSeconds')).toMatch(/^From 1 to 600 seconds, or empty for no timer/);
  expect(await page.getByRole('alert').textContent()).toMatch(/2 rule\(s\) to put right/);
  // the first refused field as the form shows them, though the service checks the betting time first
  await page.waitForFunction(() => document.activeElement?.id === 'field-cutCard');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'pit-open-table');
  await field(page, 'cutCard').fill('14');
  await field(page, 'bettingSeconds').fill('');
  await page.getByRole('button', { name: 'Open the table' }).click();
  expect(await refusalAt(page, 'tableId')).toMatch(/^A table with this id exists already\. \(TABLE_EXISTS: /);
  await field(page, 'tableId').fill('PIT1');
  await field(page, 'dealing').selectOption('live');
  await field(page, 'commission').selectOption('box');
  await field(page, 'bettingSeconds').fill('45');
  await field(page, 'sideBets-playerPair').check();
  await page.getByRole('button', { name: 'Open the table' }).click();
  await page.getByRole('heading', { name: 'Table PIT1' }).waitFor();
  expect(page.url()).toMatch(/#\/pit\/tables\/PIT1$/);
  const view = await stack.api('GET', '/api/tables/PIT1');
  expect(view.rules).toMatchObject({
    dealing: 'live',
    decks: 6,
    cutCard: 14,
    commission: 'box',
    bettingSeconds: 45,
  });
  expect(view.rules.sideBets).toEqual({ playerPair: { paytable: '11-to-1', min: 100, max: 100_000 } });
  expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  expect(failures).toEqual(['409 POST /api/tables']);
  await page.context().close();
});

/** A live coup on `tableId` that alice wins on banker, 7 to 5: $5 box commission owed. */
async function bankerWin(tableId: string) {
  const t = `/api/tables/${tableId}`;
  await stack.api('POST', `${t}/shoes`, { firstCard: '5h' }, dealer);
  await stack.api('POST', `${t}/rounds`, {}, dealer);
  await stack.api('POST', `${t}/rounds/1/bets`, { playerId: 'alice', spot: 'banker', amount: 10_000 });
  await stack.api('POST', `${t}/rounds/1/close`, {}, dealer);
  for (const card of ['2c', '7d', '3s', 'Kh', 'Kc'])
    await stack.api('POST', `${t}/rounds/1/cards`, { card }, dealer);
}

it('buys players in, and cashes one out with the commission collected shown', async () => {
  await tableWith('CASH1', { dealing: 'live', commission: 'box' });
  const { page, errors, failures } = await pitAt('#/pit/tables/CASH1');
  await field(page, 'playerId').fill('alice');
  await field(page, 'amount').fill('1000');
  await page.getByRole('button', { name: 'Buy in', exact: true }).click();
  await page.getByRole('status').getByText('alice bought in $1,000: $1,000 in chips.').waitFor();
  await field(page, 'playerId').fill('bob');
  await field(page, 'amount').fill('250.50');
  await page.getByRole('button', { name: 'Buy in', exact: true }).click();
  await page.getByRole('status').getByText('bob bought in $250.50: $250.50 in chips.').waitFor();
  await bankerWin('CASH1');
  const alice = page.locator('.players-table tr', { hasText: 'alice' });
  await alice.getByRole('cell', { name: '$5', exact: true }).waitFor({ timeout: 10_000 }); // commission owed
  expect(await alice.textContent()).toMatch(/alice\$1,100\$5/);
  await page.getByRole('button', { name: 'Cash out alice' }).click();
  await page.getByText('alice: paid $1,095 in cash, commission collected $5').waitFor();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'pit-table');
  expect({ errors, failures }).toEqual({ errors: [], failures: [] });
  await page.context().close();
});

it('a buy-in whose answer was lost, clicked again, is recorded once (the same Idempotency-Key)', async () => {
  await tableWith('RETRY1', {});
  const { page } = await pitAt('#/pit/tables/RETRY1');
  const keys: (string | undefined)[] = [];
  let lost = false;
  await page.route('**/api/tables/RETRY1/players/carol/buy-in', async (route) => {
    keys.push(route.request().headers()['idempotency-key']);
    if (lost) return route.continue();
    lost = true;
    await route.fetch(); // the service records the buy-in; its answer never reaches the page
    await route.abort('connectionreset');
  });
  await field(page, 'playerId').fill('carol');
  await field(page, 'amount').fill('500');
  await page.getByRole('button', { name: 'Buy in', exact: true }).click();
  await page.getByRole('alert').getByText('The service cannot be reached.').waitFor();
  await page.getByRole('button', { name: 'Buy in', exact: true }).click();
  await page.getByRole('status').getByText('carol bought in $500: $500 in chips.').waitFor();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
  expect(keys[1]).toBe(keys[0]);
  expect((await stack.api('GET', '/api/tables/RETRY1')).players).toEqual([
    { playerId: 'carol', chips: 50_000, commissionOwed: 0 },
  ]);
  await page.context().close();
});

it('closes the table with every player cashed out when players still hold chips', async () => {
  await tableWith('CLOSE1', {}, { bob: 25_050 });
  const { page, errors, failures } = await pitAt('#/pit/tables/CLOSE1');
  await page.getByRole('button', { name: 'Close the table' }).click();
  await page
    .getByRole('alert')
    .getByText(/Players still hold chips at this table/)
    .waitFor();
  await page.getByRole('button', { name: 'Cash out every player and close' }).click();
  await page.getByText('bob: paid $250.50 in cash, commission collected $0').waitFor();
  await page.locator('.table-header .phase-closed').waitFor();
  expect((await stack.api('GET', '/api/tables/CLOSE1')).status).toBe('closed');
  expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  expect(failures).toEqual(['409 DELETE /api/tables/CLOSE1']);
  await page.context().close();
});

it('makes a staff account in Simplified Chinese, a refused password shown at the password in Chinese', async () => {
  const { page, errors, failures } = await pitAt('#/pit/staff');
  await page.locator('tr[data-account="pit.ann"]').waitFor();
  await page.getByLabel('Language').selectOption('zh');
  await page.getByRole('heading', { name: '员工账户' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  await field(page, 'username').fill('dealer.dan');
  await field(page, 'password').fill('short');
  await page.getByRole('checkbox', { name: '主管' }).check();
  await field(page, 'tables').fill('BAC1, LIVE9');
  await page.getByRole('button', { name: '创建账户' }).click();
  // the field's own words in Chinese; the service's English beside them, marked as English
  expect(await refusalAt(page, 'password')).toBe(
    '至少 12 个字符。 (VALIDATION_FAILED: password must be longer than or equal to 12 characters)',
  );
  expect(await page.locator('#field-password-error .refusal-detail').getAttribute('lang')).toBe('en');
  await expectNoSeriousA11yViolations(page);
  await field(page, 'password').fill('another horse battery');
  await page.getByRole('button', { name: '创建账户' }).click();
  await page.getByRole('status').getByText('账户 dealer.dan 已创建。').waitFor();
  const row = page.locator('tr[data-account="dealer.dan"]');
  expect(await row.textContent()).toMatch(/dealer\.dan荷官、主管BAC1、LIVE9正常从未/);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'pit-staff-zh');
  const made = await stack.api('GET', '/api/staff/dealer.dan');
  expect(made).toMatchObject({
    roles: ['dealer', 'supervisor'],
    tables: ['BAC1', 'LIVE9'],
    createdBy: 'pit.ann',
  });
  expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  expect(failures).toEqual(['400 POST /api/staff']);
  await page.context().close();
});

it('signs out: the sign-in screen again, and the token ends at the service', async () => {
  const { page, errors, failures } = await pitAt('#/pit');
  const token = (await page.evaluate(() => sessionStorage.getItem('coup.token')))!;
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
  await expect(stack.api('GET', '/api/tables', undefined, token)).rejects.toThrow(/401/);
  expect({ errors, failures }).toEqual({ errors: [], failures: [] });
  await page.context().close();
});

it("a launch link opened in the pit's tab ends the pit's sign-in before the player's page opens", async () => {
  const { page } = await pitAt('#/pit');
  const staff = (await page.evaluate(() => sessionStorage.getItem('coup.token')))!;
  const player = stack.token('player', 'pia');
  await page.goto(`${stack.url}/#token=${player}`);
  await page.locator('.app-header .who', { hasText: 'pia' }).waitFor({ timeout: 15_000 });
  expect(await page.evaluate(() => sessionStorage.getItem('coup.token'))).toBe(player);
  await expect(stack.api('GET', '/api/tables', undefined, staff)).rejects.toThrow(/401/);
  await page.context().close();
});
