/**
 * The dealer console in real Chromium against the built service: a full live coup run from the keyboard, a
 * refused command, a reconnect that resumes without a gap or a duplicate, a reload mid-coup, a hand replayed and
 * verified, and the layout at 1280x800 and 1920x1080 (screenshots for the README:
 * tmp/screenshots, or docs/screenshots with UPDATE_SCREENSHOTS=1). Each test has its own table, set up through
 * the API, and its own pages (closed after it), so each runs alone.
 */
import type { Page } from 'playwright-core';
import { openWithToken } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
/** The pages the running test opened, closed after it. */
let pages: Page[] = [];
/** Where the running test's browser errors start in `browser.errors`. */
let errorsFrom = 0;

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

beforeEach(() => {
  pages = [];
  errorsFrom = browser.errors.length;
});

// closed, so that a later test's restart of the service finds no page of this one to log its refused connections
afterEach(async () => {
  for (const p of pages) await p.context().close();
});

/** The running test's browser errors, less `expected` (each expected error may appear once). */
function unexpectedErrors(expected: readonly RegExp[] = []): string[] {
  const left = [...expected];
  return browser.errors.slice(errorsFrom).filter((e) => {
    const i = left.findIndex((r) => r.test(e));
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

const dealer = () => stack.token('dealer', 'eve');

/**
 * Opens a live table of one deck (the turned card is then the only one of its kind, so entering it again is
 * refused by the service) with alice's $1,000 and bob's $500 in chips; with `shoe`, also a new shoe whose turned
 * card is the 5h.
 */
async function openTable(tableId: string, { shoe }: { shoe: boolean }) {
  await stack.api('POST', '/api/tables', { tableId, rules: { dealing: 'live', decks: 1 } });
  await stack.api('POST', `/api/tables/${tableId}/players/alice/buy-in`, { amount: 100_000 });
  await stack.api('POST', `/api/tables/${tableId}/players/bob/buy-in`, { amount: 50_000 });
  if (shoe) await stack.api('POST', `/api/tables/${tableId}/shoes`, { firstCard: '5h' }, dealer());
}

async function bet(tableId: string, roundNo: number, playerId: string, spot: string, amount: number) {
  await stack.api(
    'POST',
    `/api/tables/${tableId}/rounds/${roundNo}/bets`,
    { playerId, spot, amount },
    stack.token('player', playerId),
  );
}

/** Bets as the API places them: player, spot, cents. */
type Bets = readonly (readonly [string, string, number])[];
/** A coup as the API deals it: its bets and its cards in dealing order. */
interface Coup {
  readonly bets: Bets;
  readonly cards: readonly string[];
}

/** The first hand, as test 1 deals it from the keyboard: banker wins 7 to 4, the player's third card a 10. */
const HAND_1: Coup = {
  bets: [
    ['alice', 'banker', 10_000],
    ['bob', 'player', 5_000],
  ],
  cards: ['2c', '7d', '3s', 'Th', '9c'],
};
/** The second hand: player wins 9 to 8, both naturals. */
const HAND_2: Coup = { bets: [['alice', 'player', 2_500]], cards: ['4c', '8d', '5s', 'Kh'] };

/** Betting opened, `bets` placed, betting closed: the round then waits for its cards. */
async function betting(tableId: string, roundNo: number, bets: Bets) {
  await stack.api('POST', `/api/tables/${tableId}/rounds`, {}, dealer());
  for (const [playerId, spot, amount] of bets) await bet(tableId, roundNo, playerId, spot, amount);
  await stack.api('POST', `/api/tables/${tableId}/rounds/${roundNo}/close`, {}, dealer());
}

/** A whole coup through the API: betting, then every card. */
async function deal(tableId: string, roundNo: number, coup: Coup) {
  await betting(tableId, roundNo, coup.bets);
  for (const card of coup.cards)
    await stack.api('POST', `/api/tables/${tableId}/rounds/${roundNo}/cards`, { card }, dealer());
}

/** A page of this test at the given size. */
async function newPage(width: number, height: number): Promise<Page> {
  const p = await browser.page(width, height);
  pages.push(p);
  return p;
}

/** A page of this test with the console at the table, signed in as dealer dora (a launch link), once live. */
async function openConsole(tableId: string, width = 1280, height = 800): Promise<Page> {
  const p = await newPage(width, height);
  await openWithToken(p, stack.url, stack.token('dealer', 'dora'), `#/tables/${tableId}`);
  await p.locator('.conn-live').waitFor({ timeout: 15_000 });
  return p;
}

const phase = (p: Page) => p.locator('.table-header .phase').textContent();
async function waitPhase(p: Page, name: string) {
  await p.locator(`.table-header .phase-${name}`).waitFor({ timeout: 10_000 });
}
const nextPrompt = (p: Page) => p.locator('.next-card strong').textContent();

/** Types a card as a dealer (or a keyboard-style shoe reader) does, then Enter; waits for the next-card prompt. */
async function typeCard(p: Page, card: string, next: string) {
  await p.keyboard.type(card);
  await p.keyboard.press('Enter');
  if (next === 'done') await p.locator('.dealing').waitFor({ state: 'detached', timeout: 10_000 });
  else await p.locator('.next-card strong', { hasText: next }).waitFor({ timeout: 10_000 });
}

it('a dealer runs a full live coup from the keyboard: new shoe with the turned card, betting, cards, result', async () => {
  const table = 'KEYS1';
  await openTable(table, { shoe: false });
  const page = await openConsole(table);
  expect(await phase(page)).toBe('idle');

  // N: new shoe; the turned-card field takes focus and says how many to burn
  await page.keyboard.press('n');
  await page.keyboard.type('5h');
  await page.getByText('5 of hearts: burn 5 (Enter)').waitFor();
  await page.keyboard.press('Enter');
  await waitPhase(page, 'ready');

  await page.keyboard.press('o');
  await waitPhase(page, 'betting');
  await bet(table, 1, 'alice', 'banker', 10_000);
  await bet(table, 1, 'bob', 'player', 5_000);
  await page.getByRole('region', { name: 'bets' }).getByText('(2 players)').waitFor();

  await page.keyboard.press('m');
  await waitPhase(page, 'dealing');
  expect(await nextPrompt(page)).toBe("Player's first card");
  await typeCard(page, '2c', "Banker's first card");
  await typeCard(page, '7d', "Player's second card");
  await typeCard(page, '3s', "Banker's second card");
  await typeCard(page, 'Th', "Player's third card"); // player 5 draws
  await typeCard(page, '9c', 'done'); // player 4, banker 7 stands
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
  const table = 'REFUSE1';
  await openTable(table, { shoe: true });
  await betting(table, 1, HAND_2.bets);
  const page = await openConsole(table);
  await waitPhase(page, 'dealing');
  // the turned 5h was the deck's only one: the live shoe cannot hold it
  await page.keyboard.type('5h');
  await page.keyboard.press('Enter');
  const refusal = page.locator('.refusal');
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/Card 5h refused\s*CARD_NOT_IN_SHOE/);
  // shown in the main column, next to the card field the dealer is typing in
  const [r, field] = await Promise.all([refusal.boundingBox(), page.getByLabel(/Enter card/).boundingBox()]);
  expect(Math.abs((r?.y ?? 0) - (field?.y ?? 1000))).toBeLessThan(300);
  expect(await nextPrompt(page)).toBe("Player's first card");
  expect(await page.locator('.hand .playing-card').count()).toBe(0);
  // the browser logs the refusal's 409 answer
  expect(unexpectedErrors([/409/])).toEqual([]);
});

it('a dropped connection shows a banner and resumes from the last event, without a gap or a duplicate', async () => {
  const table = 'RESUME1';
  await openTable(table, { shoe: true });
  // the console follows the first hand and the second's betting live: its event log has them
  const page = await openConsole(table);
  await deal(table, 1, HAND_1);
  await betting(table, 2, HAND_2.bets);
  await page.locator('.event-log li', { hasText: 'BettingClosed' }).nth(1).waitFor({ timeout: 10_000 });
  await waitPhase(page, 'dealing');

  const before = browser.errors.length;
  const restarted = stack.restart();
  try {
    await page.getByText(/Connection lost\. Reconnecting/).waitFor({ timeout: 10_000 });
  } finally {
    // the service is whole again before the next step, or the next test, whatever this wait gave
    await restarted;
  }
  // while the console is still away, a card is dealt from another console: it must arrive on resume
  await stack.api('POST', `/api/tables/${table}/rounds/2/cards`, { card: '4c' }, dealer());
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
  const down = browser.errors.slice(before);
  for (const e of down) expect(e).toMatch(/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource|net::/);

  // a reload in the middle of the coup shows the coup as it stands
  await page.reload();
  await page.locator('.conn-live').waitFor({ timeout: 15_000 });
  await page.getByRole('region', { name: 'player hand' }).getByLabel('4 of clubs').waitFor();
  expect(await nextPrompt(page)).toBe("Banker's first card");
  await typeCard(page, '8d', "Player's second card");
  await typeCard(page, '5s', "Banker's second card");
  await typeCard(page, 'Kh', 'done');
  expect(await page.locator('.result .result-line').textContent()).toMatch(
    /Player wins\s*9 to 8\s*\(natural\)/,
  );
  await page.getByText(/shoe 1, 2 coups \(read model\)/).waitFor({ timeout: 10_000 });
  expect(unexpectedErrors(down.map(() => /./))).toEqual([]);
});

/** More coups after the first two hands (naturals, four cards each; one deck, so no card twice). */
const MORE_COUPS: readonly Coup[] = [
  ['4d', '2d', '5c', '3d'], // player 9 - 5
  ['6c', 'Ac', '3c', '2h'], // player 9 - 3
  ['Ad', '9d', '2s', 'Jc'], // banker 9 - 3
  ['3h', '8c', 'Jd', 'Qc'], // banker 8 - 3
  ['4h', '9h', 'Qd', 'Ks'], // banker 9 - 4
  ['8h', '6d', 'Kd', 'Qh'], // player 8 - 6
].map((cards, i) => ({ bets: [[i % 2 ? 'alice' : 'bob', i % 3 ? 'banker' : 'player', 2_500]], cards }));

it('the layout holds at 1280x800 and on a 1920x1080 dealer monitor, with the roads of a longer shoe', async () => {
  const table = 'ROADS1';
  await openTable(table, { shoe: true });
  await deal(table, 1, HAND_1);
  await deal(table, 2, HAND_2);
  const page = await openConsole(table);
  for (const [i, coup] of MORE_COUPS.entries()) await deal(table, 3 + i, coup);
  // the 1280 console followed them live; the roads come from the read model
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

  const big = await openConsole(table, 1920, 1080);
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
  expect(unexpectedErrors()).toEqual([]);
});

/** An rng table shuffled every coup, with one coup dealt and settled (its seed then revealed). */
async function rngHand(tableId: string) {
  await stack.api('POST', '/api/tables', { tableId, rules: { dealing: 'rng', shuffle: 'every-coup' } });
  await stack.api('POST', `/api/tables/${tableId}/players/alice/buy-in`, { amount: 10_000 });
  await betting(tableId, 1, [['alice', 'banker', 1_000]]);
  await stack.api('POST', `/api/tables/${tableId}/rounds/1/deal`, {}, dealer());
}

it('a hand is replayed step by step and verified in the replay screen; a link opens any step; it prints on one page', async () => {
  const table = 'REPLAY1';
  await openTable(table, { shoe: true });
  await deal(table, 1, HAND_1);
  await deal(table, 2, HAND_2);
  const page = await openConsole(table);
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
  expect(page.url()).toContain(`#/tables/${table}/hands/1?step=${events - 1}`);
  await page.getByRole('slider', { name: 'step' }).fill('5');
  expect(await page.getByTestId('step-heading').textContent()).toMatch(/^Step 5: BettingClosed|^Step 5: /);
  await page.keyboard.press('End');
  await screenshot(page, 'console-replay');

  // a pasted link opens that hand at that step
  const other = await newPage(1280, 800);
  await openWithToken(other, stack.url, stack.token('compliance', 'carol'));
  await other.goto(`${stack.url}/#/tables/${table}/hands/1?step=6`);
  await other
    .getByTestId('step-heading')
    .filter({ hasText: /^Step 6: CardDealt/ })
    .waitFor({ timeout: 10_000 });
  expect(await other.getByRole('slider', { name: 'step' }).inputValue()).toBe('6');

  // an rng every-coup hand: the seed is revealed after the coup, so the commitment and shuffle checks pass too
  await rngHand('RNG1');
  await other.goto(`${stack.url}/#/tables/RNG1/hands`);
  await other.getByRole('link', { name: 'Hand 1' }).click();
  await other.getByText(/^VERIFIED: 6 passed, 0 failed$/).waitFor({ timeout: 10_000 });
  for (const check of ['commitment', 'shuffle'])
    expect(await other.locator(`[data-check="${check}"]`).textContent()).toMatch(/PASSED/);
  await other.keyboard.press('End');
  expect(await other.getByTestId('fold-match').textContent()).toMatch(/same table as the service/);
  expect(await other.getByRole('region', { name: 'coup re-resolved' }).textContent()).toMatch(/MATCHES/);
  await other.goto(`${stack.url}/#/tables/${table}/hands/1?step=6`);
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
  expect(unexpectedErrors()).toEqual([]);
});
