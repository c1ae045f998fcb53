/**
 * The pit boss in real Chromium against the built service, signed in with a password (in Simplified Chinese, then
 * English): the tables overview, a dealt card clicked and corrected, a round voided, and the coup just settled
 * corrected with a reason (its settlement reversed and made again: the player's chips follow). axe finds no
 * serious violation.
 */
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { signInWithPassword } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
let page: Page;
let dealer: string;
const BOSS = { username: 'boss.sue', password: 'correct horse battery' };
const TABLE = 'LIVE2';

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await stack.api('POST', '/api/staff', { ...BOSS, roles: ['supervisor'] });
  await stack.api('POST', '/api/tables', { tableId: TABLE, rules: { dealing: 'live' } });
  await stack.api('POST', `/api/tables/${TABLE}/players/alice/buy-in`, { amount: 100_000 });
  dealer = stack.token('dealer', 'dora');
  await stack.api('POST', `/api/tables/${TABLE}/shoes`, { firstCard: '5h' }, dealer);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const table = (path: string) => `/api/tables/${TABLE}${path}`;

/** A round with alice's $100 on banker, betting closed, and these cards dealt. */
async function roundWith(roundNo: number, cards: readonly string[]) {
  await stack.api('POST', table('/rounds'), {}, dealer);
  await stack.api('POST', table(`/rounds/${roundNo}/bets`), {
    playerId: 'alice',
    spot: 'banker',
    amount: 10_000,
  });
  await stack.api('POST', table(`/rounds/${roundNo}/close`), {}, dealer);
  for (const card of cards) await stack.api('POST', table(`/rounds/${roundNo}/cards`), { card }, dealer);
}

const cardButton = (name: string | RegExp) => page.getByRole('button', { name });

it('signs in (in Simplified Chinese) and sees the tables overview', async () => {
  page = await browser.page(1280, 800);
  await page.goto(`${stack.url}/`);
  await page.getByLabel('Language').selectOption('zh');
  await page.getByRole('heading', { name: '员工登录' }).waitFor();
  await signInWithPassword(page, stack.url, BOSS.username, BOSS.password);
  const row = page.locator(`tr[data-table=${TABLE}]`);
  await row.getByText('就绪').waitFor({ timeout: 15_000 });
  expect(await page.locator('.app-header').textContent()).toMatch(/巡场主管.*boss\.sue（主管）/);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('语言').selectOption('en');
  await row.getByRole('link', { name: TABLE }).click();
  await page.getByRole('heading', { name: `Table ${TABLE}` }).waitFor();
});

it('clicks a dealt card to correct it, then voids the round', async () => {
  await roundWith(1, ['2c', '7d']);
  await cardButton("Correct card 2, banker's first card: 7 of diamonds").click();
  await page.getByLabel('The right card').fill('6d');
  await page.getByRole('button', { name: 'Correct the card' }).click();
  await page.getByRole('status').getByText('Card 2 corrected: 7 of diamonds is now 6 of diamonds.').waitFor();
  await cardButton("Correct card 2, banker's first card: 6 of diamonds").waitFor();
  expect((await stack.api('GET', table(''))).round.cards.map((c: { card: string }) => c.card)).toEqual([
    '2c',
    '6d',
  ]);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Reason to void').fill('dealer exposed a card');
  await page.getByRole('button', { name: 'Void the round' }).click();
  await page.getByRole('status').getByText('Round 1 voided: every bet returned.').waitFor();
  await page.getByText('Voided by boss.sue: dealer exposed a card').waitFor();
  const view = await stack.api('GET', table(''));
  expect(view.round).toMatchObject({
    status: 'voided',
    voided: { reason: 'dealer exposed a card', by: 'boss.sue' },
  });
  expect(view.players).toEqual([{ playerId: 'alice', chips: 100_000, commissionOwed: 0 }]);
});

it('corrects the coup just settled with a reason: the result and the chips follow', async () => {
  // player 2c 3s Kc = 5, banker 7d Kh = 7: banker wins, alice paid $195 (5% deducted)
  await roundWith(2, ['2c', '7d', '3s', 'Kh', 'Kc']);
  await page.getByText('Banker wins 7 to 5').waitFor({ timeout: 10_000 });
  expect((await stack.api('GET', table(''))).players[0].chips).toBe(109_500);
  await cardButton("Correct card 5, player's third card: king of clubs").click();
  await page.getByLabel('The right card').fill('4c');
  await page.getByRole('button', { name: 'Correct the card' }).click();
  await page.locator('#field-reason[aria-invalid=true]').waitFor(); // a settled coup needs a reason
  await page.getByLabel('Reason', { exact: true }).fill('third card misread');
  await screenshot(page, 'supervisor-correction');
  await page.getByRole('button', { name: 'Correct the card' }).click();
  await page.getByRole('status').getByText('Card 5 corrected: king of clubs is now 4 of clubs.').waitFor();
  await page.getByText('Player wins 9 to 7').waitFor();
  await expectNoSeriousA11yViolations(page);
  const view = await stack.api('GET', table(''));
  expect(view.round.result).toMatchObject({ outcome: 'player', playerTotal: 9, bankerTotal: 7 });
  expect(view.players[0].chips).toBe(90_000); // the banker bet lost after all
  const hand = await stack.api('GET', table('/hands/2'));
  expect(JSON.stringify(hand)).toMatch(/third card misread/);
  expect(browser.errors).toEqual([]);
});
