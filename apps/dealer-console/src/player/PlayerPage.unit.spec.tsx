import { ApiError } from '../api';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { PlayerPage } from './PlayerPage';
import { fakeTable } from './fakeTable';
import type { AudioLike } from './sound';
import { SOUND_KEY } from './sound';

type Fake = ReturnType<typeof fakeTable>;

function renderPage(fake: Fake, extra: { revealMs?: number; audio?: () => AudioLike | null } = {}) {
  return render(
    <PlayerPage
      api={fake.api}
      playerId="alice"
      loadHistory={async () => fake.playerEvents()}
      revealMs={extra.revealMs ?? 1}
      storage={window.localStorage}
      audio={extra.audio ?? (() => null)}
    />,
  );
}

/** A fake table where alice has bought `dollars` in. */
async function seated(dollars = 1000): Promise<Fake> {
  const fake = fakeTable('alice');
  const { tableId } = await fake.api.open();
  await fake.api.buyIn(tableId, dollars * 100);
  fake.calls.length = 0;
  return fake;
}

const field = (name: 'Player' | 'Banker' | 'Tie') =>
  screen.getByRole('button', { name: new RegExp(`^Bet on ${name}`) });
const chip = (dollars: number) => screen.getByRole('button', { name: `$${dollars} chip` });
const totalBet = () => screen.getByTestId('total-bet').textContent;

beforeEach(() => window.localStorage.clear());

describe('PlayerPage', () => {
  it('given no chips, shows the buy-in form; buying in shows the chips stacked by denomination', async () => {
    const fake = fakeTable('alice');
    renderPage(fake);
    fireEvent.change(await screen.findByLabelText('Amount in dollars'), { target: { value: '631' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy in' }));
    await screen.findByRole('button', { name: '$500 chip' });
    expect(fake.calls).toContain('buyIn 63100');
    expect(screen.getByLabelText('balance').textContent).toContain('$631');
    for (const d of [500, 100, 25, 5, 1]) expect(within(chip(d)).getByText('×1')).toBeTruthy();
  });

  it('opens the table again once when the first open is refused, and shows a second refusal', async () => {
    const fake = await seated();
    let refusals = 1;
    const open = fake.api.open;
    const api = {
      ...fake.api,
      open: async () => {
        if (refusals-- > 0) throw new ApiError(409, 'WRONG_PHASE', 'raced');
        return open();
      },
    };
    const { unmount } = render(<PlayerPage api={api} playerId="alice" loadHistory={async () => []} />);
    await screen.findByRole('button', { name: '$1 chip' });
    unmount();
    refusals = 2;
    render(<PlayerPage api={api} playerId="alice" loadHistory={async () => []} />);
    expect((await screen.findByRole('alert', {}, { timeout: 2000 })).textContent).toContain(
      'WRONG_PHASE: raced',
    );
  });

  it('selects a chip by click or number key; the smallest is selected at first', async () => {
    renderPage(await seated());
    await screen.findByRole('button', { name: '$1 chip' });
    await waitFor(() => expect(chip(1).getAttribute('aria-pressed')).toBe('true'));
    fireEvent.click(chip(25));
    expect(chip(25).getAttribute('aria-pressed')).toBe('true');
    expect(chip(1).getAttribute('aria-pressed')).toBe('false');
    fireEvent.keyDown(window, { key: '4' });
    expect(chip(100).getAttribute('aria-pressed')).toBe('true');
    expect(chip(25).getAttribute('aria-pressed')).toBe('false');
  });

  it('adds the selected chip per click, one command each, and shows the total under the table', async () => {
    const fake = await seated();
    renderPage(fake);
    fireEvent.click(await screen.findByRole('button', { name: '$5 chip' }));
    for (let i = 0; i < 3; i++) {
      fireEvent.click(field('Player'));
      await waitFor(() => expect(totalBet()).toBe(`Total bet: $${5 * (i + 1)}`));
    }
    fireEvent.click(chip(25)); // change the chip mid-way
    fireEvent.click(field('Tie'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $40'));
    expect(field('Player').textContent).toContain('$15');
    expect(field('Tie').textContent).toContain('$25');
    expect(fake.calls).toEqual([
      'open',
      'bet player 500',
      'bet player 500',
      'bet player 500',
      'bet tie 2500',
    ]);
    expect(screen.getByLabelText('balance').textContent).toContain('$960');
  });

  it('stops a click that would pass the table maximum, with the reason, without asking the service', async () => {
    const fake = await seated();
    renderPage(fake);
    fireEvent.click(await screen.findByRole('button', { name: '$100 chip' }));
    fireEvent.click(field('Tie'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $100'));
    fireEvent.click(field('Tie'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $200'));
    fireEvent.click(field('Tie')); // tie max is $200
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Table maximum');
    expect(alert.textContent).toContain('$300');
    expect(alert.textContent).toContain('$200');
    expect(fake.calls.filter((c) => c.startsWith('bet'))).toHaveLength(2);
    expect(totalBet()).toBe('Total bet: $200');
  });

  it('takes quick clicks in order without waiting for answers, and stops the one past the maximum', async () => {
    const fake = await seated();
    renderPage(fake);
    fireEvent.click(await screen.findByRole('button', { name: '$100 chip' }));
    fireEvent.click(field('Tie'));
    fireEvent.click(field('Tie'));
    fireEvent.click(chip(5));
    fireEvent.click(field('Tie'));
    fireEvent.click(chip(100));
    fireEvent.click(field('Tie')); // the $5 and this $100 would each pass the $200 maximum: both stopped
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Table maximum'));
    expect(totalBet()).toBe('Total bet: $200');
    expect(fake.calls).toEqual(['open', 'bet tie 10000', 'bet tie 10000']);
  });

  it("shows the service's PLAYER_AND_BANKER refusal when Player and Banker are bet together", async () => {
    const fake = await seated();
    renderPage(fake);
    await screen.findByRole('button', { name: '$1 chip' });
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $1'));
    fireEvent.click(field('Banker'));
    const alert = await screen.findByRole('alert');
    expect(alert.getAttribute('data-code')).toBe('PLAYER_AND_BANKER');
    expect(alert.textContent).toContain('Player and Banker may not both be bet');
    expect(fake.calls).toContain('bet banker 100');
    expect(totalBet()).toBe('Total bet: $1');
  });

  it('enables DEAL once a bet is placed; CLEAR BET takes it back', async () => {
    const fake = await seated();
    renderPage(fake);
    const deal = await screen.findByRole('button', { name: 'DEAL' });
    expect((deal as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(field('Banker'));
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'DEAL' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'CLEAR BET' }));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $0'));
    expect((screen.getByRole('button', { name: 'DEAL' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByLabelText('balance').textContent).toContain('$1,000');
  });

  it('deals the cards one after another in dealing order, then the totals, result and payout', async () => {
    const fake = await seated();
    renderPage(fake, { revealMs: 1000 });
    fireEvent.click(await screen.findByRole('button', { name: '$5 chip' }));
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $5'));
    jest.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'DEAL' }));
      await act(async () => {
        await Promise.resolve();
      });
      await waitFor(() => expect(fake.calls).toContain('deal'));
      const coup = fake.state().lastResult;
      if (!coup) throw new Error('no coup');
      const order = [
        ['player', coup.playerCards[0]],
        ['banker', coup.bankerCards[0]],
        ['player', coup.playerCards[1]],
        ['banker', coup.bankerCards[1]],
        ...(coup.playerCards[2] ? [['player', coup.playerCards[2]]] : []),
        ...(coup.bankerCards[2] ? [['banker', coup.bankerCards[2]]] : []),
      ] as const;
      const shownCount = () =>
        screen.getByTestId('player-cards').children.length +
        screen.getByTestId('banker-cards').children.length;
      expect(shownCount()).toBe(0);
      for (let i = 0; i < order.length; i++) {
        await act(async () => {
          jest.advanceTimersByTime(1000);
        });
        expect(shownCount()).toBe(i + 1);
        const [side] = order[i] ?? [];
        const last = screen.getByTestId(`${side}-cards`).lastElementChild;
        expect(last?.textContent?.startsWith(String(i + 1))).toBe(true); // the dealing-order number
        if (i < order.length - 1) expect(screen.queryByTestId('coup-result')).toBeNull();
      }
      const result = screen.getByTestId('coup-result');
      expect(result.textContent).toContain(`${coup.playerTotal} to ${coup.bankerTotal}`);
      const s = coup.settlements[0];
      expect(s).toBeDefined();
      expect(result.textContent).toContain(
        s?.result === 'win' ? '+$5' : s?.result === 'lose' ? '-$5' : 'push',
      );
    } finally {
      jest.useRealTimers();
    }
  });

  it("changes the balance, the history and the ledger only once the coup's cards are all shown", async () => {
    // The first coup's winner (the fake's seeds are fixed): bet on it, so the settlement changes the balance.
    const dry = await seated();
    const at = await dry.api.open();
    await dry.api.bet(at.tableId, at.view.roundNo, 'alice', 'tie', 100);
    await dry.api.deal(at.tableId, at.view.roundNo);
    const winner = dry.state().lastResult?.outcome ?? 'tie';
    const name = ({ player: 'Player', banker: 'Banker', tie: 'Tie' } as const)[winner];

    const fake = await seated();
    renderPage(fake, { revealMs: 1000 });
    fireEvent.click(await screen.findByRole('button', { name: '$5 chip' }));
    fireEvent.click(field(name));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $5'));
    await waitFor(() =>
      expect(screen.getByTestId('ledger-summary').textContent).toContain('0 bet placements'),
    );
    const balance = () => screen.getByLabelText('balance').textContent;
    expect(balance()).toContain('$995');
    jest.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'DEAL' }));
      await waitFor(() => expect(fake.calls).toContain('deal'));
      const coup = fake.state().lastResult;
      const cards = (coup?.playerCards.length ?? 0) + (coup?.bankerCards.length ?? 0);
      const after = fake.state().players[0]?.chips ?? 0;
      expect(after).toBeGreaterThan(99_500); // the settlement paid the bet
      // the answer and the table after it are in, the settled chips with them: none of it shows yet
      for (let i = 0; i < cards; i++) {
        await act(async () => {
          await Promise.resolve();
        });
        expect(balance()).toContain('$995');
        expect(screen.queryByTestId('history-1')).toBeNull();
        expect(screen.getByTestId('ledger-summary').textContent).toContain('0 bet placements');
        expect(field(name).textContent).toContain('$5'); // the stake stays on the layout while dealt
        await act(async () => {
          jest.advanceTimersByTime(1000);
        });
      }
      // the last card is shown: the result, the balance, the history and the ledger follow
      expect(screen.getByTestId('coup-result')).toBeTruthy();
      expect(balance()).toContain(`$${(after / 100).toLocaleString('en-US')}`);
    } finally {
      jest.useRealTimers();
    }
    await screen.findByTestId('history-1');
    await waitFor(() =>
      expect(screen.getByTestId('ledger-summary').textContent).toContain('1 bet placement'),
    );
    expect(totalBet()).toBe('Total bet: $0');
  });

  it('shows the banker commission where it is taken', async () => {
    const fake = await seated();
    // Deal banker bets until the banker wins (the fixed seeds make this deterministic).
    renderPage(fake);
    fireEvent.click(await screen.findByRole('button', { name: '$100 chip' }));
    for (let i = 0; i < 12; i++) {
      fireEvent.click(field('Banker'));
      await waitFor(() => expect(totalBet()).toBe('Total bet: $100'));
      fireEvent.click(screen.getByRole('button', { name: 'DEAL' }));
      await waitFor(() => expect(fake.state().lastResult?.roundNo).toBe(i + 1));
      await waitFor(() => {
        expect((field('Banker') as HTMLButtonElement).disabled).toBe(false); // dealt, betting again
        expect(screen.getByTestId('coup-result')).toBeTruthy();
      });
      if (fake.state().lastResult?.outcome === 'banker') break;
    }
    expect(fake.state().lastResult?.outcome).toBe('banker');
    expect(screen.getByTestId('coup-result').textContent).toContain('+$95 (5% commission $5 taken)');
  });

  it('REBET with the 0 key repeats the last bet', async () => {
    const fake = await seated();
    renderPage(fake);
    fireEvent.click(await screen.findByRole('button', { name: '$25 chip' }));
    fireEvent.click(field('Tie'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $25'));
    fireEvent.click(screen.getByRole('button', { name: 'DEAL' }));
    await screen.findByTestId('coup-result');
    await waitFor(() => expect(totalBet()).toBe('Total bet: $0'));
    fireEvent.keyDown(window, { key: '0' });
    await waitFor(() => expect(totalBet()).toBe('Total bet: $25'));
    expect(fake.calls).toContain('rebet');
    expect(field('Tie').textContent).toContain('$25');
  });

  it('remembers the sound setting, and makes no sound while it is off', async () => {
    const fake = await seated();
    const made: number[] = [];
    const audio = () => {
      made.push(1);
      return null;
    };
    const first = renderPage(fake, { audio });
    const on = await screen.findByRole('button', { name: 'Sound on' });
    expect(on.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(on);
    expect(window.localStorage.getItem(SOUND_KEY)).toBe('off');
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $1'));
    expect(made).toEqual([]); // off: no AudioContext at all
    first.unmount();
    renderPage(fake, { audio });
    const off = await screen.findByRole('button', { name: 'Sound off' });
    expect(off.getAttribute('aria-pressed')).toBe('false');
    fireEvent.keyDown(window, { key: 's' });
    expect(window.localStorage.getItem(SOUND_KEY)).toBe('on');
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $2'));
    expect(made).toEqual([1]);
  });

  it('opens the help with "?" (button or key): rules, third-card table, payouts, shortcuts', async () => {
    renderPage(await seated());
    fireEvent.click(await screen.findByRole('button', { name: 'Help' }));
    const help = screen.getByRole('dialog', { name: 'Help' });
    expect(help.textContent).toContain('Tie: 8:1');
    expect(help.textContent).toContain('1:1 less 5% commission');
    expect(help.textContent).toContain('0 1 2 3 4 5 6 7 9'); // banker 3 draws on a ten/face too
    expect(help.textContent).toContain('REBET');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.keyDown(window, { key: '?' });
    expect(screen.getByRole('dialog', { name: 'Help' })).toBeTruthy();
  });

  it('refuses to exit while a bet is on the layout and offers DEAL or CLEAR; exits once it is cleared', async () => {
    const fake = await seated();
    renderPage(fake);
    await screen.findByRole('button', { name: '$1 chip' });
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $1'));
    fireEvent.click(screen.getByRole('button', { name: 'Exit game' }));
    const alert = await screen.findByRole('alert');
    expect(alert.getAttribute('data-code')).toBe('COUP_INCOMPLETE');
    fireEvent.click(within(alert).getByRole('button', { name: 'CLEAR BET' }));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $0'));
    fireEvent.click(screen.getByRole('button', { name: 'Exit game' }));
    expect((await screen.findByRole('status')).textContent).toContain('$1,000 cashed out');
    expect(screen.getByRole('button', { name: 'Buy in' })).toBeTruthy();
  });

  it('on load shows the last coup from the view (a reload in the middle of a deal)', async () => {
    const fake = await seated();
    const { tableId, view } = await fake.api.open();
    await fake.api.bet(tableId, view.roundNo, 'alice', 'player', 1000);
    await fake.api.deal(tableId, view.roundNo);
    const coup = fake.state().lastResult;
    renderPage(fake);
    const result = await screen.findByTestId('coup-result');
    expect(result.textContent).toContain(`last coup, round ${coup?.roundNo}`);
    expect(
      screen.getByTestId('player-cards').children.length + screen.getByTestId('banker-cards').children.length,
    ).toBe((coup?.playerCards.length ?? 0) + (coup?.bankerCards.length ?? 0));
  });

  it("follows a settled coup's correction and void as soon as they are pushed: history and balance", async () => {
    const fake = await seated();
    renderPage(fake);
    fireEvent.click(await screen.findByRole('button', { name: '$25 chip' }));
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $25'));
    fireEvent.click(screen.getByRole('button', { name: 'DEAL' }));
    const row = () => screen.getByTestId('history-1');
    await screen.findByTestId('history-1');
    const balance = () => screen.getByLabelText('balance').textContent;
    const chips = () => `$${((fake.state().players[0]?.chips ?? 0) / 100).toLocaleString('en-US')}`;
    await waitFor(() => expect(balance()).toContain(chips()));

    // corrected to a tie: the Player bet pushed, the stake back, the row says so
    act(() => void fake.amend('tie'));
    await waitFor(() => expect(row().textContent).toContain('Corrected after it settled'));
    expect(row().textContent).toContain('Tie 6–6');
    expect(row().textContent).toContain('Player $25 push');
    expect(row().textContent).toContain('first card misread');
    expect(row().getAttribute('data-amended')).toBe('corrected');
    expect(fake.state().players[0]?.chips).toBe(100_000);
    await waitFor(() => expect(balance()).toContain('$1,000'));

    // then voided: still listed, marked voided, the stake returned
    act(() => void fake.amend('void'));
    await waitFor(() => expect(row().getAttribute('data-amended')).toBe('voided'));
    expect(row().textContent).toContain('Voided after it settled');
    expect(row().textContent).toContain('stake returned $25');
    expect(row().textContent).not.toContain('push');
    await waitFor(() => expect(balance()).toContain(chips()));
    await waitFor(() =>
      expect(screen.getByTestId('ledger-summary').textContent).toContain('0 won, 0 lost, 0 pushed'),
    );
  });

  it('lists played hands with a replay link and the seed checked against the commitment', async () => {
    const fake = await seated();
    renderPage(fake);
    await screen.findByRole('button', { name: '$1 chip' });
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $1'));
    fireEvent.click(screen.getByRole('button', { name: 'DEAL' }));
    const row = await screen.findByTestId('history-1');
    expect(within(row).getByRole('link', { name: '#1 replay' }).getAttribute('href')).toBe(
      '#/tables/online-alice/hands/1',
    );
    expect(row.textContent).toContain('✓ sha256(seed) = commitment');
    const coup = fake.state().lastResult;
    const net = (coup?.settlements[0]?.paid ?? 0) - 100;
    await waitFor(() =>
      expect(screen.getByTestId('ledger-summary').textContent).toContain(
        `bought in $1,000, 1 bet placement; bets settled: ${net > 0 ? 1 : 0} won, ${net < 0 ? 1 : 0} lost, ${net === 0 ? 1 : 0} pushed`,
      ),
    );
  });
});
