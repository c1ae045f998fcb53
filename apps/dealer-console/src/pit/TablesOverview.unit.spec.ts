/** The overview's alerts for a table, from views of tables played by the real decider. */
import type { EdgeTableView } from '@coup/projections/wire';
import { tableView } from '@coup/table';
import { play } from '../replay/testing/fixture';
import { alertsOf } from './TablesOverview';

const live = (extra: Parameters<typeof play>[0] = [], rules: Record<string, unknown> = { dealing: 'live' }) =>
  tableView(
    play([
      { type: 'OpenTable', data: { tableId: 'T1', rules } },
      { type: 'StartShoe', data: { firstCard: '5h' } },
      ...extra,
    ]).state,
  );

const keys = (a: ReturnType<typeof alertsOf>) => a.map((x) => x.key);

function edge(over: Partial<EdgeTableView>): EdgeTableView {
  return {
    tableId: 'T1',
    shoeNo: 1,
    roundNo: 1,
    coupInShoe: 0,
    cardsSeen: 6,
    cardsLeft: 410,
    computedAt: null,
    position: null,
    favourable: [],
    values: [],
    ...over,
  };
}

it('none for a quiet table', () => expect(alertsOf(live(), 'live', undefined, 0)).toEqual([]));

it('a lost connection, and a table the service does not let this console follow', () => {
  expect(keys(alertsOf(live(), 'reconnecting', undefined, 0))).toEqual(['connection']);
  expect(keys(alertsOf(null, 'failed', undefined, 0))).toEqual(['failed']);
});

it("a favourable bet, only when the monitor's answer is about the shoe and coup the view is at", () => {
  const fav = { spot: 'tie', paytable: null, ev: 0.01, evExact: '1/100', win: 0, push: 0, lose: 0 } as const;
  const view = live();
  expect(alertsOf(view, 'live', edge({ favourable: [fav] }), 0)).toEqual([
    { key: 'edge', values: { spots: ['tie'] } },
  ]);
  expect(alertsOf(view, 'live', edge({ favourable: [fav], coupInShoe: 3 }), 0)).toEqual([]);
  expect(alertsOf(view, 'live', edge({}), 0)).toEqual([]);
  // after a settled coup's correction (same shoe, same coup count): only a reading computed since
  const amendedAt = '2026-01-01T00:01:00.000Z';
  expect(alertsOf(view, 'live', edge({ favourable: [fav], computedAt: amendedAt }), 0, amendedAt)).toEqual([
    { key: 'edge', values: { spots: ['tie'] } },
  ]);
  const before = edge({ favourable: [fav], computedAt: '2026-01-01T00:00:59.000Z' });
  expect(alertsOf(view, 'live', before, 0, amendedAt)).toEqual([]);
});

it('betting time up on a timed round', () => {
  const view = live([{ type: 'OpenBetting', data: {} }], { dealing: 'live', bettingSeconds: 10 });
  const deadline = Date.parse(view.round!.deadline!);
  expect(alertsOf(view, 'live', undefined, deadline - 1000)).toEqual([]);
  expect(keys(alertsOf(view, 'live', undefined, deadline))).toEqual(['timeUp']);
});
