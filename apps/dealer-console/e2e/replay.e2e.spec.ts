/**
 * The hand list and the replay of coups put right after they settled, in real Chromium against the built service
 * (the casino in Asia/Shanghai): a coup whose card a supervisor corrected matches its corrected cards, with its
 * audit trail (the original, the correction, who and why); a coup voided after it settled shows as voided with who
 * and why; every time in the casino's time zone; the same screens in Simplified Chinese. axe finds no serious
 * violation on any of them. Each test has its own page.
 */
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { openWithToken } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

const TABLE = 'AUD1';
const ZONE = 'Asia/Shanghai';
let stack: Stack;
let browser: BrowserSession;

beforeAll(async () => {
  stack = await startStack({ COUP_GAMING_DAY: `06:00 ${ZONE}` });
  browser = await launchBrowser();
  const dealer = stack.token('dealer', 'dora');
  const boss = stack.token('supervisor', 'sam');
  const t = `/api/tables/${TABLE}`;
  await stack.api('POST', '/api/tables', { tableId: TABLE, rules: { dealing: 'live' } });
  await stack.api('POST', `${t}/players/alice/buy-in`, { amount: 100_000 });
  await stack.api('POST', `${t}/shoes`, { firstCard: '5h' }, dealer);
  const round = async (n: number, cards: string[]) => {
    await stack.api('POST', `${t}/rounds`, {}, dealer);
    await stack.api('POST', `${t}/rounds/${n}/bets`, { playerId: 'alice', spot: 'banker', amount: 1_000 });
    await stack.api('POST', `${t}/rounds/${n}/close`, {}, dealer);
    for (const card of cards) await stack.api('POST', `${t}/rounds/${n}/cards`, { card }, dealer);
  };
  // banker wins 7 to 4; the player's third card was a 4: player wins 9 to 7
  await round(1, ['2c', '7d', '3s', 'Th', '9c']);
  await stack.api('PUT', `${t}/rounds/1/cards/4`, { card: '4c', reason: 'third card misread' }, boss);
  // player wins 9 to 8, then voided: the cards were exposed
  await round(2, ['4c', '8d', '5s', 'Kh']);
  await stack.api('POST', `${t}/rounds/2/void`, { reason: 'cards exposed' }, boss);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A page of its own, signed in as compliance, at the table's hand list once both hands are in it. */
async function handList(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.page(1280, 900);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await openWithToken(page, stack.url, stack.token('compliance', 'cora'), `#/tables/${TABLE}/hands`);
  return { page, errors };
}

/** An instant as the console shows it in the casino's zone. */
const casinoTime = (iso: string, locale: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(locale, { timeZone: ZONE, ...options }).format(new Date(iso));

const rowOf = (page: Page, round: number) =>
  page.locator('.hands-table tbody tr', {
    has: page.getByRole('link', { name: new RegExp(`^(Hand |第 )${round}( 手)?$`) }),
  });

it('lists the hands put right after they settled, and replays each with its audit trail (English)', async () => {
  const { page, errors } = await handList();
  await rowOf(page, 2).getByText('voided after it settled').waitFor({ timeout: 15_000 });
  await rowOf(page, 1).getByText('corrected after it settled').waitFor({ timeout: 15_000 });
  expect(await rowOf(page, 2).textContent()).toMatch(/void: cards exposed/);
  const hands = await stack.api('GET', `/api/tables/${TABLE}/hands`);
  const opened = hands.items.find((h: { roundNo: number }) => h.roundNo === 1).openedAt as string;
  expect(await rowOf(page, 1).locator('time').textContent()).toBe(
    casinoTime(opened, 'en-GB', { dateStyle: 'short', timeStyle: 'medium' }),
  );
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: 'Hand 1', exact: true }).click();
  await page.getByText(/^VERIFIED: /).waitFor({ timeout: 15_000 });
  const coup = page.getByRole('region', { name: 'coup re-resolved' });
  expect(await coup.textContent()).toMatch(
    /MATCHES the engine resolves the corrected cards to the result in force \(corrected after it settled\): Player wins 9 to 7/,
  );
  expect(await coup.textContent()).not.toMatch(/DIFFER/);
  const trail = page.getByRole('region', { name: 'audit trail' });
  expect(await trail.locator('[data-audit=original]').textContent()).toMatch(
    /Original result at .*Banker wins 4 to 7/,
  );
  expect(await trail.locator('[data-audit=correction]').textContent()).toMatch(
    /Correction 1: card 5: 9c became 4c.*by sam \(supervisor\)Reason: third card misread.*result in force: Player wins 9 to 7/,
  );
  const replay = await stack.api('GET', `/api/tables/${TABLE}/hands/1/replay`);
  const first = replay.steps[0].event;
  expect(await page.locator('.replay-events li').first().locator('time').textContent()).toBe(
    casinoTime(first.recordedAt, 'en-GB', { timeStyle: 'medium' }),
  );
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('End');
  await page
    .getByTestId('step-heading')
    .getByText(/SettledCoupCorrected/)
    .waitFor();
  await trail.scrollIntoViewIfNeeded();
  await screenshot(page, 'replay-corrected');

  await page.goto(`${stack.url}/#/tables/${TABLE}/hands/2`);
  await page.getByTestId('coup-voided').waitFor({ timeout: 15_000 });
  expect(await page.getByTestId('coup-voided').textContent()).toBe(
    'Voided after it settled, by sam: cards exposed. Nothing to re-resolve.',
  );
  expect(await page.getByRole('region', { name: 'audit trail' }).textContent()).toMatch(
    /Voided after it settled.*by sam \(supervisor\)Reason: cards exposed.*every stake returned \(\$10\)/,
  );
  await expectNoSeriousA11yViolations(page);
  expect(errors).toEqual([]);
  await page.context().close();
});

it('the hand list and the replay in Simplified Chinese', async () => {
  const { page, errors } = await handList();
  await page.getByLabel('Language').selectOption('zh');
  await rowOf(page, 1).getByText('结算后已更正').waitFor({ timeout: 15_000 });
  expect(await page.getByRole('heading', { level: 2 }).textContent()).toMatch(/^牌局历史 赌台 AUD1/);
  expect(await rowOf(page, 2).textContent()).toMatch(/作废：cards exposed ?结算后已作废/);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: '第 1 手', exact: true }).click();
  await page.getByText(/^已核验：/).waitFor({ timeout: 15_000 });
  expect(await page.getByRole('region', { name: '引擎重新判定' }).textContent()).toMatch(
    /一致 引擎对更正后的牌的判定与现行结果（结算后更正）一致：闲赢 9 比 7/,
  );
  const correction = page.getByRole('region', { name: '审计记录' }).locator('[data-audit=correction]');
  expect(await correction.textContent()).toMatch(
    /第 1 次更正：第 5 张牌：9c 改为 4c.*操作人 sam（主管）原因：third card misread/,
  );
  expect(await page.getByTestId('step-heading').textContent()).toBe('本手之前');
  await page.keyboard.press('End');
  expect(await page.getByTestId('step-heading').textContent()).toMatch(
    /^第 \d+ 步：已结算局更正 版本 \d+，\d{4}\/\d{1,2}\/\d{1,2} /,
  );
  await expectNoSeriousA11yViolations(page);
  expect(errors).toEqual([]);
  await page.context().close();
});
