/**
 * Side bets in real Chromium on the built service: the pit opens a player's personal table as an EZ Baccarat game
 * with side bets; the player page offers exactly those side bets (what each pays, its limits) and places one beside
 * a main bet; the dealer console following the table shows the game mode and side bets offered, the side bet staked,
 * and once the player deals, its settlement (label, paytable, result, paid) as the service recorded it. And the
 * remaining-shoe edge monitor: on a one-deck EZ table whose first coup leaves Dragon 7 favourable, the dealer
 * console shows the alert.
 */
import type { Page } from 'playwright-core';
import { ONLINE_RULES } from '@coup/table';
import { openWithToken } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

const PLAYER = 'sam';
const TABLE = `online-${PLAYER}`;
const RULES = {
  ...ONLINE_RULES,
  game: 'ez',
  sideBets: { playerPair: {}, dragon7: { min: 100, max: 2000 }, panda8: { paytable: '25-to-1' } },
};

let stack: Stack;
let browser: BrowserSession;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await stack.api('POST', '/api/tables', { tableId: TABLE, rules: RULES });
  await stack.api('POST', `/api/tables/${TABLE}/players/${PLAYER}/buy-in`, { amount: 100_000 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface ServiceSettlement {
  playerId: string;
  spot: string;
  amount: number;
  result: string;
  paid: number;
  paytable?: string;
}

async function signIn(page: Page, token: string, hash: string) {
  await openWithToken(page, stack.url, token, hash);
}

const field = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^Bet on ${name}\\s*pays`) });

async function totalIs(page: Page, text: string) {
  await page.getByTestId('total-bet').filter({ hasText: text }).waitFor({ timeout: 10_000 });
}

/** The text of each cell of each body row of a table. */
async function rowsOf(page: Page, tableName: string): Promise<string[][]> {
  const table = page.getByRole('table', { name: tableName });
  await table.waitFor({ timeout: 10_000 });
  return table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent ?? '')));
}

it('the player page offers the side bets of its table and places one; the dealer console shows it and its settlement', async () => {
  const dealer = await browser.page(1280, 800);
  await signIn(dealer, stack.token('dealer', 'dora'), `#/tables/${TABLE}`);
  await dealer.locator('.conn-live').waitFor({ timeout: 15_000 });
  const rules = dealer.getByTestId('rules-summary');
  await rules.filter({ hasText: 'EZ Baccarat' }).waitFor();
  expect(await rules.textContent()).toContain('side bets: Player Pair 11:1, Dragon 7 40:1, Panda 8 25:1');

  // The player page: its table's side bets, each with what it pays and its limits.
  const player = await browser.page(1280, 900);
  await signIn(player, stack.token('player', PLAYER), '#/play');
  const side = player.getByLabel('side bets');
  await side.waitFor({ timeout: 15_000 });
  expect(await side.locator('.bet-name').allTextContents()).toEqual(['Player Pair', 'Dragon 7', 'Panda 8']);
  expect(await field(player, 'Dragon 7').textContent()).toContain('pays 40:1');
  expect(await field(player, 'Dragon 7').textContent()).toContain('$1–$20');
  expect(await field(player, 'Banker').textContent()).toContain('a 3-card 7 pushes');

  // $1 on Player, then $1 on Dragon 7 (a side bet goes with a main bet).
  await player.getByRole('button', { name: '$1 chip', exact: true }).click();
  await field(player, 'Player').click();
  await totalIs(player, 'Total bet: $1');
  await field(player, 'Dragon 7').click();
  await totalIs(player, 'Total bet: $2');

  // The dealer console shows the side bet staked, as soon as the table it follows has it.
  await dealer
    .getByRole('table', { name: 'Side bets' })
    .locator('tbody tr', { hasText: PLAYER })
    .waitFor({ timeout: 10_000 });
  expect(await rowsOf(dealer, 'Side bets')).toEqual([
    [PLAYER, 'Dragon 7', '$1'],
    ['total', 'Dragon 7', '$1'],
  ]);
  await screenshot(player, 'player-side-bets');

  // The player deals; the round it bet on is settled, and the next opens with the deal.
  const { roundNo } = await stack.api<{ roundNo: number }>('GET', `/api/tables/${TABLE}`);
  await player.getByRole('button', { name: 'DEAL', exact: true }).click();
  await player.getByTestId('coup-result').filter({ hasText: 'Dragon 7' }).waitFor({ timeout: 15_000 });
  const view = await stack.api<{ lastResult: { roundNo: number; settlements: ServiceSettlement[] } }>(
    'GET',
    `/api/tables/${TABLE}`,
  );
  expect(view.lastResult.roundNo).toBe(roundNo);
  const dragon = view.lastResult.settlements.find((s) => s.spot === 'dragon7')!;
  expect(dragon).toMatchObject({ playerId: PLAYER, amount: 100, paytable: '40-to-1' });

  // The dealer console: the coup's payouts, the side bet by its label with its paytable, result and paid.
  const caption = `Payouts, round ${roundNo}`;
  await dealer.getByTestId('last-coup').getByRole('table', { name: caption }).waitFor({ timeout: 10_000 });
  const payouts = await rowsOf(dealer, caption);
  expect(payouts).toContainEqual([
    PLAYER,
    'Dragon 7',
    '40-to-1 (40:1)',
    '$1',
    dragon.result,
    dragon.paid === 0 ? '$0' : `$${dragon.paid / 100}`,
    '',
  ]);
  expect(payouts.map((r) => r[1])).toEqual(['Player', 'Dragon 7']);
  await screenshot(dealer, 'console-side-bets');
  expect(await dealer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(browser.errors).toEqual([]);
});

it('the dealer console shows an alert when a bet turns player-favourable on the cards left in the shoe', async () => {
  const table = 'EZ1';
  const dealerToken = stack.token('dealer', 'dora');
  const rules = { dealing: 'live', decks: 1, cutCard: 12, game: 'ez', sideBets: { dragon7: {}, panda8: {} } };
  await stack.api('POST', '/api/tables', { tableId: table, rules });
  await stack.api('POST', `/api/tables/${table}/players/p1/buy-in`, { amount: 100_000 });
  const dealer = await browser.page(1280, 800);
  await signIn(dealer, dealerToken, `#/tables/${table}`);
  await dealer.locator('.conn-live').waitFor({ timeout: 15_000 });

  // The 8d turned (8 burnt, unseen), then player 9h Qc (a natural 9), banker Qs 3d: 5 cards of the deck seen.
  const command = (path: string, body: unknown = {}) =>
    stack.api('POST', `/api/tables/${table}${path}`, body, dealerToken);
  await command('/shoes', { firstCard: '8d' });
  await command('/rounds');
  await stack.api(
    'POST',
    `/api/tables/${table}/rounds/1/bets`,
    { playerId: 'p1', spot: 'player', amount: 1000 },
    stack.token('player', 'p1'),
  );
  expect(await dealer.getByTestId('edge-alert').count()).toBe(0);
  await command('/rounds/1/close');
  for (const card of ['9h', 'Qs', 'Qc', '3d']) await command('/rounds/1/cards', { card });

  const alert = dealer.getByTestId('edge-alert');
  await alert.waitFor({ timeout: 15_000 });
  expect(await alert.textContent()).toMatch(
    /^Player-favourable now: Dragon 7 \(EV \+\d+\.\d\d% of the stake\) with 47 cards unseen in shoe 1, before round 2/,
  );
  await screenshot(dealer, 'console-edge-alert');
  expect(browser.errors).toEqual([]);
});
