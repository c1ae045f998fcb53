/**
 * The player page's layout in real Chromium: on a phone (390x844) and at 1280x800, after a coup, nothing is wider
 * than the window and every control is in the window, uncovered and large enough to tap; the same in Simplified
 * Chinese, chosen with the language switch; no serious accessibility violation. Screenshots for the README
 * (tmp/screenshots, or docs/screenshots with UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

let stack: Stack;
let browser: BrowserSession;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Arrives with a launch link, buys in, bets $5 on Player and deals one coup. */
async function playOneCoup(page: Page, player: string) {
  await page.goto(`${stack.url}/#token=${stack.token('player', player)}`);
  await page.getByLabel('Amount in dollars').fill('1000');
  await page.getByRole('button', { name: 'Buy in' }).click();
  await page.getByRole('button', { name: '$5 chip', exact: true }).click();
  await page.getByRole('button', { name: /^Bet on Player/ }).click();
  await page.getByTestId('total-bet').filter({ hasText: 'Total bet: $5' }).waitFor();
  await page.getByRole('button', { name: 'DEAL', exact: true }).click();
  await page.getByTestId('history-1').waitFor({ timeout: 15_000 }); // read once the cards are all shown
  await page.getByTestId('total-bet').filter({ hasText: 'Total bet: $0' }).waitFor();
}

/** The page's controls: chips, bet fields, CLEAR BET / REBET / DEAL, sound, exit, help. */
const CONTROLS = '.chip-rack button, .bet-field, .felt .actions button, .player-toolbar button';

/**
 * Each control scrolled into view: where it is, its size, and whether a tap at its centre lands on it (nothing
 * covers it); and how much wider than the window the page is.
 */
async function layout(page: Page) {
  const controls = page.locator(CONTROLS);
  const found: { name: string; inWindow: boolean; size: number[]; hit: boolean }[] = [];
  for (let i = 0; i < (await controls.count()); i++) {
    const c = controls.nth(i);
    await c.scrollIntoViewIfNeeded();
    found.push(
      await c.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          name: (el.textContent ?? '').trim().slice(0, 20),
          inWindow:
            r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight,
          size: [Math.round(r.width), Math.round(r.height)],
          hit: at !== null && el.contains(at),
        };
      }),
    );
  }
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  return { wider, found };
}

/** Every control in the window, uncovered, at least `min` px each way (44 px: a fingertip). */
async function expectTappable(page: Page, min: number) {
  const { wider, found } = await layout(page);
  expect(wider).toBe(0);
  expect(found.length).toBeGreaterThanOrEqual(11); // 5 chips, 3 fields, 3 actions (and the toolbar's)
  for (const c of found) {
    expect({ ...c, big: c.size.every((s) => s >= min) }).toEqual({
      ...c,
      inWindow: true,
      hit: true,
      big: true,
    });
  }
  const language = page.locator('.language-switch select');
  await language.scrollIntoViewIfNeeded();
  const box = await language.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= (page.viewportSize()?.width ?? 0)).toBe(
    true,
  );
}

it('on a phone (390x844): one column, nothing wider than the window, every control in reach; in Chinese too', async () => {
  const page = await browser.page(390, 844);
  await playOneCoup(page, 'phil');
  await page.evaluate(() => window.scrollTo(0, 0));
  // the felt, the result and the chips all in the first screen
  for (const region of ['table', 'your chips']) {
    const box = await page
      .getByRole(region === 'table' ? 'region' : 'complementary', { name: region })
      .boundingBox();
    expect((box?.y ?? 2000) + 40).toBeLessThan(844);
  }
  await screenshot(page, 'player-phone');
  await expectTappable(page, 44);
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Language').selectOption('zh');
  await page.getByRole('button', { name: '发牌', exact: true }).waitFor();
  expect(await page.getByTestId('total-bet').textContent()).toBe('总注额：$0');
  expect(await page.getByRole('heading', { name: /百家乐/ }).count()).toBeGreaterThan(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'player-phone-zh');
  await expectTappable(page, 44);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('语言').selectOption('en');
  expect(browser.errors).toEqual([]);
});

it('at 1280x800: the felt beside the chips, nothing wider than the window, every control in reach', async () => {
  const page = await browser.page(1280, 800);
  await playOneCoup(page, 'hal');
  const [felt, chips] = await Promise.all([
    page.getByRole('region', { name: 'table' }).boundingBox(),
    page.getByRole('complementary', { name: 'your chips' }).boundingBox(),
  ]);
  expect((chips?.x ?? 0) > (felt?.x ?? 0) + (felt?.width ?? 0) - 1).toBe(true); // side by side
  await expectTappable(page, 30);
  await expectNoSeriousA11yViolations(page);
  expect(browser.errors).toEqual([]);
});
