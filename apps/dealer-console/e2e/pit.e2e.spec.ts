/**
 * The pit (admin) in real Chromium against the built service: signing in with a password, every table at a
 * glance, opening a table with a refused field shown at that field, buying a player in and cashing out with the
 * box commission collected, closing a table with every player cashed out, a staff account made, the screens in
 * Simplified Chinese, and signing out. axe finds no serious violation on any of them.
 */
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { signInWithPassword } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
let page: Page;
const ADMIN = { username: 'pit.ann', password: 'correct horse battery' };

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await stack.api('POST', '/api/staff', { ...ADMIN, roles: ['admin'] });
  // a table in play: a timed round open, so the overview shows its countdown
  await stack.api('POST', '/api/tables', { tableId: 'BAC1', rules: { dealing: 'rng', bettingSeconds: 600 } });
  await stack.api('POST', '/api/tables/BAC1/players/carol/buy-in', { amount: 50_000 });
  const dealer = stack.token('dealer', 'dora');
  await stack.api('POST', '/api/tables/BAC1/shoes', {}, dealer);
  await stack.api('POST', '/api/tables/BAC1/rounds', {}, dealer);
  await stack.api('POST', '/api/tables/BAC1/rounds/1/bets', { playerId: 'carol', spot: 'tie', amount: 1000 });
  // more rows for the overview: a live table with a shoe, an EZ table without one, a closed table
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

const field = (name: string) => page.locator(`#field-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`);
/** The refusal shown at a field: it is marked invalid, and its message is the field's description. */
async function refusalAt(name: string): Promise<string> {
  await page.locator(`#field-${name}[aria-invalid=true]`).waitFor();
  return (await page.locator(`#field-${name}-error`).textContent()) ?? '';
}

it('signs in with a password and shows every table at a glance', async () => {
  page = await browser.page(1280, 800);
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
});

it('opens a table: a refused field is shown at that field, by the form and by the service', async () => {
  await page.getByRole('link', { name: 'Open a table' }).click();
  await field('tableId').fill('BAC1');
  await field('decks').fill('6');
  await field('cutCard').fill('200');
  await page.getByRole('button', { name: 'Open the table' }).click();
  expect(await refusalAt('cutCard')).toMatch(/cutCard must be an integer from 12 to 156/);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-cutCard');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'pit-open-table');
  await field('cutCard').fill('14');
  await page.getByRole('button', { name: 'Open the table' }).click();
  expect(await refusalAt('tableId')).toMatch(/A table with this id exists already/);
  await field('tableId').fill('PIT1');
  await field('dealing').selectOption('live');
  await field('commission').selectOption('box');
  await field('bettingSeconds').fill('45');
  await field('sideBets-playerPair').check();
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
});

/** A live coup on PIT1 that alice wins on banker, 7 to 5: $5 box commission owed. */
async function bankerWin() {
  const dealer = stack.token('dealer', 'dora');
  await stack.api('POST', '/api/tables/PIT1/shoes', { firstCard: '5h' }, dealer);
  await stack.api('POST', '/api/tables/PIT1/rounds', {}, dealer);
  await stack.api('POST', '/api/tables/PIT1/rounds/1/bets', {
    playerId: 'alice',
    spot: 'banker',
    amount: 10_000,
  });
  await stack.api('POST', '/api/tables/PIT1/rounds/1/close', {}, dealer);
  for (const card of ['2c', '7d', '3s', 'Kh', 'Kc'])
    await stack.api('POST', '/api/tables/PIT1/rounds/1/cards', { card }, dealer);
}

it('buys players in, and cashes one out with the commission collected shown', async () => {
  await field('playerId').fill('alice');
  await field('amount').fill('1000');
  await page.getByRole('button', { name: 'Buy in', exact: true }).click();
  await page.getByRole('status').getByText('alice bought in $1,000: $1,000 in chips.').waitFor();
  await field('playerId').fill('bob');
  await field('amount').fill('250.50');
  await page.getByRole('button', { name: 'Buy in', exact: true }).click();
  await page.getByRole('status').getByText('bob bought in $250.50: $250.50 in chips.').waitFor();
  await bankerWin();
  const alice = page.locator('.players-table tr', { hasText: 'alice' });
  await alice.getByRole('cell', { name: '$5', exact: true }).waitFor({ timeout: 10_000 }); // commission owed
  expect(await alice.textContent()).toMatch(/alice\$1,100\$5/);
  await page.getByRole('button', { name: 'Cash out alice' }).click();
  await page.getByText('alice: paid $1,095 in cash, commission collected $5').waitFor();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'pit-table');
});

it('closes the table with every player cashed out when players still hold chips', async () => {
  await page.getByRole('button', { name: 'Close the table' }).click();
  await page
    .getByRole('alert')
    .getByText(/Players still hold chips at this table/)
    .waitFor();
  await page.getByRole('button', { name: 'Cash out every player and close' }).click();
  await page.getByText('bob: paid $250.50 in cash, commission collected $0').waitFor();
  await page.locator('.table-header .phase-closed').waitFor();
  expect((await stack.api('GET', '/api/tables/PIT1')).status).toBe('closed');
});

it('makes a staff account, a refused password shown at the password; in Simplified Chinese', async () => {
  await page.getByRole('link', { name: 'Staff accounts' }).click();
  await page.locator('tr[data-account="pit.ann"]').waitFor();
  await page.getByLabel('Language').selectOption('zh');
  await page.getByRole('heading', { name: '员工账户' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  await field('username').fill('dealer.dan');
  await field('password').fill('short');
  await page.getByRole('checkbox', { name: '主管' }).check();
  await field('tables').fill('PIT1, BAC1');
  await page.getByRole('button', { name: '创建账户' }).click();
  expect(await refusalAt('password')).toMatch(
    /某个值无效。.*password must be longer than or equal to 12 characters/,
  );
  await expectNoSeriousA11yViolations(page);
  await field('password').fill('another horse battery');
  await page.getByRole('button', { name: '创建账户' }).click();
  await page.getByRole('status').getByText('账户 dealer.dan 已创建。').waitFor();
  const row = page.locator('tr[data-account="dealer.dan"]');
  expect(await row.textContent()).toMatch(/dealer\.dan荷官、主管PIT1、BAC1正常从未/);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'pit-staff-zh');
  const made = await stack.api('GET', '/api/staff/dealer.dan');
  expect(made).toMatchObject({
    roles: ['dealer', 'supervisor'],
    tables: ['PIT1', 'BAC1'],
    createdBy: 'pit.ann',
  });
  await page.getByLabel('语言').selectOption('en');
});

it('signs out: the sign-in screen again, and the token ends at the service', async () => {
  const token = (await page.evaluate(() => sessionStorage.getItem('coup.token')))!;
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
  await expect(stack.api('GET', '/api/tables', undefined, token)).rejects.toThrow(/401/);
  // the browser logs the 4xx answers the refusals above came from, and nothing else
  expect(browser.errors.filter((e) => !/status of (400|409)/.test(e))).toEqual([]);
  expect(browser.failures.sort()).toEqual([
    '400 POST /api/staff',
    '409 DELETE /api/tables/PIT1',
    '409 POST /api/tables',
  ]);
});
