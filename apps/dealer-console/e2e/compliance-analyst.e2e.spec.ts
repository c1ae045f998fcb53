/**
 * The compliance screen and the analyst dashboard in real Chromium on the built service. Coups are dealt through
 * the API: a live table where a settled coup is corrected, another voided after it settled and a round voided, and
 * an rng table of 24 coups with side bets. Compliance searches by player and by voided, each hand with its verify
 * result, opens one in the replay, downloads the search as CSV and reads a player's audit trail; the analyst sees
 * the charts with the numbers the service answers (by gaming day; then one shift and local hour) and downloads a
 * chart's data. Each page is checked with axe, in
 * English and once in Chinese, and the dashboard's charts raise no CSP violation. Screenshots for the README:
 * compliance-search, compliance-audit-trail, analyst-dashboard (tmp/screenshots, or docs/screenshots with
 * UPDATE_SCREENSHOTS=1).
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './axe';
import { openWithToken } from './session';
import { launchBrowser, screenshot, startStack, type BrowserSession, type Stack } from './stack';

const LIVE = 'LV1';
const RNG = 'RNG1';
const RNG_COUPS = 24;

let stack: Stack;
let browser: BrowserSession;

const as = (role: 'dealer' | 'supervisor' | 'player', sub: string) => stack.token(role, sub);
const post = (path: string, body: unknown, token: string) => stack.api('POST', path, body, token);

/** A round at the live table: each bet placed, betting closed, these cards dealt (it settles). */
async function liveRound(roundNo: number, bets: [string, string, number][], cards: string[]): Promise<void> {
  const dealer = as('dealer', 'dora');
  await post(`/api/tables/${LIVE}/rounds`, {}, dealer);
  for (const [playerId, spot, amount] of bets)
    await post(
      `/api/tables/${LIVE}/rounds/${roundNo}/bets`,
      { playerId, spot, amount },
      as('player', playerId),
    );
  await post(`/api/tables/${LIVE}/rounds/${roundNo}/close`, {}, dealer);
  for (const card of cards) await post(`/api/tables/${LIVE}/rounds/${roundNo}/cards`, { card }, dealer);
}

async function dealLiveTable(): Promise<void> {
  await stack.api('POST', '/api/tables', { tableId: LIVE, rules: { dealing: 'live', commission: 'box' } });
  for (const p of ['alice', 'bob'])
    await stack.api('POST', `/api/tables/${LIVE}/players/${p}/buy-in`, { amount: 50_000 });
  await post(`/api/tables/${LIVE}/shoes`, { firstCard: '5h' }, as('dealer', 'dora'));
  const both: [string, string, number][] = [
    ['alice', 'player', 1_000],
    ['bob', 'banker', 1_000],
  ];
  // 1: player 9+K against banker 5+2; the 2d was a 4d: corrected after it settled, a tie 9-9
  await liveRound(1, both, ['9d', '5d', 'Kd', '2d']);
  await stack.api(
    'PUT',
    `/api/tables/${LIVE}/rounds/1/cards/3`,
    { card: '4d', reason: 'typed 2d for 4d' },
    as('supervisor', 'sam'),
  );
  // 2: a banker natural, voided after it settled
  await liveRound(2, both, ['5d', '9d', '2d', 'Kd']);
  await post(`/api/tables/${LIVE}/rounds/2/void`, { reason: 'cards exposed' }, as('supervisor', 'sam'));
  // 3: voided before the deal
  await post(`/api/tables/${LIVE}/rounds`, {}, as('dealer', 'dora'));
  await post(
    `/api/tables/${LIVE}/rounds/3/bets`,
    { playerId: 'alice', spot: 'banker', amount: 2_000 },
    as('player', 'alice'),
  );
  await post(`/api/tables/${LIVE}/rounds/3/void`, { reason: 'misdeal' }, as('supervisor', 'sam'));
  // 4: bob alone, a player natural 8
  await liveRound(4, [['bob', 'player', 500]], ['8c', 'Qd', 'Jc', '3s']);
}

async function dealRngTable(): Promise<void> {
  const rules = { dealing: 'rng', sideBets: { playerPair: {}, bankerPair: {} } };
  await stack.api('POST', '/api/tables', { tableId: RNG, rules });
  for (const p of ['alice', 'bob'])
    await stack.api('POST', `/api/tables/${RNG}/players/${p}/buy-in`, { amount: 500_000 });
  const dealer = as('dealer', 'dora');
  await post(`/api/tables/${RNG}/shoes`, {}, dealer);
  for (let n = 1; n <= RNG_COUPS; n++) {
    await post(`/api/tables/${RNG}/rounds`, {}, dealer);
    const bet = (playerId: string, spot: string, amount: number) =>
      post(`/api/tables/${RNG}/rounds/${n}/bets`, { playerId, spot, amount }, as('player', playerId));
    await bet('alice', 'banker', 1_000);
    await bet('alice', 'playerPair', 100);
    await bet('bob', n % 3 === 0 ? 'tie' : 'player', 500);
    await post(`/api/tables/${RNG}/rounds/${n}/close`, {}, dealer);
    await post(`/api/tables/${RNG}/rounds/${n}/deal`, {}, dealer);
  }
}

/** Until every read model has folded the whole log (they commit every 500 ms or so). */
async function readSideCaughtUp(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const s = await stack.api<{ projections: { lag: number }[] }>('GET', '/api/projections');
    if (s.projections.every((p) => p.lag === 0)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the read side did not catch up');
}

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await dealLiveTable();
  await dealRngTable();
  await readSideCaughtUp();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A page signed in with `token` (a launch link), in `language`, at `hash`. */
async function open(token: string, hash: string, language: 'en' | 'zh' = 'en', height = 900): Promise<Page> {
  const page = await browser.page(1280, height);
  await page.addInitScript((lng) => localStorage.setItem('coup.language', lng), language);
  // every CSP violation the page meets, as csp.e2e.spec watches for them
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await openWithToken(page, stack.url, token, hash);
  return page;
}

/** The CSP violations the page has met. */
const cspViolations = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);

/** Each body row's cells' text. */
const rows = (table: Locator): Promise<string[][]> =>
  table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent ?? '')));

/** Clicks `button` and returns the text of the file the browser downloads. */
async function download(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

const handsTable = (page: Page) => page.getByRole('table', { name: /hand\(s\) of table/ });

describe('compliance', () => {
  it('searches by player and by voided, each hand verified; opens one in the replay; downloads the CSV', async () => {
    const page = await open(stack.token('compliance', 'cora'), '#/compliance');
    await page.getByLabel('Table').selectOption(LIVE);
    await page.getByLabel('Player', { exact: true }).fill('alice');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('verified').first().waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      () => !document.querySelector('.compliance-hands')?.textContent?.includes('checking…'),
    );
    const byAlice = await rows(handsTable(page));
    expect(byAlice.map((r) => [r[0], r[3], r[10]])).toEqual([
      ['Hand 3', 'Voided: misdeal', 'verified'],
      ['Hand 2', 'Voided: cards exposed voided after it settled', 'verified'],
      ['Hand 1', 'Tie (natural) corrected after it settled', 'verified'],
    ]);
    expect(page.url()).toContain('#/compliance?table=LV1&player=alice');
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'compliance-search');

    await page.getByLabel('Player', { exact: true }).fill('');
    await page.getByLabel('Outcome').selectOption('void');
    await page.getByRole('button', { name: 'Search' }).click();
    await handsTable(page).locator('tbody tr').nth(1).waitFor();
    expect((await rows(handsTable(page))).map((r) => r[0])).toEqual(['Hand 3', 'Hand 2']);

    const csv = await download(page, page.getByRole('button', { name: 'Download CSV' }));
    expect(csv.name).toBe(`hands-${LIVE}.csv`);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^tableId,roundNo,shoeNo,status,/);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      `${LIVE},3,1,voided`,
      `${LIVE},2,1,voided`,
    ]);

    await page.getByLabel('Outcome').selectOption('');
    await page.getByLabel('Only hands with a corrected card').check();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('table', { name: /^Page 1: 1 hand/ }).waitFor();
    expect((await rows(handsTable(page))).map((r) => r[0])).toEqual(['Hand 1']);
    await page.goBack();
    await page.getByRole('table', { name: /^Page 1: 2 hand/ }).waitFor();

    await page.getByRole('link', { name: `Replay hand 2 of table ${LIVE}` }).click();
    await page.locator('.replay-events li').first().waitFor({ timeout: 15_000 });
    expect(page.url()).toContain(`#/tables/${LIVE}/hands/2`);
    expect(await cspViolations(page)).toEqual([]);
    await page.goBack();
    await handsTable(page).waitFor();
    expect(await page.getByLabel('Outcome').inputValue()).toBe('void');
    expect(browser.errors).toEqual([]);
  });

  it('a hand of an rng shoe in play: its seed check is pending until the shoe ends', async () => {
    const page = await open(stack.token('compliance', 'cora'), `#/compliance?table=${RNG}&shoe=1`);
    await page.getByText('pending: commitment, shuffle').first().waitFor({ timeout: 15_000 });
    expect(await handsTable(page).locator('tbody tr').count()).toBe(20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByRole('table', { name: /^Page 2: 4 hand/ }).waitFor();
  });

  it('a player’s audit trail: every movement with the hand behind it, and its CSV', async () => {
    const page = await open(stack.token('compliance', 'cora'), `#/compliance?table=${LIVE}&player=bob`);
    await page.getByRole('link', { name: 'Audit trail of bob' }).first().click();
    const entries = page.getByRole('table', { name: /movement/ });
    await entries.waitFor({ timeout: 15_000 });
    const live = (await rows(entries))
      .filter((r) => r[1] === LIVE)
      .map((r) => [r[2], r[3], r[5], r[7], r[8], r[9], r[10]]);
    // when, hand, amount, result, commission, by, why: each movement as the ledger recorded it
    expect(live).toEqual([
      ['buy-in', '', '$500', '', '', 'admin-1 (admin)', ''],
      ['bet', 'Hand 1', '$10', '', '', 'bob (player)', ''],
      ['settlement', 'Hand 1', '$0', 'lose', '', '', ''],
      ['settlement reversed', 'Hand 1', '$0', 'lose', '', 'sam (supervisor)', 'typed 2d for 4d'],
      ['settlement', 'Hand 1', '$10', 'push', '', 'sam (supervisor)', 'typed 2d for 4d'],
      ['bet', 'Hand 2', '$10', '', '', 'bob (player)', ''],
      ['settlement', 'Hand 2', '$20', 'win', '$0.50', '', ''],
      ['settlement reversed', 'Hand 2', '$20', 'win', '$0.50', 'sam (supervisor)', 'cards exposed'],
      ['stake returned (void)', 'Hand 2', '$10', '', '', 'sam (supervisor)', 'cards exposed'],
      ['bet', 'Hand 4', '$5', '', '', 'bob (player)', ''],
      ['settlement', 'Hand 4', '$10', 'win', '', '', ''],
    ]);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'compliance-audit-trail');
    const csv = await download(page, page.getByRole('button', { name: 'Download the ledger as CSV' }));
    expect(csv.name).toBe('ledger-bob.csv');
    expect(csv.text.split('\r\n')[0]).toBe(
      'position,seq,tableId,at,kind,roundNo,spot,paytable,amount,chipsDelta,result,commission,by,role,reason',
    );
    const ledger = await stack.api<{ entries: unknown[] }>('GET', '/api/players/bob/ledger?limit=500');
    expect(csv.text.trimEnd().split('\r\n')).toHaveLength(ledger.entries.length + 1);

    await entries
      .getByRole('link', { name: `Replay hand 4 of table ${LIVE}` })
      .first()
      .click();
    await page.locator('.replay-events li').first().waitFor({ timeout: 15_000 });
    expect(browser.errors).toEqual([]);
  });

  it('in Chinese', async () => {
    const page = await open(
      stack.token('compliance', 'cora'),
      `#/compliance?table=${LIVE}&outcome=void`,
      'zh',
    );
    await page.getByRole('heading', { name: '合规', exact: true }).waitFor({ timeout: 15_000 });
    await page.getByText('已核验').first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: '下载 CSV' }).count()).toBe(1);
    await expectNoSeriousA11yViolations(page);
  });
});

interface BetStatsAnswer {
  overall: {
    bets: { spot: string; coups: number; results: { result: string; count: number; expected: number }[] }[];
  };
}

/** Whether a canvas has anything drawn on it. */
const drawn = (canvas: Locator): Promise<boolean> =>
  canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d');
    if (!ctx || c.width === 0 || c.height === 0) return false;
    return ctx.getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v !== 0);
  });

describe('analyst', () => {
  it('the dashboard shows the outcome frequencies the service counts, drawn, and downloads their data', async () => {
    const page = await open(stack.token('analyst', 'ana'), `#/analyst?table=${RNG}`, 'en', 1900);
    const csp: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
    });
    const outcomes = page.getByTestId('outcomes');
    await outcomes.getByRole('img').waitFor({ timeout: 15_000 });
    const hands = await stack.api<{ items: { outcome: string | null }[] }>(
      'GET',
      `/api/tables/${RNG}/hands?limit=500`,
    );
    const counted = (o: string) => String(hands.items.filter((h) => h.outcome === o).length);
    await outcomes.getByText('Data', { exact: true }).click();
    const table = (await rows(outcomes.getByRole('table'))).map((r) => [r[0], r[1], r[2]]);
    expect(table).toEqual([
      ['Player', String(RNG_COUPS), counted('player')],
      ['Banker', String(RNG_COUPS), counted('banker')],
      ['Tie', String(RNG_COUPS), counted('tie')],
    ]);
    expect(await drawn(outcomes.getByRole('img'))).toBe(true);
    expect(await page.getByTestId('totals').textContent()).toMatch(
      new RegExp(`^${RNG_COUPS} coups, 0 voided;`),
    );

    // the dashboard's statistics are by gaming day: every gaming day, as the service counts them
    const stats = await stack.api<BetStatsAnswer>('GET', `/api/stats/bets?tableId=${RNG}&calendar=gaming`);
    const player = stats.overall.bets.find((b) => b.spot === 'player')!;
    const csv = await download(page, outcomes.getByRole('button', { name: 'Download the data (CSV)' }));
    expect(csv.name).toBe(`outcomes-${RNG}.csv`);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('result,coups,count,frequency,ciLow,ciHigh,expected,withinCi');
    const byResult = { player: 'win', banker: 'lose', tie: 'push' } as const;
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(
      (['player', 'banker', 'tie'] as const).map(
        (o) => `${o},${RNG_COUPS},${player.results.find((r) => r.result === byResult[o])!.count}`,
      ),
    );
    expect(Number(lines[1]!.split(',')[6])).toBeCloseTo(
      player.results.find((r) => r.result === 'win')!.expected,
      12,
    );

    for (const id of ['bet-results', 'hold', 'drop', 'pace'])
      expect(await drawn(page.getByTestId(id).getByRole('img'))).toBe(true);
    // the drop of the gaming day: both players' buy-ins, as the hold report answers
    const hold = await stack.api<{ rows: { gamingDay: string; dropAmount: number }[] }>(
      'GET',
      `/api/reports/hold?tableId=${RNG}&groupBy=gamingDay`,
    );
    expect(hold.rows.map((r) => r.dropAmount)).toEqual([1_000_000]);
    const drop = page.getByTestId('drop');
    await drop.getByText('Data', { exact: true }).click();
    expect((await rows(drop.getByRole('table'))).map((r) => [r[0], r[2]])).toEqual([
      [hold.rows[0]!.gamingDay, '$10,000'],
    ]);
    await page.getByLabel('Bet', { exact: true }).selectOption({ label: 'Player Pair (11-to-1)' });
    await page
      .getByRole('heading', { name: 'Results of Player Pair (11-to-1) beside the exact odds' })
      .waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'analyst-dashboard');
    expect(csp).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
    expect(browser.errors).toEqual([]);
  });

  it('a shift and a local hour: every chart counts the coups of that hour, as the service does', async () => {
    // the hour (and its shift) the coups were dealt in, as the hold report counts them
    const hours = await stack.api<{ rows: { shift: string; hour: number; coups: number }[] }>(
      'GET',
      `/api/reports/hold?tableId=${RNG}&groupBy=shift,hour`,
    );
    const busiest = [...hours.rows].sort((a, b) => b.coups - a.coups)[0]!;
    const page = await open(stack.token('analyst', 'ana'), `#/analyst?table=${RNG}`, 'en', 1900);
    await page.getByTestId('pace').getByRole('img').waitFor({ timeout: 15_000 });
    await page.getByLabel('Shift', { exact: true }).selectOption(busiest.shift);
    await page.getByLabel('Local hour', { exact: true }).selectOption(String(busiest.hour));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(new RegExp(`shift=${busiest.shift}&hour=${busiest.hour}$`));
    const outcomes = page.getByTestId('outcomes');
    await outcomes.getByRole('img').waitFor({ timeout: 15_000 });
    await outcomes.getByText('Data', { exact: true }).click();
    const stats = await stack.api<BetStatsAnswer>(
      'GET',
      `/api/stats/bets?tableId=${RNG}&shift=${busiest.shift}&hour=${busiest.hour}`,
    );
    const player = stats.overall.bets.find((b) => b.spot === 'player')!;
    expect(player.coups).toBe(busiest.coups);
    const byResult = { Player: 'win', Banker: 'lose', Tie: 'push' } as const;
    expect((await rows(outcomes.getByRole('table'))).map((r) => [r[0], r[1], r[2]])).toEqual(
      (['Player', 'Banker', 'Tie'] as const).map((o) => [
        o,
        String(busiest.coups),
        String(player.results.find((r) => r.result === byResult[o])!.count),
      ]),
    );
    const pace = page.getByTestId('pace');
    await pace.getByText('Data', { exact: true }).click();
    expect((await rows(pace.getByRole('table'))).map((r) => [r[3], r[4]])).toEqual([
      [busiest.shift, String(busiest.coups)],
    ]);
    await expectNoSeriousA11yViolations(page);
    expect(browser.errors).toEqual([]);
  });

  it('every table together, in Chinese', async () => {
    const page = await open(stack.token('analyst', 'ana'), '#/analyst', 'zh');
    await page.getByRole('heading', { name: '分析仪表板', exact: true }).waitFor({ timeout: 15_000 });
    await page.getByTestId('outcomes').getByRole('img').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('totals').textContent()).toMatch(/^共 \d+ 局/);
    await expectNoSeriousA11yViolations(page);
    expect(browser.errors).toEqual([]);
  });
});
