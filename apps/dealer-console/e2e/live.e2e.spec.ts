/**
 * The coalesced live stream in real Chromium on the built service, with other players' bets coalesced over 10 s
 * (COUP_WS_COALESCE_MS), far longer than any wait below: the dealer console and a player watching the live table
 * get the totals (one frame, and again right before betting closes, never a bet of another player), and every card
 * and the result at once; the player page sends its bets over the socket it holds (acked) and shows the coup.
 */
import type { Page } from 'playwright-core';
import { launchBrowser, startStack, type BrowserSession, type Stack } from './stack';
import { openWithToken } from './session';

const TABLE = 'LIVE2';
const AT_ONCE_MS = 3_000;
let stack: Stack;
let browser: BrowserSession;

beforeAll(async () => {
  stack = await startStack({ COUP_WS_COALESCE_MS: '10000' });
  browser = await launchBrowser();
  await stack.api('POST', '/api/tables', { tableId: TABLE, rules: { dealing: 'live', decks: 1 } });
  for (const p of ['alice', 'bob', 'carol'])
    await stack.api('POST', `/api/tables/${TABLE}/players/${p}/buy-in`, { amount: 100_000 });
  await stack.api('POST', `/api/tables/${TABLE}/shoes`, { firstCard: '5h' }, stack.token('dealer'));
  await stack.api('POST', `/api/tables/${TABLE}/rounds`, {}, stack.token('dealer'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface Frame {
  type: string;
  revision?: number;
  event?: { type: string; data: Record<string, unknown> };
  totals?: Record<string, number>;
  bettors?: number;
  key?: string;
  status?: number;
}

/** Every frame a page's sockets receive and send, parsed. */
function frames(page: Page): { received: Frame[]; sent: Frame[] } {
  const received: Frame[] = [];
  const sent: Frame[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => received.push(JSON.parse(String(f.payload)) as Frame));
    ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload)) as Frame));
  });
  return { received, sent };
}

/** A page at `hash`, signed in by a launch link (a player token lands on #/play first, then goes there). */
async function open(token: string, hash: string) {
  const page = await browser.page(1280, 800);
  const seen = frames(page);
  await openWithToken(page, stack.url, token, hash);
  return { page, seen };
}

const bet = (playerId: string, spot: string, amount: number) =>
  stack.api(
    'POST',
    `/api/tables/${TABLE}/rounds/1/bets`,
    { playerId, spot, amount },
    stack.token('player', playerId),
  );

it('the console and a watching player get the totals coalesced and every card and the result at once', async () => {
  const console_ = await open(stack.token('dealer', 'dora'), `#/tables/${TABLE}`);
  const watcher = await open(stack.token('player', 'alice'), `#/tables/${TABLE}`);
  const pages = [console_, watcher];
  for (const { page } of pages) await page.locator('.conn-live').waitFor({ timeout: 15_000 });

  await bet('bob', 'player', 5_000);
  // The first totals after a quiet spell go at once: both pages show bob's stake in the totals.
  for (const { page } of pages)
    await page
      .getByRole('region', { name: 'bets' })
      .getByText('(1 players)')
      .waitFor({ timeout: AT_ONCE_MS });
  await bet('carol', 'banker', 2_500);
  await bet('alice', 'banker', 10_000);
  // The next totals are due 10 s later, unless the table moves first: closing the betting sends them before it.
  await stack.api('POST', `/api/tables/${TABLE}/rounds/1/close`, {}, stack.token('dealer'));
  for (const { page } of pages) {
    await page.locator('.table-header .phase-dealing').waitFor({ timeout: AT_ONCE_MS });
    await page
      .getByRole('region', { name: 'bets' })
      .getByText('(3 players)')
      .waitFor({ timeout: AT_ONCE_MS });
  }

  // Every card reaches both pages at once, then the result.
  const cards: [string, string, string][] = [
    ['2c', 'player hand', '2 of clubs'],
    ['7d', 'banker hand', '7 of diamonds'],
    ['3s', 'player hand', '3 of spades'],
    ['Th', 'banker hand', 'ten of hearts'],
    ['9c', 'player hand', '9 of clubs'],
  ];
  for (const [card, hand, label] of cards) {
    await stack.api('POST', `/api/tables/${TABLE}/rounds/1/cards`, { card }, stack.token('dealer'));
    for (const { page } of pages)
      await page.getByRole('region', { name: hand }).getByLabel(label).waitFor({ timeout: AT_ONCE_MS });
  }
  for (const { page } of pages)
    expect(await page.locator('.result .result-line').textContent({ timeout: AT_ONCE_MS })).toMatch(
      /Banker wins\s*4 to 7/,
    );

  // What came over the sockets: totals frames, never another player's bet; every card as its own event.
  const events = (f: Frame[]) => f.filter((x) => x.type === 'event').map((x) => x.event!);
  for (const { seen } of pages) {
    expect(seen.received.filter((x) => x.type === 'bets').length).toBeGreaterThanOrEqual(2);
    expect(events(seen.received).filter((e) => e.type === 'CardDealt')).toHaveLength(5);
    expect(events(seen.received).filter((e) => e.type === 'CoupResolved')).toHaveLength(1);
  }
  expect(events(console_.seen.received).filter((e) => e.type === 'BetPlaced')).toEqual([]);
  expect(
    events(watcher.seen.received)
      .filter((e) => e.type === 'BetPlaced')
      .map((e) => e.data['playerId']),
  ).toEqual(['alice']);
  const settled = events(watcher.seen.received).find((e) => e.type === 'CoupResolved')!;
  expect((settled.data['settlements'] as { playerId: string }[]).map((s) => s.playerId)).toEqual(['alice']);
  expect(JSON.stringify(watcher.seen.received)).not.toMatch(/"playerId":"(bob|carol)"/);
  for (const { page } of pages) await page.close();
});

it('the player page bets over the socket it holds, and shows the dealt coup', async () => {
  const { page, seen } = await open(stack.token('player', 'pat'), '#/play');
  await page.getByLabel('Amount in dollars').fill('1000');
  await page.getByRole('button', { name: 'Buy in' }).click();
  await page.getByRole('button', { name: '$5 chip', exact: true }).click();
  await page.getByRole('button', { name: /^Bet on Banker/ }).click();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="total-bet"]')?.textContent?.includes('$5'),
    undefined,
    { timeout: 10_000 },
  );
  const sentBets = seen.sent.filter((f) => f.type === 'bet');
  expect(sentBets).toHaveLength(1);
  expect(seen.received.find((f) => f.type === 'ack' && f.key === sentBets[0]!.key)).toMatchObject({
    status: 201,
  });
  expect(seen.sent.find((f) => f.type === 'subscribe')).toMatchObject({ tableId: 'online-pat' });

  await page.getByRole('button', { name: 'DEAL', exact: true }).click();
  await page.getByTestId('coup-result').waitFor({ timeout: 15_000 });
  const coup = seen.received.find((f) => f.type === 'event' && f.event?.type === 'CoupResolved');
  expect(coup).toBeDefined();
  await page.close();
});
