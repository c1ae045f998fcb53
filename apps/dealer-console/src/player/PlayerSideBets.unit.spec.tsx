/**
 * The player page on a table that offers side bets (a personal table the pit opened with side bets): a field per
 * side bet with what it pays and its limits, bets on them beside a main bet, their limits and refusals, and their
 * settlement. The online game of the rules text offers none.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ONLINE_RULES } from '@coup/table';
import { PlayerPage } from './PlayerPage';
import { fakeTable } from './fakeTable';

type Fake = ReturnType<typeof fakeTable>;

const SIDE_BET_RULES = {
  ...ONLINE_RULES,
  commission: undefined,
  game: 'ez',
  sideBets: { playerPair: {}, dragon7: { min: 100, max: 2000 }, panda8: { paytable: '25-to-1' } },
};

async function seated(rules?: Record<string, unknown>): Promise<Fake> {
  const fake = fakeTable('alice', rules);
  const { tableId } = await fake.api.open();
  await fake.api.buyIn(tableId, 100_000);
  fake.calls.length = 0;
  return fake;
}

function renderPage(fake: Fake) {
  render(
    <PlayerPage
      api={fake.api}
      playerId="alice"
      loadHistory={async () => fake.playerEvents()}
      revealMs={1}
      storage={window.localStorage}
      audio={() => null}
    />,
  );
}

const field = (name: string) => screen.getByRole('button', { name: new RegExp(`^Bet on ${name} pays`) });
const totalBet = () => screen.getByTestId('total-bet').textContent;

beforeEach(() => window.localStorage.clear());

describe('PlayerPage with side bets', () => {
  it('the online game of the rules text offers no side bet', async () => {
    renderPage(await seated());
    await screen.findByRole('button', { name: '$1 chip' });
    expect(screen.queryByRole('group', { name: 'side bets' })).toBeNull();
    expect(screen.queryByLabelText('side bets')).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Bet on / })).toHaveLength(3);
  });

  it('offers each side bet of the table with what it pays and its limits, and the mode on the banker', async () => {
    renderPage(await seated(SIDE_BET_RULES));
    await screen.findByRole('button', { name: '$1 chip' });
    const side = screen.getByLabelText('side bets');
    expect(
      within(side)
        .getAllByRole('button')
        .map((b) => b.querySelector('.bet-name')?.textContent),
    ).toEqual(['Player Pair', 'Dragon 7', 'Panda 8']);
    expect(field('Dragon 7').textContent).toContain('pays 40:1');
    expect(field('Dragon 7').textContent).toContain('$1–$20');
    expect(field('Panda 8').textContent).toContain('pays 25:1');
    expect(field('Player Pair').textContent).toContain('pays 11:1');
    expect(field('Banker').textContent).toContain('a 3-card 7 pushes');
  });

  it('places a side bet beside a main bet, stops one past its maximum, and shows the service refusing one alone', async () => {
    const fake = await seated(SIDE_BET_RULES);
    renderPage(fake);
    await screen.findByRole('button', { name: '$1 chip' });
    fireEvent.click(field('Dragon 7'));
    const alone = await screen.findByRole('alert');
    expect(alone.getAttribute('data-code')).toBe('MAIN_BET_REQUIRED');
    fireEvent.click(field('Player'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $1'));
    fireEvent.click(field('Dragon 7'));
    await waitFor(() => expect(totalBet()).toBe('Total bet: $2'));
    expect(field('Dragon 7').querySelector('.bet-amount')?.textContent).toBe('$1');
    fireEvent.click(screen.getByRole('button', { name: '$25 chip' }));
    fireEvent.click(field('Dragon 7'));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'Table maximum: the Dragon 7 bet would be $26, above the $20 maximum',
      ),
    );
    expect(fake.calls.filter((c) => c.startsWith('bet'))).toEqual([
      'bet dragon7 100',
      'bet player 100',
      'bet dragon7 100',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'DEAL' }));
    const result = await screen.findByTestId('coup-result');
    const dragon = fake.state().lastResult?.settlements.find((s) => s.spot === 'dragon7');
    await waitFor(() =>
      expect(result.textContent).toContain(`Dragon 7 $1 ${dragon?.result === 'win' ? 'wins' : 'loses'}`),
    );
  });
});
