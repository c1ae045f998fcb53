/**
 * The pit boss in real Chromium against the built service, signed in with a password: the tables overview (in
 * Simplified Chinese, then English), a dealt card clicked and corrected, a round voided, and the coup just settled
 * corrected with a reason (its settlement reversed and made again: the player's chips follow). Each test has its
 * own page, signed in on its own, and its own table: none needs another to have run. axe finds no serious
 * violation.
 */
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { signInWithPassword } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
let dealer: string;
const BOSS = { username: 'boss.sue', password: 'correct horse battery' };

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  dealer = stack.token('dealer', 'dora');
  await stack.api('POST', '/api/staff', { ...BOSS, roles: ['supervisor'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A live table with alice's $1,000 of chips and a shoe started, for one test. */
async function liveTable(tableId: string) {
  await stack.api('POST', '/api/tables', { tableId, rules: { dealing: 'live' } });
  await stack.api('POST', `/api/tables/${tableId}/players/alice/buy-in`, { amount: 100_000 });
  await stack.api('POST', `/api/tables/${tableId}/shoes`, { firstCard: '5h' }, dealer);
}

/** A round with alice's $100 on banker, betting closed, and these cards dealt. */
async function roundWith(tableId: string, roundNo: number, cards: readonly string[]) {
  const r = `/api/tables/${tableId}/rounds`;
  await stack.api('POST', r, {}, dealer);
  await stack.api('POST', `${r}/${roundNo}/bets`, { playerId: 'alice', spot: 'banker', amount: 10_000 });
  await stack.api('POST', `${r}/${roundNo}/close`, {}, dealer);
  for (const card of cards) await stack.api('POST', `${r}/${roundNo}/cards`, { card }, dealer);
}

/** A page of the test's own, signed in as the pit boss, at the table's screen; what the browser logged as errors. */
async function bossAt(tableId: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.page(1280, 800);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await signInWithPassword(page, stack.url, BOSS.username, BOSS.password);
  await page.evaluate((id) => (window.location.hash = `#/supervisor/tables/${id}`), tableId);
  await page.getByRole('heading', { name: `Table ${tableId}` }).waitFor();
  return { page, errors };
}

const cardButton = (page: Page, name: string | RegExp) => page.getByRole('button', { name });

it('signs in (in Simplified Chinese) and sees the tables overview', async () => {
  await liveTable('LIVE1');
  await liveTable('LIVE2');
  await roundWith('LIVE2', 1, []);
  // an rng table with a timed round open and a bet on it: the overview's countdown and bettors
  await stack.api('POST', '/api/tables', { tableId: 'RNG1', rules: { dealing: 'rng', bettingSeconds: 300 } });
  await stack.api('POST', '/api/tables/RNG1/players/bob/buy-in', { amount: 20_000 });
  await stack.api('POST', '/api/tables/RNG1/shoes', {}, dealer);
  await stack.api('POST', '/api/tables/RNG1/rounds', {}, dealer);
  await stack.api('POST', '/api/tables/RNG1/rounds/1/bets', {
    playerId: 'bob',
    spot: 'player',
    amount: 2_500,
  });
  const page = await browser.page(1280, 800);
  await page.goto(`${stack.url}/`);
  await page.getByLabel('Language').selectOption('zh');
  await page.getByRole('heading', { name: '员工登录' }).waitFor();
  await signInWithPassword(page, stack.url, BOSS.username, BOSS.password);
  const row = page.locator('tr[data-table=LIVE1]');
  await row.getByText('就绪').waitFor({ timeout: 15_000 });
  expect(await page.locator('.app-header').textContent()).toMatch(/巡场主管.*boss\.sue（主管）/);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('语言').selectOption('en');
  await page.locator('tr[data-table=LIVE2]').getByText('dealing', { exact: true }).waitFor();
  expect(await page.locator('tr[data-table=RNG1]').textContent()).toMatch(
    /players: 1 · betting: 1.*closes in \d:\d\d/,
  );
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'supervisor-overview');
  await row.getByRole('link', { name: 'LIVE1' }).click();
  await page.getByRole('heading', { name: 'Table LIVE1' }).waitFor();
  await page.context().close();
});

it('clicks a dealt card to correct it, then voids the round', async () => {
  await liveTable('FIX1');
  const { page, errors } = await bossAt('FIX1');
  await roundWith('FIX1', 1, ['2c', '7d']);
  await cardButton(page, "Correct card 2, banker's first card: 7 of diamonds").click();
  await page.getByLabel('The right card').fill('6d');
  await page.getByRole('button', { name: 'Correct the card' }).click();
  await page.getByRole('status').getByText('Card 2 corrected: 7 of diamonds is now 6 of diamonds.').waitFor();
  await cardButton(page, "Correct card 2, banker's first card: 6 of diamonds").waitFor();
  expect(
    (await stack.api('GET', '/api/tables/FIX1')).round.cards.map((c: { card: string }) => c.card),
  ).toEqual(['2c', '6d']);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Reason to void').fill('dealer exposed a card');
  await page.getByRole('button', { name: 'Void the round' }).click();
  await page.getByRole('status').getByText('Round 1 voided: every bet returned.').waitFor();
  await page.getByText('Voided by boss.sue: dealer exposed a card').waitFor();
  const view = await stack.api('GET', '/api/tables/FIX1');
  expect(view.round).toMatchObject({
    status: 'voided',
    voided: { reason: 'dealer exposed a card', by: 'boss.sue' },
  });
  expect(view.players).toEqual([{ playerId: 'alice', chips: 100_000, commissionOwed: 0 }]);
  expect(errors).toEqual([]);
  await page.context().close();
});

it('corrects the coup just settled with a reason: the result and the chips follow', async () => {
  await liveTable('FIX2');
  const { page, errors } = await bossAt('FIX2');
  // player 2c 3s Kc = 5, banker 7d Kh = 7: banker wins, alice paid $195 (5% deducted)
  await roundWith('FIX2', 1, ['2c', '7d', '3s', 'Kh', 'Kc']);
  await page.getByText('Banker wins 7 to 5').waitFor({ timeout: 10_000 });
  expect((await stack.api('GET', '/api/tables/FIX2')).players[0].chips).toBe(109_500);
  await cardButton(page, "Correct card 5, player's third card: king of clubs").click();
  await page.getByLabel('The right card').fill('4c');
  await page.getByRole('button', { name: 'Correct the card' }).click();
  await page.locator('#field-reason[aria-invalid=true]').waitFor(); // a settled coup needs a reason
  await page.getByLabel('Reason', { exact: true }).fill('third card misread');
  await screenshot(page, 'supervisor-correction');
  await page.getByRole('button', { name: 'Correct the card' }).click();
  await page.getByRole('status').getByText('Card 5 corrected: king of clubs is now 4 of clubs.').waitFor();
  await page.getByText('Player wins 9 to 7').waitFor();
  await expectNoSeriousA11yViolations(page);
  const view = await stack.api('GET', '/api/tables/FIX2');
  expect(view.round.result).toMatchObject({ outcome: 'player', playerTotal: 9, bankerTotal: 7 });
  expect(view.players[0].chips).toBe(90_000); // the banker bet lost after all
  const hand = await stack.api('GET', '/api/tables/FIX2/hands/1');
  expect(JSON.stringify(hand)).toMatch(/third card misread/);
  expect(errors).toEqual([]);
  await page.context().close();
});
