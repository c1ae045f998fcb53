/**
 * The pit overview's edge alert after a settled coup's correction: a live row takes its feed's `amendedAt` as the
 * dealer screen does, so a monitor reading computed before the correction (same shoe, same coup count) is not shown.
 */
import { render } from '@testing-library/react';
import type { EdgeTableView } from '@coup/projections/wire';
import { tableView } from '@coup/table';
import type { Api } from '../api';
import type { FeedState } from '../feed';
import { play } from '../replay/testing/fixture';
import { TablesOverview } from './TablesOverview';

const mockView = tableView(
  play([
    { type: 'OpenTable', data: { tableId: 'T1', rules: { dealing: 'live' } } },
    { type: 'StartShoe', data: { firstCard: '5h' } },
  ]).state,
);
const mockCorrectedAt = '2026-01-01T00:01:00.000Z';
const tie = { spot: 'tie', paytable: null, ev: 0.01, evExact: '1/100', win: 0, push: 0, lose: 0 } as const;
const reading = (computedAt: string): EdgeTableView => ({
  tableId: 'T1',
  shoeNo: mockView.shoe!.shoeNo,
  roundNo: 1,
  coupInShoe: mockView.shoe!.coups,
  cardsSeen: 6,
  cardsLeft: 410,
  computedAt,
  position: null,
  favourable: [tie],
  values: [tie],
});

const mockOverview = { edge: reading(mockCorrectedAt) };
jest.mock('./useOverview', () => ({
  LIVE_TABLES: 12,
  useTableList: () => ({ tables: [{ tableId: 'T1', status: 'open', dealing: 'live' }], error: null }),
  useFavourable: () => new Map([['T1', mockOverview.edge]]),
  usePolledView: () => null,
}));
jest.mock('../useTableFeed', () => ({
  useTableFeed: () => ({
    state: { connection: 'live', view: mockView, amendedAt: mockCorrectedAt } as unknown as FeedState,
    refresh: () => Promise.resolve(),
  }),
}));

const show = () => render(<TablesOverview api={{} as Api} token="tok" hrefFor={(id) => `#${id}`} />);

it('shows a favourable bet from a reading computed since the correction', () => {
  mockOverview.edge = reading(mockCorrectedAt);
  show();
  expect(document.querySelector('.alert-edge')?.textContent).toMatch(/Tie/i);
});

it('does not show a reading of the same shoe and coup computed before the correction', () => {
  mockOverview.edge = reading('2026-01-01T00:00:59.000Z');
  show();
  expect(document.querySelector('.alert-edge')).toBeNull();
});
