/**
 * The chaos money fold (test/chaos/checks.ts) on side bets: a coup's side bets settled as the engine pays them
 * pass; a settlement paid other than the engine pays, or by another paytable, is a violation.
 */
import type { RecordedEvent } from '@coup/event-store';
import { type Actor, type TableCommand, type TableEvent, decide, evolve, initialState } from '@coup/table';
import { foldMoney } from './chaos/checks';
import { Journal } from './chaos/journal';

const AT = '2026-01-01T00:00:00.000Z';
const admin: Actor = { id: 'admin-1', role: 'admin' };
const dealer: Actor = { id: 'dealer-1', role: 'dealer' };
const player: Actor = { id: 'p1', role: 'player' };

const supervisor: Actor = { id: 'sup-1', role: 'supervisor' };

/**
 * The events of an EZ table where p1 stakes banker and Dragon 7 and a three-card banker 7 is dealt, then the
 * `after` commands.
 */
function dragon7Coup(after: [string, Record<string, unknown>, Actor][] = []): TableEvent[] {
  const commands: [string, Record<string, unknown>, Actor][] = [
    [
      'OpenTable',
      { tableId: 'C1', rules: { dealing: 'live', game: 'ez', sideBets: { dragon7: {} } } },
      admin,
    ],
    ['BuyIn', { playerId: 'p1', amount: 100_000 }, admin],
    ['StartShoe', { firstCard: '5h' }, dealer],
    ['OpenBetting', {}, dealer],
    ['PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 1000 }, player],
    ['PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'dragon7', amount: 500 }, player],
    ['CloseBetting', { roundNo: 1 }, dealer],
    ...['2c', '3d', '3c', 'Td', 'Kc', '4h'].map((card): [string, Record<string, unknown>, Actor] => [
      'DealCard',
      { roundNo: 1, card },
      dealer,
    ]),
    ...after,
  ];
  let state = initialState;
  const events: TableEvent[] = [];
  for (const [type, data, actor] of commands) {
    const decision = decide({ type, data, meta: { actor, at: AT } } as TableCommand, state);
    if (!decision.ok) throw new Error(`${type}: ${decision.error.code} ${decision.error.message}`);
    for (const e of decision.events) {
      state = evolve(state, e);
      events.push(e);
    }
  }
  return events;
}

const recorded = (events: readonly TableEvent[]) =>
  events.map((e, i) => ({ ...e, streamRevision: BigInt(i) }) as unknown as RecordedEvent);

/** The events with the Dragon 7 settlement changed. */
function tampered(change: Record<string, unknown>): TableEvent[] {
  return dragon7Coup().map((e) =>
    e.type === 'CoupResolved'
      ? ({
          ...e,
          data: {
            ...e.data,
            settlements: e.data.settlements.map((s) => (s.spot === 'dragon7' ? { ...s, ...change } : s)),
          },
        } as TableEvent)
      : e,
  );
}

it('side bets settled as the engine pays them: no violation, and they count in the handle per spot', () => {
  const journal = new Journal();
  const { totals, accounts } = foldMoney(recorded(dragon7Coup()), journal);
  expect(journal.violationSummary()).toEqual({});
  expect(totals.handle).toEqual({ player: 0, banker: 1000, tie: 0, dragon7: 500 });
  expect(totals.paidBySpot).toEqual({ player: 0, banker: 1000, tie: 0, dragon7: 20_500 });
  expect(accounts.get('p1')?.chips).toBe(100_000 - 1500 + 1000 + 20_500);
});

it.each([
  ['paid other than the paytable pays', { paid: 20_000 }],
  ['recorded with another paytable', { paytable: '25-to-1' }],
  ['recorded as a loss', { result: 'lose', paid: 0 }],
])('a side bet %s is a violation', (_, change) => {
  const journal = new Journal();
  foldMoney(recorded(tampered(change)), journal);
  expect(journal.violationSummary()['money-exact-in-events']?.examples.join()).toContain('p1 on dragon7');
});

describe('a coup corrected or voided after it settled', () => {
  const correct: [string, Record<string, unknown>, Actor] = [
    'CorrectCard',
    { roundNo: 1, index: 5, card: '5d', reason: 'banker third card was 5d' },
    supervisor,
  ];
  const voided: [string, Record<string, unknown>, Actor] = [
    'VoidRound',
    { roundNo: 1, reason: 'dealt from the wrong shoe' },
    supervisor,
  ];

  it('a correction: the settlement reversed and settled anew on the corrected cards, chips and totals follow', () => {
    const journal = new Journal();
    const events = dragon7Coup([correct]);
    expect(events.map((e) => e.type)).toContain('SettledCoupCorrected');
    const { totals, accounts } = foldMoney(recorded(events), journal);
    expect(journal.violationSummary()).toEqual({});
    // Banker 8 beats player 5: banker wins even money (EZ), Dragon 7 loses.
    expect(totals.handle).toEqual({ player: 0, banker: 1000, tie: 0, dragon7: 500 });
    expect(totals.paidBySpot).toEqual({ player: 0, banker: 2000, tie: 0, dragon7: 0 });
    expect(totals.coups).toBe(1);
    expect(accounts.get('p1')?.chips).toBe(100_000 - 1500 + 2000);
  });

  it('a void: the settlement reversed and every stake returned; the coup no longer counts', () => {
    const journal = new Journal();
    const { totals, accounts } = foldMoney(recorded(dragon7Coup([voided])), journal);
    expect(journal.violationSummary()).toEqual({});
    expect(totals).toMatchObject({ coups: 0, voids: 1, paid: 0, commission: 0 });
    expect(totals.handle).toEqual({ player: 0, banker: 0, tie: 0, dragon7: 0 });
    expect(accounts.get('p1')).toMatchObject({ chips: 100_000, paid: 0, voidedReturned: 1500 });
  });

  it.each([
    ['reverses other than what was settled', 'reversed'],
    ['returns other than the stakes', 'returned'],
  ])('a void that %s is a violation', (_, field) => {
    const journal = new Journal();
    const events = dragon7Coup([voided]).map((e) =>
      e.type === 'SettledCoupVoided'
        ? ({
            ...e,
            data: {
              ...e.data,
              [field]: (e.data[field as 'reversed'] as readonly { amount: number; paid?: number }[]).map(
                (x) =>
                  field === 'reversed'
                    ? { ...x, paid: (x.paid ?? 0) + 100 }
                    : { ...x, amount: x.amount - 25 },
              ),
            },
          } as TableEvent)
        : e,
    );
    foldMoney(recorded(events), journal);
    expect(journal.violationSummary()['money-exact-in-events']?.examples.join()).toMatch(/SettledCoupVoided/);
  });
});
