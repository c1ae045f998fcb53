/** How `coup replay` prints side bets: their catalogue labels, paytables and stakes. */
import type { ReplayEvent } from '@coup/projections';
import type { TableView } from '@coup/table';
import { describeEvent, describeView, escapeUnprintable, spotName } from './replay';

const event = (type: string, data: Record<string, unknown>) => ({ type, data }) as unknown as ReplayEvent;

describe('coup replay with side bets', () => {
  it('names a side bet by its label, a main spot by its name', () => {
    expect(spotName('dragon7')).toBe('Dragon 7');
    expect(spotName('playerPair')).toBe('Player Pair');
    expect(spotName('banker')).toBe('banker');
  });

  it("prints the table's game mode and side bets with paytables and limits", () => {
    const line = describeEvent(
      event('TableOpened', {
        tableId: 'EZ1',
        by: 'admin-1',
        rules: {
          dealing: 'live',
          decks: 8,
          game: 'ez',
          sideBets: { dragon7: { paytable: '40-to-1', min: 100, max: 10_000 } },
        },
      }),
    );
    expect(line).toBe(
      'table EZ1 opened: ez game, live, 8 decks; side bets: Dragon 7 40-to-1 1.00-100.00 by admin-1',
    );
  });

  it('prints a side bet placed and settled with its paytable', () => {
    expect(describeEvent(event('BetPlaced', { playerId: 'p1', spot: 'panda8', amount: 500, by: 'p1' }))).toBe(
      'p1 bets 5.00 on Panda 8 by p1',
    );
    const line = describeEvent(
      event('CoupResolved', {
        playerTotal: 5,
        bankerTotal: 7,
        playerCards: ['2c', '3c', 'Kc'],
        bankerCards: ['3d', 'Td', '4h'],
        outcome: 'banker',
        natural: false,
        settlements: [
          { playerId: 'p1', spot: 'banker', amount: 1000, result: 'push', paid: 1000, commission: 0 },
          {
            playerId: 'p1',
            spot: 'dragon7',
            amount: 500,
            result: 'win',
            paid: 20_500,
            commission: 0,
            paytable: '40-to-1',
          },
        ],
      }),
    );
    expect(line).toContain('p1 banker 10.00 push paid 10.00\n');
    expect(line).toContain('p1 Dragon 7 5.00 win paid 205.00 (paytable 40-to-1)');
  });

  it('prints the side bets staked in the round beside the main spots', () => {
    const view = {
      phase: 'betting',
      round: {
        bets: { totals: { player: 0, banker: 1000, tie: 0, dragon7: 500, playerPair: 200 } },
        cards: [],
        next: null,
      },
      shoe: null,
    } as unknown as TableView;
    expect(describeView(view)).toBe(
      'phase betting; stakes P 0.00 B 10.00 T 0.00, Player Pair 2.00, Dragon 7 5.00',
    );
  });
});

describe('coup replay with a reason recorded before reasons were checked', () => {
  it('prints control, bidi and zero-width characters escaped, so the event cannot drive the terminal', () => {
    const line = describeEvent(
      event('RoundVoided', {
        roundNo: 1,
        reason: 'misdeal\r\nVOID APPROVED BY GAMING COMMISSION\u001b[2J\u202e\u200b\u0000 ok',
        returned: [{ playerId: 'p1', amount: 1000 }],
        by: 'sup-1',
      }),
    );
    expect(line).toBe(
      'round voided by sup-1: misdeal\\u000d\\u000aVOID APPROVED BY GAMING COMMISSION\\u001b[2J\\u202e\\u200b\\u0000 ok; ' +
        'returned p1 10.00',
    );
    expect(line).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });

  it('leaves printable text as it is, and escapes a character beyond the BMP by its code point', () => {
    expect(escapeUnprintable('Carte retournée à l’envers ⚠️ 日本')).toBe(
      'Carte retournée à l’envers ⚠️ 日本',
    );
    expect(escapeUnprintable('tag\u{e0041}')).toBe('tag\\u{e0041}');
  });
});
