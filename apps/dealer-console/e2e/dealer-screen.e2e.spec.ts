/**
 * The dealer screen in real Chromium on a 1920x1080 dealer monitor: the card field's shortcut never types its own
 * letter, the cards, totals, result and roads are drawn large and nothing overflows, the event log is scrollable and
 * never cut, no serious accessibility violation, and the same screen in Simplified Chinese. Screenshots for the
 * README (tmp/screenshots, or docs/screenshots with UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

const TABLE = 'MONITOR1';
let stack: Stack;
let browser: BrowserSession;
let page: Page;
let dealer: string;

/** Coups dealt through the API, each: player, banker, player, banker (then third cards). */
const COUPS = [
  ['2c', '7d', '3s', 'Th', '9c'], // banker 7 to 4
  ['4d', '2d', '5c', '3d'], // player 9 to 5
  ['6c', 'Ac', '3c', '2h'], // player 9 to 3
  ['Ad', '9d', '2s', 'Jc'], // banker 9 to 3
];

async function bet(roundNo: number, playerId: string, spot: string, amount: number) {
  await stack.api(
    'POST',
    `/api/tables/${TABLE}/rounds/${roundNo}/bets`,
    { playerId, spot, amount },
    stack.token('player', playerId),
  );
}

/** A whole coup through the API: betting, two bets, no more bets, the cards. */
async function coup(roundNo: number, cards: readonly string[]) {
  await stack.api('POST', `/api/tables/${TABLE}/rounds`, {}, dealer);
  await bet(roundNo, 'alice', 'banker', 2_500);
  await bet(roundNo, 'bob', 'player', 1_500);
  await stack.api('POST', `/api/tables/${TABLE}/rounds/${roundNo}/close`, {}, dealer);
  for (const card of cards)
    await stack.api('POST', `/api/tables/${TABLE}/rounds/${roundNo}/cards`, { card }, dealer);
}

/** The console opened with a launch link's token (`/#token=`), at the table. */
async function openTable(p: Page, token: string) {
  await p.goto(`${stack.url}/#token=${token}`);
  await p.waitForFunction(() => !window.location.hash.startsWith('#token='));
  await p.evaluate((t) => (window.location.hash = `#/tables/${t}`), TABLE);
  await p.locator('.conn-live').waitFor({ timeout: 15_000 });
}

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  dealer = stack.token('dealer', 'eve');
  await stack.api('POST', '/api/tables', { tableId: TABLE, rules: { dealing: 'live', decks: 2 } });
  for (const p of ['alice', 'bob', 'carol'])
    await stack.api('POST', `/api/tables/${TABLE}/players/${p}/buy-in`, { amount: 100_000 });
  await stack.api('POST', `/api/tables/${TABLE}/shoes`, { firstCard: '5h' }, dealer);
  for (const [i, cards] of COUPS.entries()) await coup(i + 1, cards);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const field = () => page.getByLabel(/Enter card/);

it('the card field takes the focus when dealing starts; its shortcut E never types an "e" into it', async () => {
  page = await browser.page(1920, 1080);
  await openTable(page, stack.token('dealer', 'dora'));
  await page.keyboard.press('o');
  await page.locator('.table-header .phase-betting').waitFor();
  await bet(5, 'alice', 'player', 1_000);
  await page.keyboard.press('m');
  await field().waitFor();
  // the field has the focus: E, pressed out of habit, must not start the card with its letter
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
  await page.keyboard.press('e');
  expect(await field().inputValue()).toBe('');
  await page.keyboard.press('Shift+E');
  expect(await field().inputValue()).toBe('');
  // outside the field, E gives it the focus, again without typing
  await page.keyboard.press('Escape');
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
  await page.keyboard.press('e');
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
  expect(await field().inputValue()).toBe('');
  for (const [i, card] of ['4s', 'Kc', '5s', '7c'].entries()) {
    await page.keyboard.type(card);
    await page.keyboard.press('Enter');
    await page.locator('.hand .playing-card').nth(i).waitFor();
  }
  await page
    .locator('.result .result-line')
    .filter({ hasText: /Player wins\s*9 to 7/ })
    .waitFor();
  expect(browser.errors).toEqual([]);
});

/** Whether `selector`'s element is cut: outside the window, or outside an ancestor that clips its overflow. */
function clipping(selector: string) {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const cut: string[] = [];
    if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth)
      cut.push('window');
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (
        r.top < b.top - 0.5 ||
        r.bottom > b.bottom + 0.5 ||
        r.left < b.left - 0.5 ||
        r.right > b.right + 0.5
      )
        cut.push(a.className || a.tagName);
    }
    return cut;
  });
}

it('on the 1920x1080 monitor: large cards, totals, result and roads; nothing overflows; the event log is never cut', async () => {
  // more coups while the screen is open: its event log fills past what its panel shows
  for (const [i, cards] of [
    ['8s', '9s', 'Js', 'Kh'], // banker 9 to 8
    ['7s', '6s', 'As', 'Ts'], // player 8 to 6
    ['Qs', '9h', '8c', 'Qd'], // banker 9 to 8
    ['4c', '9h', 'Kd', 'Qh'], // banker 9 to 4 (natural)
  ].entries())
    await coup(6 + i, cards);
  await page.getByText(/shoe 1, 9 coups \(read model\)/).waitFor({ timeout: 10_000 });
  const m = await page.evaluate(() => {
    const px = (sel: string, prop: 'width' | 'height' | 'fontSize') => {
      const el = document.querySelector(sel);
      return el ? parseFloat(getComputedStyle(el)[prop]) : 0;
    };
    const card = document.querySelector('.hand .playing-card')?.getBoundingClientRect();
    return {
      overflow: [
        document.documentElement.scrollWidth - innerWidth,
        document.documentElement.scrollHeight - innerHeight,
      ],
      card: [Math.round(card?.width ?? 0), Math.round(card?.height ?? 0)],
      rank: px('.hand .playing-card', 'fontSize'),
      total: px('.hand .total', 'fontSize'),
      result: px('.result .result-line', 'fontSize'),
      bead: px('.road .bead', 'width'),
      derived: px('.road-small .derived', 'width'),
      // panels whose content is wider than they are (a table or a road cut at its edge)
      wide: [...document.querySelectorAll('.table-screen .panel, .table-screen .result')]
        .filter((p) => p.scrollWidth > p.clientWidth + 1)
        .map((p) => p.getAttribute('aria-label') ?? p.className),
    };
  });
  expect(m.overflow).toEqual([0, 0]); // no page scroll either way: the screen is the window
  expect(m.card[0]).toBeGreaterThanOrEqual(90);
  expect(m.card[1]).toBeGreaterThanOrEqual(125);
  expect(m.rank).toBeGreaterThanOrEqual(40);
  expect(m.total).toBeGreaterThanOrEqual(32);
  expect(m.result).toBeGreaterThanOrEqual(30);
  expect(m.bead).toBeGreaterThanOrEqual(28);
  expect(m.derived).toBeGreaterThanOrEqual(18);
  expect(m.wide).toEqual([]);
  for (const region of ['actions', 'player hand', 'banker hand', 'roads', 'shoe', 'players']) {
    const sel = region === 'actions' ? 'nav.actions' : `[aria-label="${region}"]`;
    expect({ region, cut: await clipping(sel) }).toEqual({ region, cut: [] });
  }

  // the event log: fully in the window and in its column, its list scrolls, and its last line can be reached
  expect(await clipping('.event-log')).toEqual([]);
  const list = page.locator('.event-log ol');
  const s = await list.evaluate((ol) => ({
    overflowY: getComputedStyle(ol).overflowY,
    more: ol.scrollHeight - ol.clientHeight,
    wider: ol.scrollWidth - ol.clientWidth,
    // a list marker is drawn outside the list's box, where a scrolling list cuts it
    markers: [...ol.children].filter((li) => {
      const st = getComputedStyle(li);
      return st.listStyleType !== 'none' && st.listStylePosition === 'outside';
    }).length,
    lines: ol.children.length,
  }));
  expect(['auto', 'scroll']).toContain(s.overflowY);
  expect([s.wider, s.markers]).toEqual([0, 0]);
  expect(s.more).toBeGreaterThan(0);
  expect(s.lines).toBeGreaterThan(20);
  await list.evaluate((ol) => (ol.scrollTop = ol.scrollHeight));
  expect(await clipping('.event-log li:last-child')).toEqual([]);
  expect(await clipping('.event-log h3')).toEqual([]);
  await list.evaluate((ol) => (ol.scrollTop = 0));
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'dealer-monitor-1920');
  expect(browser.errors).toEqual([]);
});

it('in Simplified Chinese, chosen with the language switch: the same screen, its times in the casino time zone', async () => {
  await page.getByLabel('Language').selectOption('zh');
  await page.getByRole('button', { name: /开始下注/ }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  expect(await page.locator('.table-header h2').textContent()).toBe(`${TABLE} 号桌`);
  expect(await page.title()).toBe(`${TABLE} 号桌 · Coup 荷官控制台`);
  expect(await page.locator('.result .result-line').textContent()).toBe('庄赢 4 比 9（例牌）');
  await page.getByText(/第 1 靴，9 局（读模型）/).waitFor();
  // the bead plate in the characters Chinese players read: 庄 闲 和
  expect(await page.getByRole('group', { name: '珠盘路' }).locator('.bead').allTextContents()).toEqual([
    '庄',
    '闲',
    '闲',
    '庄',
    '闲',
    '庄',
    '闲',
    '庄',
    '庄',
  ]);
  const times = await page.locator('.event-log time').allTextContents();
  expect(times.length).toBeGreaterThan(0);
  for (const t of times) expect(t).toMatch(/^\d{1,2}:\d{2}:\d{2}$/);
  expect(await clipping('.event-log')).toEqual([]);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, 'dealer-monitor-1920-zh');
  await page.getByLabel('语言').selectOption('en');
  await page.getByRole('button', { name: /Open betting/ }).waitFor();
  expect(browser.errors).toEqual([]);
});

it("the roads follow a settled coup's correction and void, live and once the read model has them", async () => {
  const boss = stack.token('supervisor', 'sue');
  const bead = () => page.getByRole('group', { name: 'bead plate' }).locator('.bead').allTextContents();
  const heading = page.locator('.roads h3 .muted');
  await heading.getByText('shoe 1, 9 coups (read model)').waitFor();
  expect(await bead()).toEqual(['B', 'P', 'P', 'B', 'P', 'B', 'P', 'B', 'B']);
  // round 9 (player 4c Kd, banker 9h Qh: banker 9 to 4) corrected: card 1 was the 9c, both 9, a tie
  await stack.api(
    'PUT',
    `/api/tables/${TABLE}/rounds/9/cards/0`,
    { card: '9c', reason: 'first card misread' },
    boss,
  );
  await page.getByRole('group', { name: 'bead plate' }).getByText('T').waitFor();
  expect(await bead()).toEqual(['B', 'P', 'P', 'B', 'P', 'B', 'P', 'B', 'T']);
  await heading.getByText('shoe 1, 9 coups (read model)').waitFor(); // the read model has the correction too
  expect(await bead()).toEqual(['B', 'P', 'P', 'B', 'P', 'B', 'P', 'B', 'T']);
  // voided after it settled: off the road
  await stack.api('POST', `/api/tables/${TABLE}/rounds/9/void`, { reason: 'cards exposed' }, boss);
  await heading.getByText(/shoe 1, 8 coups/).waitFor();
  expect(await bead()).toEqual(['B', 'P', 'P', 'B', 'P', 'B', 'P', 'B']);
  await heading.getByText('shoe 1, 8 coups (read model)').waitFor();
  expect(await bead()).toEqual(['B', 'P', 'P', 'B', 'P', 'B', 'P', 'B']);
  expect(browser.errors).toEqual([]);
});
