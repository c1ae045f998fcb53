/** What a supervisor may put right, read from views of tables played by the real decider. */
import { tableView } from '@coup/table';
import { play } from '../replay/testing/fixture';
import { checkCorrection } from './CorrectionForms';
import { correctionsOf } from './corrections';

type Cmd = Parameters<typeof play>[0][number];

const opened = (rules: Record<string, unknown>): Cmd[] => [
  { type: 'OpenTable', data: { tableId: 'T1', rules } },
  { type: 'BuyIn', data: { playerId: 'alice', amount: 100_000 } },
];
const round: Cmd[] = [
  { type: 'OpenBetting', data: {} },
  { type: 'PlaceBet', data: { roundNo: 1, playerId: 'alice', spot: 'banker', amount: 1000 } },
  { type: 'CloseBetting', data: { roundNo: 1 } },
];
const liveShoe: Cmd = { type: 'StartShoe', data: { firstCard: '5h' } };
const cards = (...cs: string[]): Cmd[] =>
  cs.map((card) => ({ type: 'DealCard', data: { roundNo: 1, card } }));
const viewOf = (commands: Cmd[]) => tableView(play(commands).state);
/** The fixture's clock: command i is at 12:00:i on 2026-11-29. */
const at = (second: number) => Date.UTC(2026, 10, 29, 12, 0, second);

describe('correctionsOf', () => {
  it('nothing before a round, nor on a closed table', () => {
    expect(correctionsOf(null, 0)).toEqual({ cards: false, void: null, until: null });
    expect(correctionsOf(viewOf([...opened({ dealing: 'live' }), liveShoe]), 0).void).toBeNull();
  });

  it('a live round in play: void it, and correct its cards once dealing', () => {
    const betting = viewOf([...opened({ dealing: 'live' }), liveShoe, ...round.slice(0, 2)]);
    expect(correctionsOf(betting, 0)).toEqual({ cards: false, void: 'round', until: null });
    const dealing = viewOf([...opened({ dealing: 'live' }), liveShoe, ...round, ...cards('2c', '7d')]);
    expect(correctionsOf(dealing, 0)).toEqual({ cards: true, void: 'round', until: null });
  });

  it('the coup just settled: correct (live) or void it until the next betting opens', () => {
    const commands = [
      ...opened({ dealing: 'live' }),
      liveShoe,
      ...round,
      ...cards('2c', '7d', '3s', 'Th', '9c'),
    ];
    expect(correctionsOf(viewOf(commands), at(99)).void).toBe('settled');
    expect(correctionsOf(viewOf(commands), at(99)).cards).toBe(true);
    expect(correctionsOf(viewOf([...commands, { type: 'OpenBetting', data: {} }]), at(99)).void).toBe(
      'round',
    );
  });

  it("within the table's correctionSeconds only, saying until when", () => {
    const commands = [
      ...opened({ dealing: 'live', correctionSeconds: 30 }),
      liveShoe,
      ...round,
      ...cards('2c', '7d', '3s', 'Th', '9c'),
    ];
    const view = viewOf(commands);
    const settledAt = Date.parse(view.round!.result!.at);
    expect(correctionsOf(view, settledAt + 30_000)).toEqual({
      cards: true,
      void: 'settled',
      until: new Date(settledAt + 30_000).toISOString(),
    });
    expect(correctionsOf(view, settledAt + 30_001).void).toBeNull();
  });

  it('an rng coup just settled may be voided, its cards not corrected', () => {
    const view = viewOf([
      ...opened({ dealing: 'rng' }),
      { type: 'StartShoe', data: { seed: '11'.repeat(32) } },
      ...round,
      { type: 'Deal', data: { roundNo: 1 } },
    ]);
    expect(view.round?.status).toBe('resolved');
    expect(correctionsOf(view, at(99))).toEqual({ cards: false, void: 'settled', until: null });
  });
});

describe('checkCorrection', () => {
  it.each([
    ['10h', '', false, { card: 'Th' }],
    ['th', '', false, { card: 'Th' }],
    [' Ah ', 'misread', true, { card: 'Ah' }],
    ['1h', '', false, { field: 'card', key: 'correct.badCard' }],
    ['Ah', 'no', true, { field: 'reason', key: 'correct.needReason' }],
  ])('%j with reason %j (settled %s)', (text, reason, settled, expected) =>
    expect(checkCorrection(text, reason, settled)).toEqual(expected),
  );
});
