import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { HandSummary, HandVerification, LedgerView } from '@coup/projections/wire';
import * as exportModule from '../export';
import { i18n, setLanguage } from '../i18n';
import type { ComplianceApi } from './api';
import { ComplianceScreen } from './ComplianceScreen';
import { EMPTY_SEARCH, parseComplianceRoute } from './route';

const hand = (roundNo: number, over: Partial<HandSummary> = {}): HandSummary => ({
  tableId: 'T1',
  roundNo,
  shoeNo: 1,
  status: 'resolved',
  openedAt: '2026-11-29T12:00:00.000Z',
  resolvedAt: '2026-11-29T12:00:30.000Z',
  outcome: 'banker',
  natural: false,
  playerCards: ['2c', '3s', '9c'],
  bankerCards: ['7d', 'Th'],
  playerTotal: 4,
  bankerTotal: 7,
  players: ['alice', 'bob'],
  betCount: 2,
  totalStaked: 2000,
  totalPaid: 1950,
  commission: 50,
  houseResult: 50,
  dealer: 'dora',
  voidReason: null,
  amended: false,
  ...over,
});

const verification = (
  roundNo: number,
  statuses: Record<string, HandVerification['checks'][number]['status']>,
) =>
  ({
    tableId: 'T1',
    roundNo,
    shoeNo: 1,
    ok: !Object.values(statuses).includes('fail'),
    checks: Object.entries(statuses).map(([name, status]) => ({ name, status, detail: '' })),
  }) as HandVerification;

function fakeApi(over: Partial<ComplianceApi> = {}): ComplianceApi {
  return {
    tables: jest.fn(async () => [
      { tableId: 'T1', status: 'open', dealing: 'rng', openedAt: null },
      { tableId: 'T2', status: 'open', dealing: 'live', openedAt: null },
    ]),
    hands: jest.fn(async () => ({ items: [], nextCursor: null })),
    verify: jest.fn(),
    handsCsv: jest.fn(async () => 'tableId,roundNo\r\nT1,3\r\n'),
    ledger: jest.fn(),
    ledgerCsv: jest.fn(async () => 'position\r\n1\r\n'),
    ...over,
  } as ComplianceApi;
}

const route = (hash: string) => parseComplianceRoute(hash)!;

afterEach(() => {
  window.location.hash = '';
  act(() => setLanguage('en'));
});

describe('ComplianceScreen: the hand search', () => {
  it('puts the form in the address; a problem is said beside the form and nothing is searched', async () => {
    const api = fakeApi();
    render(<ComplianceScreen token="t" role="compliance" route={route('#/compliance')} api={api} />);
    const table = await screen.findByLabelText('Table');
    expect((table as HTMLSelectElement).value).toBe('T1');
    fireEvent.change(table, { target: { value: 'T2' } });
    fireEvent.change(screen.getByLabelText('Shoe'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert').textContent).toBe('The shoe is a whole number from 1.');
    expect(screen.getByLabelText('Shoe').getAttribute('aria-invalid')).toBe('true');
    expect(window.location.hash).toBe('');

    fireEvent.change(screen.getByLabelText('Shoe'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Player'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Outcome'), { target: { value: 'void' } });
    fireEvent.click(screen.getByLabelText('Only hands with a corrected card'));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(window.location.hash).toBe(
      '#/compliance?table=T2&shoe=2&player=alice&outcome=void&corrected=true',
    );
    expect(api.hands).not.toHaveBeenCalled();
  });

  it('lists the hands of a search, each with its verification, replay link and players’ audit trails', async () => {
    const hands = jest.fn(async () => ({
      items: [
        hand(3, { amended: true }),
        hand(2, {
          status: 'voided',
          outcome: null,
          voidReason: 'misdeal',
          players: ['alice'],
          amended: true,
        }),
        hand(1),
      ],
      nextCursor: null,
    }));
    const verify = jest.fn(async (_t: string, roundNo: number) =>
      roundNo === 3
        ? verification(3, { chain: 'pass', coup: 'pass', commitment: 'pending', shuffle: 'pending' })
        : roundNo === 2
          ? verification(2, { chain: 'fail', coup: 'pass' })
          : verification(1, { chain: 'pass', coup: 'pass', shuffle: 'skipped' }),
    );
    const api = fakeApi({ hands, verify });
    render(
      <ComplianceScreen
        token="t"
        role="admin"
        route={route('#/compliance?table=T1&player=alice')}
        api={api}
      />,
    );
    const link = await screen.findByRole('link', { name: 'Replay hand 3 of table T1' });
    expect(link.getAttribute('href')).toBe('#/tables/T1/hands/3');
    expect(hands).toHaveBeenCalledWith({ tableId: 'T1', filter: { player: 'alice' } }, null);
    const rows = screen.getAllByRole('row').slice(1);
    await waitFor(() => expect(within(rows[0]!).getByText('pending: commitment, shuffle')).toBeTruthy());
    expect(within(rows[0]!).getByText('corrected after it settled')).toBeTruthy();
    expect(within(rows[1]!).getByText('Voided: misdeal')).toBeTruthy();
    expect(within(rows[1]!).getByText('voided after it settled')).toBeTruthy();
    expect(within(rows[1]!).getByText('failed: chain')).toBeTruthy();
    expect(within(rows[2]!).getByText('verified')).toBeTruthy();
    expect(within(rows[0]!).getByRole('link', { name: 'Audit trail of bob' }).getAttribute('href')).toBe(
      '#/compliance/players/bob',
    );
  });

  it('downloads the whole search as the API’s CSV', async () => {
    const save = jest.spyOn(exportModule, 'saveFile').mockImplementation(() => undefined);
    const api = fakeApi();
    render(
      <ComplianceScreen
        token="t"
        role="compliance"
        route={route('#/compliance?table=T1&outcome=void')}
        api={api}
      />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await screen.findByText('Downloaded hands-T1.csv.');
    expect(api.handsCsv).toHaveBeenCalledWith({ tableId: 'T1', filter: { outcome: 'void' } });
    expect(save).toHaveBeenCalledWith('hands-T1.csv', 'tableId,roundNo\r\nT1,3\r\n');
    save.mockRestore();
  });

  it('is refused to other roles', () => {
    render(<ComplianceScreen token="t" role="dealer" route={route('#/compliance')} api={fakeApi()} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'The compliance screen is for the compliance and admin roles.',
    );
  });
});

const ledger: LedgerView = {
  playerId: 'alice',
  accounts: [
    {
      tableId: 'T1',
      firstAt: '2026-11-29T11:00:00.000Z',
      buyIns: 1,
      boughtIn: 10_000,
      bets: 1,
      staked: 1_000,
      cleared: 0,
      wins: 0,
      losses: 0,
      pushes: 0,
      paid: 0,
      netResult: 0,
      commissionDeducted: 0,
      commissionOwed: 0,
      commissionCollected: 0,
      voidedReturned: 1_000,
      cashOuts: 0,
      cashedOut: 0,
      chips: 10_000,
    },
  ],
  totals: {} as LedgerView['totals'],
  entries: [
    {
      position: 5,
      seq: 0,
      tableId: 'T1',
      at: '2026-11-29T11:00:00.000Z',
      kind: 'buy-in',
      roundNo: null,
      spot: null,
      paytable: null,
      amount: 10_000,
      chipsDelta: 10_000,
      result: null,
      commission: 0,
      by: 'admin-1',
      role: 'admin',
      reason: null,
    },
    {
      position: 9,
      seq: 0,
      tableId: 'T1',
      at: '2026-11-29T12:00:00.000Z',
      kind: 'bet',
      roundNo: 2,
      spot: 'banker',
      paytable: null,
      amount: 1_000,
      chipsDelta: -1_000,
      result: null,
      commission: 0,
      by: 'alice',
      role: 'player',
      reason: null,
    },
    {
      position: 12,
      seq: 0,
      tableId: 'T1',
      at: '2026-11-29T12:01:00.000Z',
      kind: 'void-return',
      roundNo: 2,
      spot: 'banker',
      paytable: null,
      amount: 1_000,
      chipsDelta: 1_000,
      result: null,
      commission: 0,
      by: 'sam',
      role: 'supervisor',
      reason: 'misdeal',
    },
  ],
  nextCursor: 'n2',
};

describe('ComplianceScreen: a player’s audit trail', () => {
  it('shows the accounts and every movement with the hand behind it, paged', async () => {
    const ledgerFn = jest.fn(async (_p: string, cursor: string | null) =>
      cursor === null
        ? { ...ledger, totals: ledger.accounts[0]! }
        : { ...ledger, totals: ledger.accounts[0]!, entries: [], nextCursor: null },
    );
    render(
      <ComplianceScreen
        token="t"
        role="compliance"
        route={route('#/compliance/players/alice')}
        api={fakeApi({ ledger: ledgerFn })}
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Audit trail of player alice' })).toBeTruthy();
    const entries = await screen.findByRole('table', { name: /movement/ });
    const rows = within(entries).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual([
      'buy-in',
      'bet',
      'stake returned (void)',
    ]);
    expect(
      within(rows[2]!).getByRole('link', { name: 'Replay hand 2 of table T1' }).getAttribute('href'),
    ).toBe('#/tables/T1/hands/2');
    expect(within(rows[2]!).getByText('sam (supervisor)')).toBeTruthy();
    expect(within(rows[2]!).getByText('misdeal')).toBeTruthy();
    const accounts = screen.getByRole('table', { name: /Per table/ });
    expect(within(accounts).getAllByRole('row')[1]!.textContent).toContain('$100');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('This player has no movement.');
    expect(ledgerFn).toHaveBeenLastCalledWith('alice', 'n2');
  });

  it('speaks Chinese when asked', async () => {
    act(() => setLanguage('zh'));
    expect(i18n.language).toBe('zh');
    render(
      <ComplianceScreen
        token="t"
        role="compliance"
        route={{ kind: 'search', form: EMPTY_SEARCH }}
        api={fakeApi()}
      />,
    );
    expect(await screen.findByRole('button', { name: '查询' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '合规' })).toBeTruthy();
  });
});
