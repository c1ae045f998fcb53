/**
 * The dealer console's side bets: the rules line names the game mode and each side bet offered with its paytable;
 * the bets panel lists the side bets staked per player with the totals; the payouts name each side bet by its
 * catalogue label with the paytable it was paid by. The replay draws the same parts.
 */
import { render, screen, within } from '@testing-library/react';
import type { RoundView, TableRules } from '@coup/table';
import { BetsPanel, LastCoup, Result, RulesSummary } from './TableParts';
import { paysWords, paytableWords, spotLabel } from '../bets';

const RULES = {
  dealing: 'live',
  decks: 8,
  tiePays: 8,
  commission: 'deducted',
  game: 'ez',
  limits: {
    player: { min: 100, max: 500_000 },
    banker: { min: 100, max: 500_000 },
    tie: { min: 100, max: 100_000 },
  },
  sideBets: {
    perfectPair: { paytable: '25-or-200-to-1', min: 100, max: 10_000 },
    big: { paytable: '0.54-to-1', min: 100, max: 10_000 },
    dragon7: { paytable: '40-to-1', min: 100, max: 10_000 },
  },
} as unknown as TableRules;

const round = (over: Partial<RoundView>): RoundView =>
  ({
    roundNo: 4,
    shoeNo: 1,
    status: 'betting',
    openedAt: '2026-01-01T00:00:00.000Z',
    deadline: null,
    bets: { totals: { player: 0, banker: 0, tie: 0 }, bettors: 0, players: [] },
    cards: [],
    next: null,
    result: null,
    voided: null,
    ...over,
  }) as RoundView;

describe('side bets on the dealer console', () => {
  it('words: labels from the catalogue, paytables, what the banker pays by mode', () => {
    expect(spotLabel('bankerDragon')).toBe('Dragon Bonus Banker');
    expect(spotLabel('tie')).toBe('Tie');
    expect(paytableWords('big', '0.54-to-1')).toBe('0.54:1');
    expect(paytableWords('small', '1.5-to-1')).toBe('1.5:1');
    expect(paytableWords('perfectPair', '25-or-200-to-1')).toBe('25:1, both hands 200:1');
    expect(paytableWords('perfectPair', '25-to-1')).toBe('25:1');
    expect(paytableWords('playerDragon', 'standard')).toBe('natural 1:1, by 9 30:1 … by 4 1:1');
    expect(paysWords('banker', { tiePays: 8, game: 'no-commission' })).toBe('pays 1:1, 1:2 on a 6');
    expect(paysWords('banker', { tiePays: 8 })).toBe('pays 1:1 less 5%');
    expect(
      paysWords('super6', { tiePays: 8, sideBets: { super6: { paytable: '15-to-1', min: 1, max: 1 } } }),
    ).toBe('pays 15:1');
    expect(paysWords('panda8', { tiePays: 8 })).toBe('not offered');
  });

  it('the rules line: the game mode and each side bet offered with what it pays', () => {
    render(<RulesSummary rules={RULES} />);
    expect(screen.getByTestId('rules-summary').textContent).toBe(
      'live, 8 decks, EZ Baccarat, tie 8:1; side bets: Perfect Pair 25:1, both hands 200:1, Big 0.54:1, Dragon 7 40:1',
    );
  });

  it('the bets panel: each side bet staked per player, and the total of each', () => {
    render(
      <BetsPanel
        round={round({
          bets: {
            totals: { player: 1000, banker: 500, tie: 0, big: 300, dragon7: 700 },
            bettors: 2,
            players: [
              { playerId: 'alice', player: 1000, banker: 0, tie: 0, dragon7: 500, big: 300 },
              { playerId: 'bob', player: 0, banker: 500, tie: 0, dragon7: 200 },
            ],
          },
        })}
      />,
    );
    const table = screen.getByRole('table', { name: 'Side bets' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows.slice(1)).toEqual([
      ['alice', 'Big', '$3'],
      ['alice', 'Dragon 7', '$5'],
      ['bob', 'Dragon 7', '$2'],
      ['total', 'Big', '$3'],
      ['total', 'Dragon 7', '$7'],
    ]);
  });

  it('no side bets staked: no side-bets table, and the payouts have no paytable column', () => {
    render(
      <>
        <BetsPanel round={round({})} />
        <Result
          round={round({
            status: 'resolved',
            result: {
              roundNo: 4,
              outcome: 'player',
              playerTotal: 9,
              bankerTotal: 3,
              natural: true,
              settlements: [
                { playerId: 'alice', spot: 'player', amount: 1000, result: 'win', paid: 2000, commission: 0 },
              ],
            } as unknown as RoundView['result'],
          })}
        />
      </>,
    );
    expect(screen.queryByRole('table', { name: 'Side bets' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'paytable' })).toBeNull();
  });

  it('the payouts: a side bet by its label with its paytable, result and paid', () => {
    render(
      <Result
        round={round({
          status: 'resolved',
          result: {
            roundNo: 4,
            outcome: 'banker',
            playerTotal: 5,
            bankerTotal: 7,
            natural: false,
            settlements: [
              { playerId: 'alice', spot: 'banker', amount: 1000, result: 'push', paid: 1000, commission: 0 },
              {
                playerId: 'alice',
                spot: 'dragon7',
                amount: 500,
                result: 'win',
                paid: 20_500,
                commission: 0,
                paytable: '40-to-1',
              },
            ],
          } as unknown as RoundView['result'],
        })}
      />,
    );
    const table = screen.getByRole('table', { name: 'Payouts, round 4' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows.slice(1)).toEqual([
      ['alice', 'Banker', '', '$10', 'push', '$10', ''],
      ['alice', 'Dragon 7', '40-to-1 (40:1)', '$5', 'win', '$205', ''],
    ]);
  });

  it("a player-dealt table's last coup, with its side bets, while the next round takes bets", () => {
    render(
      <LastCoup
        result={
          {
            roundNo: 3,
            outcome: 'player',
            playerTotal: 8,
            bankerTotal: 2,
            natural: true,
            settlements: [
              {
                playerId: 'sam',
                spot: 'playerPair',
                amount: 100,
                result: 'lose',
                paid: 0,
                commission: 0,
                paytable: '11-to-1',
              },
            ],
          } as unknown as RoundView['result']
        }
      />,
    );
    const last = screen.getByTestId('last-coup');
    expect(last.textContent).toContain('Last coup, round 3');
    expect(within(last).getByRole('table', { name: 'Payouts, round 3' }).textContent).toContain(
      'Player Pair11-to-1 (11:1)$1lose$0',
    );
  });
});
