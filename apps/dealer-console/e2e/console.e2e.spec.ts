/**
 * The dealer console in real Chromium against the built service: a full live coup run from the keyboard, a
 * refused command, a reconnect that resumes without a gap or a duplicate, a reload mid-coup, a hand replayed and
 * verified, and the layout at 1280x800 and 1920x1080 (screenshots for the README:
 * tmp/screenshots, or docs/screenshots with UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { openWithToken } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

const TABLE = 'LIVE1';
let stack: Stack;
let browser: BrowserSession;
let page: Page;
/** Console errors the browser itself logs for a response we caused on purpose (checked one by one below). */
let expected: RegExp[] = [];

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  // one deck: the turned card is then the only one of its kind, so entering it again is refused by the service
  await stack.api('POST', '/api/tables', { tableId: TABLE, rules: { dealing: 'live', decks: 1 } });
  await stack.api('POST', `/api/tables/${TABLE}/players/alice/buy-in`, { amount: 100_000 });
  await stack.api('POST', `/api/tables/${TABLE}/players/bob/buy-in`, { amount: 50_000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The errors collected so far, less the expected ones (each expected error may appear once). */
function unexpectedErrors(): string[] {
  const left = [...expected];
  return browser.errors.filter((e) => {
    const i = left.findIndex((r) => r.test(e));
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** Signs in with the token through a launch link (`/#token=`), back at the address the page was at. */
async function signIn(p: Page, token: string) {
  await openWithToken(p, stack.url, token, new URL(p.url()).hash || '#/');
}

const phase = () => page.locator('.table-header .phase').textContent();
async function waitPhase(p: string) {
  await page.locator(`.table-header .phase-${p}`).waitFor({ timeout: 10_000 });
}
const nextPrompt = () => page.locator('.next-card strong').textContent();

/** Types a card as a dealer (or a keyboard-style shoe reader) does, then Enter; waits for the next-card prompt. */
async function typeCard(card: string, next: string) {
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
  if (next === 'done') await page.locator('.dealing').waitFor({ state: 'detached', timeout: 10_000 });
  else await page.locator('.next-card strong', { hasText: next }).waitFor({ timeout: 10_000 });
}

async function bet(roundNo: number, playerId: string, spot: string, amount: number) {
  await stack.api(
    'POST',
    `/api/tables/${TABLE}/rounds/${roundNo}/bets`,
    { playerId, spot, amount },
    stack.token('player', playerId),
  );
}

it('a dealer runs a full live coup from the keyboard: new shoe with the turned card, betting, cards, result', async () => {
  page = await browser.page(1280, 800);
  await page.goto(`${stack.url}/#/tables/${TABLE}`);
  await signIn(page, stack.token('dealer', 'dora'));
  await page.locator('.conn-live').waitFor({ timeout: 15_000 });
  expect(await phase()).toBe('idle');

  // N: new shoe; the turned-card field takes focus and says how many to burn
  await page.keyboard.press('n');
  await page.keyboard.type('5h');
  await page.getByText('5 of hearts: burn 5 (Enter)').waitFor();
  await page.keyboard.press('Enter');
  await waitPhase('ready');

  await page.keyboard.press('o');
  await waitPhase('betting');
  await bet(1, 'alice', 'banker', 10_000);
  await bet(1, 'bob', 'player', 5_000);
  await page.getByRole('region', { name: 'bets' }).getByText('(2 players)').waitFor();

  await page.keyboard.press('m');
  await waitPhase('dealing');
  expect(await nextPrompt()).toBe("Player's first card");
  await typeCard('2c', "Banker's first card");
  await typeCard('7d', "Player's second card");
  await typeCard('3s', "Banker's second card");
  await typeCard('Th', "Player's third card"); // player 5 draws
  await typeCard('9c', 'done'); // player 4, banker 7 stands
  const result = page.locator('.result');
  await result.waitFor();
  expect(await result.locator('.result-line').textContent()).toMatch(/Banker wins\s*4 to 7/);
  await page.getByRole('cell', { name: '$195' }).waitFor(); // alice paid 100 + 95 (5% commission deducted)
  // the roads come from the read model once it has the coup
  await page.getByText(/shoe 1, 1 coups \(read model\)/).waitFor({ timeout: 10_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(unexpectedErrors()).toEqual([]);
});

it('a refused command shows the service message where the dealer looks, and the table stays as it is', async () => {
  await page.keyboard.press('o');
  await waitPhase('betting');
  await bet(2, 'alice', 'player', 2_500);
  await page.getByRole('region', { name: 'bets' }).getByText('(1 players)').waitFor();
  await page.keyboard.press('m');
  await waitPhase('dealing');
  // the turned 5h was the deck's only one: the live shoe cannot hold it
  expected.push(/409/);
  await page.keyboard.type('5h');
  await page.keyboard.press('Enter');
  const refusal = page.locator('.refusal');
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/Card 5h refused\s*CARD_NOT_IN_SHOE/);
  // shown in the main column, next to the card field the dealer is typing in
  const [r, field] = await Promise.all([refusal.boundingBox(), page.getByLabel(/Enter card/).boundingBox()]);
  expect(Math.abs((r?.y ?? 0) - (field?.y ?? 1000))).toBeLessThan(300);
  expect(await nextPrompt()).toBe("Player's first card");
  expect(await page.locator('.hand .playing-card').count()).toBe(0);
  expect(unexpectedErrors()).toEqual([]);
});

it('a dropped connection shows a banner and resumes from the last event, without a gap or a duplicate', async () => {
  const before = browser.errors.length;
  const restarted = stack.restart();
  await page.getByText(/Connection lost\. Reconnecting/).waitFor({ timeout: 10_000 });
  await restarted;
  // while the console is still away, a card is dealt from another console: it must arrive on resume
  await stack.api(
    'POST',
    `/api/tables/${TABLE}/rounds/2/cards`,
    { card: '4c' },
    stack.token('dealer', 'eve'),
  );
  await page.locator('.conn-live').waitFor({ timeout: 20_000 });
  await page
    .getByRole('region', { name: 'player hand' })
    .getByLabel('4 of clubs')
    .waitFor({ timeout: 10_000 });
  expect(await page.getByText(/Connection lost/).count()).toBe(0);
  const revisions = await page.locator('.event-log li .muted').allTextContents();
  expect(new Set(revisions).size).toBe(revisions.length);
  const numbers = revisions.map((t) => Number(t.slice(1))).sort((a, b) => a - b);
  // Every event but the three bets, which the console gets as totals (the coalesced stream): no other gap.
  const span = (numbers.at(-1) ?? 0) - (numbers[0] ?? 0) + 1;
  expect(span - numbers.length).toBe(3);
  // the browser logs the refused connections while the service was down: only those
  for (const e of browser.errors.slice(before))
    expect(e).toMatch(/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource|net::/);
  expected = [...expected, ...browser.errors.slice(before).map(() => /./)];

  // a reload in the middle of the coup shows the coup as it stands
  await page.reload();
  await page.locator('.conn-live').waitFor({ timeout: 15_000 });
  await page.getByRole('region', { name: 'player hand' }).getByLabel('4 of clubs').waitFor();
  expect(await nextPrompt()).toBe("Banker's first card");
  await typeCard('8d', "Player's second card");
  await typeCard('5s', "Banker's second card");
  await typeCard('Kh', 'done');
  expect(await page.locator('.result .result-line').textContent()).toMatch(
    /Player wins\s*9 to 8\s*\(natural\)/,
  );
  await page.getByText(/shoe 1, 2 coups \(read model\)/).waitFor({ timeout: 10_000 });
  expect(unexpectedErrors()).toEqual([]);
});

/** More coups dealt through the API (naturals, four cards each; one deck, so no card twice). */
const MORE_COUPS = [
  ['4d', '2d', '5c', '3d'], // player 9 - 5
  ['6c', 'Ac', '3c', '2h'], // player 9 - 3
  ['Ad', '9d', '2s', 'Jc'], // banker 9 - 3
  ['3h', '8c', 'Jd', 'Qc'], // banker 8 - 3
  ['4h', '9h', 'Qd', 'Ks'], // banker 9 - 4
  ['8h', '6d', 'Kd', 'Qh'], // player 8 - 6
];

it('the layout holds at 1280x800 and on a 1920x1080 dealer monitor, with the roads of a longer shoe', async () => {
  const dealer = stack.token('dealer', 'eve');
  for (const [i, cards] of MORE_COUPS.entries()) {
    const roundNo = 3 + i;
    await stack.api('POST', `/api/tables/${TABLE}/rounds`, {}, dealer);
    await bet(roundNo, i % 2 ? 'alice' : 'bob', i % 3 ? 'banker' : 'player', 2_500);
    await stack.api('POST', `/api/tables/${TABLE}/rounds/${roundNo}/close`, {}, dealer);
    for (const card of cards)
      await stack.api('POST', `/api/tables/${TABLE}/rounds/${roundNo}/cards`, { card }, dealer);
  }
  // the 1280 console followed it all live; the roads come from the read model
  await page.getByText(/shoe 1, 8 coups \(read model\)/).waitFor({ timeout: 10_000 });
  const drawn = async (p: Page, road: string) =>
    p.getByLabel(road, { exact: true }).locator('.derived').count();
  // big road columns B | PPP | BBB | P (lengths 1 3 3 1): big eye boy from (1,1): blue red, blue red red, red;
  // small road from (2,1): blue red, blue; cockroach pig would start at (3,1) or (4,0): none yet
  expect([
    await drawn(page, 'Big eye boy'),
    await drawn(page, 'Small road'),
    await drawn(page, 'Cockroach pig'),
  ]).toEqual([6, 3, 0]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'console-table-1280');

  const big = await browser.page(1920, 1080);
  await big.goto(`${stack.url}/#/tables/${TABLE}`);
  await signIn(big, stack.token('dealer', 'dora'));
  await big.locator('.conn-live').waitFor({ timeout: 15_000 });
  await big.getByText(/shoe 1, 8 coups \(read model\)/).waitFor({ timeout: 10_000 });
  expect(await big.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  // the actions, the hands and the roads are all in the first screen
  for (const region of ['actions', 'roads']) {
    const box = await big
      .getByRole(region === 'actions' ? 'navigation' : 'region', { name: region })
      .boundingBox();
    expect((box?.y ?? 2000) + 40).toBeLessThan(1080);
  }
  // the 1920x1080 monitor's screenshot: dealer-screen.e2e.spec.ts
  await big.close();
  expect(unexpectedErrors()).toEqual([]);
});

it('a hand is replayed step by step and verified in the replay screen; a link opens any step; it prints on one page', async () => {
  await page.getByRole('link', { name: 'Hand history and replay' }).click();
  await page.getByRole('link', { name: 'Hand 2' }).waitFor({ timeout: 10_000 });
  // filters: banker wins only
  await page.getByLabel('Outcome').selectOption('banker');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Hand 2' }).waitFor({ state: 'detached' });
  await page.getByRole('link', { name: 'Hand 1' }).click();

  await page.getByText('VERIFIED').first().waitFor({ timeout: 10_000 });
  expect(await page.getByLabel('verification').textContent()).toMatch(/^VERIFIED/);
  expect(await page.locator('[data-check="chain"]').textContent()).toMatch(/PASSED/);
  expect(await page.locator('[data-check="coup"]').textContent()).toMatch(/PASSED/);
  const coup = page.getByRole('region', { name: 'coup re-resolved' });
  expect(await coup.textContent()).toMatch(/MATCHES.*Banker wins 4 to 7/);
  const events = await page.locator('.replay-events li').count();
  expect(await page.getByText(`Browser fold: all ${events} steps match the service`).count()).toBe(1);

  // keyboard stepping: every step folded in the browser matches the service
  expect(await page.getByTestId('step-heading').textContent()).toBe('Before the hand');
  for (let s = 1; s <= events; s++) {
    await page.keyboard.press('ArrowRight');
    expect(await page.getByTestId('step-heading').textContent()).toMatch(new RegExp(`^Step ${s}: `));
    expect(await page.getByTestId('fold-match').textContent()).toMatch(/same table as the service/);
  }
  expect(await page.getByTestId('step-heading').textContent()).toMatch(/CoupResolved/);
  await page.keyboard.press('ArrowLeft');
  expect(page.url()).toContain(`#/tables/${TABLE}/hands/1?step=${events - 1}`);
  await page.getByRole('slider', { name: 'step' }).fill('5');
  expect(await page.getByTestId('step-heading').textContent()).toMatch(/^Step 5: BettingClosed|^Step 5: /);
  await page.keyboard.press('End');
  await screenshot(page, 'console-replay');

  // a pasted link opens that hand at that step
  const other = await browser.page(1280, 800);
  await other.goto(`${stack.url}/`);
  await signIn(other, stack.token('compliance', 'carol'));
  await other.goto(`${stack.url}/#/tables/${TABLE}/hands/1?step=6`);
  await other
    .getByTestId('step-heading')
    .filter({ hasText: /^Step 6: CardDealt/ })
    .waitFor({ timeout: 10_000 });
  expect(await other.getByRole('slider', { name: 'step' }).inputValue()).toBe('6');

  // an rng every-coup hand: the seed is revealed after the coup, so the commitment and shuffle checks pass too
  const dealer = stack.token('dealer', 'eve');
  await stack.api('POST', '/api/tables', {
    tableId: 'RNG1',
    rules: { dealing: 'rng', shuffle: 'every-coup' },
  });
  await stack.api('POST', '/api/tables/RNG1/players/alice/buy-in', { amount: 10_000 });
  await stack.api('POST', '/api/tables/RNG1/rounds', {}, dealer);
  await stack.api(
    'POST',
    '/api/tables/RNG1/rounds/1/bets',
    { playerId: 'alice', spot: 'banker', amount: 1_000 },
    stack.token('player', 'alice'),
  );
  await stack.api('POST', '/api/tables/RNG1/rounds/1/close', {}, dealer);
  await stack.api('POST', '/api/tables/RNG1/rounds/1/deal', {}, dealer);
  await other.goto(`${stack.url}/#/tables/RNG1/hands`);
  await other.getByRole('link', { name: 'Hand 1' }).click();
  await other.getByText(/^VERIFIED: 6 passed, 0 failed$/).waitFor({ timeout: 10_000 });
  for (const check of ['commitment', 'shuffle'])
    expect(await other.locator(`[data-check="${check}"]`).textContent()).toMatch(/PASSED/);
  await other.keyboard.press('End');
  expect(await other.getByTestId('fold-match').textContent()).toMatch(/same table as the service/);
  expect(await other.getByRole('region', { name: 'coup re-resolved' }).textContent()).toMatch(/MATCHES/);
  await other.goto(`${stack.url}/#/tables/${TABLE}/hands/1?step=6`);
  await other
    .getByTestId('step-heading')
    .filter({ hasText: /^Step 6: CardDealt/ })
    .waitFor({ timeout: 10_000 });

  // print: the stepper is hidden and the record fits one page
  await other.emulateMedia({ media: 'print' });
  expect(await other.getByRole('group', { name: 'replay stepper' }).isVisible()).toBe(false);
  await other.getByText('VERIFIED').first().waitFor();
  const pdf = await other.pdf({ format: 'A4', printBackground: true });
  expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length).toBe(1);
  await other.close();
  expect(unexpectedErrors()).toEqual([]);
});
