/**
 * The replay screen of a coup put right after it settled (its audit trail, the result in force re-resolved), and
 * the replay and hand-list screens in Simplified Chinese with times in the casino's time zone: every key they ask
 * for is in the catalogues and no English is left in what they show but ids, codes, cards and the service's words.
 */
import { render, screen, within } from '@testing-library/react';
import { latinWords, missingKeysIn } from '../components/i18nTesting';
import type { ReadApi } from './api';
import { HandList } from './HandList';
import { ReplayScreen } from './ReplayScreen';
import { amendedTable, replayOf, verification } from './testing/fixture';
import type { HandSummary } from '@coup/projections/wire';

const events = amendedTable();

function fakeApi(): ReadApi {
  return {
    replay: jest.fn(async (_t: string, round: number) => replayOf(events, round, 1)),
    verify: jest.fn(async (_t: string, round: number) => verification(round)),
    hands: jest.fn(async () => ({ items: [summary(2), summary(1)], nextCursor: null })),
    hand: jest.fn(),
  } as unknown as ReadApi;
}

function summary(roundNo: number): HandSummary {
  const corrected = roundNo === 1;
  return {
    tableId: 'T1',
    roundNo,
    shoeNo: 1,
    status: corrected ? 'resolved' : 'voided',
    openedAt: '2026-11-29T12:00:03.000Z',
    resolvedAt: '2026-11-29T12:00:10.000Z',
    outcome: corrected ? 'player' : null,
    natural: corrected ? false : null,
    playerCards: corrected ? ['2c', '3s', '4c'] : [],
    bankerCards: corrected ? ['7d', 'Th'] : [],
    playerTotal: corrected ? 9 : null,
    bankerTotal: corrected ? 7 : null,
    players: ['alice'],
    betCount: 1,
    totalStaked: 1000,
    totalPaid: corrected ? 0 : 1000,
    commission: 0,
    houseResult: corrected ? 1000 : 0,
    dealer: 'dealer-1',
    voidReason: corrected ? null : 'cards exposed',
    amended: true,
  };
}

async function openReplay(roundNo: number) {
  const view = render(
    <ReplayScreen token="t" tableId="T1" roundNo={roundNo} initialStep={null} api={fakeApi()} />,
  );
  await screen.findByRole('group', { name: /./ });
  return view;
}

function casinoZone(zone: string | null) {
  document.querySelector('meta[name="coup-time-zone"]')?.remove();
  if (zone === null) return;
  const meta = document.createElement('meta');
  meta.name = 'coup-time-zone';
  meta.content = zone;
  document.head.append(meta);
}

beforeEach(() => casinoZone('Asia/Macau'));
afterAll(() => casinoZone(null));

describe('a coup corrected after it settled, replayed', () => {
  it('matches its corrected cards, and the audit trail shows the original, the correction, who and why', async () => {
    await openReplay(1);
    const coup = screen.getByRole('region', { name: 'coup re-resolved' });
    expect(coup.textContent).toMatch(
      /MATCHES the engine resolves the corrected cards to the result in force/,
    );
    expect(coup.textContent).toMatch(/Player wins 9 to 7/);
    expect(coup.textContent).not.toMatch(/DIFFER/);
    const trail = screen.getByRole('region', { name: 'audit trail' });
    const item = (kind: string) => trail.querySelector(`[data-audit="${kind}"]`)?.textContent ?? '';
    expect(item('original')).toMatch(
      /^Original result at 29\/11\/2026, 20:00:10 \(step 9\)Banker wins 4 to 7.*paid \$19\.50/,
    );
    expect(item('correction')).toMatch(
      /^Correction 1: card 5: 9c became 4c.*at 29\/11\/2026, 20:00:11, by sam \(supervisor\).*Reason: third card misread.*settlement reversed \(it had paid \$19\.50\).*result in force: Player wins 9 to 7.*paid \$0/,
    );
  });

  it('a coup voided after it settled shows as voided, with who and why', async () => {
    await openReplay(2);
    const coup = screen.getByRole('region', { name: 'coup re-resolved' });
    expect(screen.getByTestId('coup-voided').textContent).toBe(
      'Voided after it settled, by sam: cards exposed. Nothing to re-resolve.',
    );
    expect(coup.textContent).not.toMatch(/MATCHES|DIFFERS/);
    const trail = screen.getByRole('region', { name: 'audit trail' });
    expect(within(trail).getByText(/every stake returned/).textContent).toMatch(/\$10/);
    expect(trail.textContent).toMatch(/Voided after it settled.*by sam \(supervisor\).*cards exposed/);
  });

  it("shows each event's time in the casino's time zone", async () => {
    await openReplay(1);
    const list = screen.getByRole('list', { name: 'events' });
    // BettingOpened was recorded at 12:00:03 UTC: 20:00:03 in Macau
    expect(list.querySelector('li')?.textContent).toMatch(/^1\. BettingOpened #\d+ 20:00:03/);
  });
});

describe('the replay and hand-list screens in Simplified Chinese', () => {
  const ALLOWED = ['sam', 'alice', 'dealer', 'Home', 'End', 'T1'];

  it('the replay of a corrected coup: every key found, no English left', async () => {
    let text = '';
    const missing = await missingKeysIn('zh', async () => {
      const view = await openReplay(1);
      await screen.findByText(/已核验/);
      // the event's recorded data, the service's own words, a reason as typed and the step's address are shown as
      // they are
      for (const el of view.container.querySelectorAll('pre, [lang="en"], q, .replay-link a')) el.remove();
      text = view.container.textContent ?? '';
      expect(text).toMatch(/一致 引擎对更正后的牌的判定与现行结果/);
      expect(text).toMatch(/原始结果 于 2026\/11\/29 20:00:10/);
      expect(text).toMatch(
        /第 1 次更正：第 5 张牌：9c 改为 4c（第 10 步）于 2026\/11\/29 20:00:11，操作人 sam（主管）/,
      );
      view.unmount();
    });
    expect(missing).toEqual([]);
    expect(latinWords(text, ALLOWED)).toEqual([]);
  });

  it('the hand list: every key found, no English left, times in the casino zone', async () => {
    let text = '';
    const missing = await missingKeysIn('zh', async () => {
      const view = render(<HandList token="t" tableId="T1" api={fakeApi()} />);
      await screen.findByRole('link', { name: '第 1 手' });
      text = view.container.textContent ?? '';
      expect(text).toMatch(/结算后已更正/);
      expect(text).toMatch(/作废：cards exposed 结算后已作废/);
      expect(text).toMatch(/2026\/11\/29 20:00:03/);
      view.unmount();
    });
    expect(missing).toEqual([]);
    expect(latinWords(text.replace('cards exposed', ''), ALLOWED)).toEqual([]);
  });
});
