/**
 * A live table whose rules ask the dealer to confirm each result (`confirmResult`), in real Chromium on the built
 * service: the dealer types the coup's cards, the last one shows the result (winner, totals) and a Confirm button
 * instead of the card field, and Enter settles it (one `POST .../confirm`, never a card). Before confirming, a
 * supervisor corrects a card from the pit boss screen: the dealer's screen shows the corrected result, and Enter
 * settles that one. No serious accessibility violation.
 */
import type { Page, Request } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { openWithToken } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

const TABLE = 'CONFIRM1';
let stack: Stack;
let browser: BrowserSession;
let page: Page;
/** The dealer page's commands: `<method> <path>` and the body. */
const commands: { call: string; body: string | null }[] = [];

const api = (path: string) => `/api/tables/${TABLE}${path}`;
const view = () => stack.api('GET', api(''));

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await stack.api('POST', '/api/tables', {
    tableId: TABLE,
    rules: { dealing: 'live', decks: 2, confirmResult: true },
  });
  await stack.api('POST', api('/players/alice/buy-in'), { amount: 100_000 });
  await stack.api('POST', api('/shoes'), { firstCard: '5h' }, stack.token('dealer', 'eve'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const field = () => page.getByLabel(/Enter card/);
const pending = () => page.getByRole('region', { name: 'result to confirm' });

/** Betting opened and closed by the dealer's keys, alice's $10 on `spot` between; then the cards typed. */
async function dealByKeyboard(roundNo: number, spot: string, cards: readonly string[]) {
  await page.keyboard.press('o');
  await page.locator('.table-header .phase-betting').waitFor();
  await stack.api(
    'POST',
    api(`/rounds/${roundNo}/bets`),
    { playerId: 'alice', spot, amount: 1_000 },
    stack.token('player', 'alice'),
  );
  await page.keyboard.press('m');
  await field().waitFor();
  for (const [i, card] of cards.entries()) {
    await page.keyboard.type(card);
    await page.keyboard.press('Enter');
    await page.locator('.hand .playing-card').nth(i).waitFor();
  }
}

it('the last card shows the result and a Confirm button; Enter settles the coup', async () => {
  page = await browser.page(1920, 1080);
  page.on('request', (r: Request) => {
    if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/'))
      commands.push({ call: `${r.method()} ${new URL(r.url()).pathname}`, body: r.postData() });
  });
  await openWithToken(page, stack.url, stack.token('dealer', 'eve'), `#/tables/${TABLE}`);
  await page.locator('.conn-live').waitFor({ timeout: 15_000 });
  // player 4s 5s = 9, banker Kc 7c = 7: complete on its fourth card, not settled
  await dealByKeyboard(1, 'player', ['4s', 'Kc', '5s', '7c']);
  await pending()
    .getByText(/Player wins\s*9 to 7/)
    .waitFor();
  expect(await pending().textContent()).toContain('Round 1 is complete');
  await page.getByRole('button', { name: /^Confirm/ }).waitFor();
  expect(await field().count()).toBe(0); // no card is due: no field for one
  let v = await view();
  expect(v.round).toMatchObject({ roundNo: 1, status: 'dealing', result: null, next: { to: 'complete' } });
  expect(v.players[0].chips).toBe(99_000);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'dealer-confirm-result');

  await page.keyboard.press('Enter');
  await page
    .locator('.result:not(.result-pending) .result-line')
    .filter({ hasText: /Player wins\s*9 to 7/ })
    .waitFor();
  v = await view();
  expect(v.round).toMatchObject({ roundNo: 1, status: 'resolved', result: { outcome: 'player' } });
  expect(v.players[0].chips).toBe(101_000); // the $10 stake back and $10 won
  expect(commands.map((c) => c.call)).toEqual([
    `POST /api/tables/${TABLE}/rounds`,
    `POST /api/tables/${TABLE}/rounds/1/close`,
    ...['4s', 'Kc', '5s', '7c'].map(() => `POST /api/tables/${TABLE}/rounds/1/cards`),
    `POST /api/tables/${TABLE}/rounds/1/confirm`,
  ]);
  expect(commands.filter((c) => c.call.endsWith('/cards')).map((c) => JSON.parse(c.body ?? '{}'))).toEqual(
    ['4s', 'Kc', '5s', '7c'].map((card) => ({ card })),
  );
  expect(browser.errors).toEqual([]);
});

it('a supervisor corrects a card before the dealer confirms: the corrected result is the one settled', async () => {
  commands.length = 0;
  // player 3c 4s = 7, banker 4d 3h = 7: a tie, complete (both stand)
  await dealByKeyboard(2, 'banker', ['3c', '4d', '4s', '3h']);
  await pending()
    .getByText(/Tie\s*7 to 7/)
    .waitFor();

  // the supervisor, on the same table's dealer screen, goes to correct the card from there
  const boss = await browser.page(1280, 900);
  await openWithToken(boss, stack.url, stack.token('supervisor', 'sue'), `#/tables/${TABLE}`);
  await boss.getByRole('link', { name: 'Correct a card first' }).click();
  await boss.getByRole('button', { name: /Correct card 4, banker's second card: 3 of hearts/ }).click();
  await boss.getByLabel('The right card').fill('2h');
  await boss.getByRole('button', { name: 'Correct the card' }).click();
  await boss.getByRole('status').getByText('Card 4 corrected: 3 of hearts is now 2 of hearts.').waitFor();

  // the dealer's screen follows: banker 6 stands, player wins 7 to 6; Enter settles that result
  await pending()
    .getByText(/Player wins\s*7 to 6/)
    .waitFor();
  await page.keyboard.press('Enter');
  await page
    .locator('.result:not(.result-pending) .result-line')
    .filter({ hasText: /Player wins\s*7 to 6/ })
    .waitFor();
  const v = await view();
  expect(v.round).toMatchObject({
    roundNo: 2,
    status: 'resolved',
    result: { outcome: 'player', playerTotal: 7, bankerTotal: 6 },
  });
  expect(v.players[0].chips).toBe(100_000); // alice's banker bet lost
  expect(commands.map((c) => c.call).filter((c) => c.endsWith('/confirm'))).toEqual([
    `POST /api/tables/${TABLE}/rounds/2/confirm`,
  ]);
  expect(browser.errors).toEqual([]);
});
