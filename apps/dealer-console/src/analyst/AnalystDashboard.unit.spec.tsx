import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../api';
import * as exportModule from '../export';
import type { AnalystApi } from './api';
import { AnalystDashboard } from './AnalystDashboard';
import { parseAnalystRoute } from './route';
import { ANOMALIES, BET_STATS, BET_TYPES, HOLD, PACE, STATS } from './testing/fixtures';

// jsdom has no canvas: the chart is drawn as what it was given (Chart.js itself is tested by its authors).
jest.mock('react-chartjs-2', () => ({
  Chart: (
    props: { data: { labels: string[]; datasets: { label: string; data: unknown[] }[] } } & Record<
      string,
      unknown
    >,
  ) => <canvas role="img" aria-label={String(props['aria-label'])} data-chart={JSON.stringify(props.data)} />,
}));

function fakeApi(over: Partial<AnalystApi> = {}): AnalystApi {
  return {
    tables: jest.fn(async () => [{ tableId: 'T1', status: 'open', dealing: 'rng', openedAt: null }]),
    stats: jest.fn(async () => STATS),
    betStats: jest.fn(async () => BET_STATS),
    hold: jest.fn(async () => HOLD),
    betTypes: jest.fn(async () => BET_TYPES),
    pace: jest.fn(async () => PACE),
    anomalies: jest.fn(async () => ANOMALIES),
    ...over,
  } as AnalystApi;
}

const chartData = (panel: string) =>
  JSON.parse(within(screen.getByTestId(panel)).getByRole('img').getAttribute('data-chart')!) as {
    labels: string[];
    datasets: { label: string; data: unknown[] }[];
  };

afterEach(() => {
  window.location.hash = '';
});

describe('AnalystDashboard', () => {
  it('reads the statistics of the selection and draws each chart from them', async () => {
    const api = fakeApi();
    render(
      <AnalystDashboard
        token="t"
        role="analyst"
        filter={parseAnalystRoute('#/analyst?table=T1&from=2026-11-28')!}
        api={api}
      />,
    );
    await screen.findByTestId('outcomes');
    const selection = { table: 'T1', from: '2026-11-28', to: '', shift: '', hour: '' };
    expect(api.stats).toHaveBeenCalledWith(selection);
    expect(api.betStats).toHaveBeenCalledWith(selection);
    expect(screen.getByTestId('totals').textContent).toBe(
      '10 coups, 1 voided; handle $30, house win $10; hold 33.33% beside a theoretical edge of 1.24%.',
    );
    expect(chartData('outcomes').datasets[1]).toMatchObject({ label: 'Observed', data: [40, 50, 10] });
    for (const report of ['hold', 'betTypes', 'pace', 'anomalies'] as const)
      expect(api[report]).toHaveBeenCalledWith(selection);
    await screen.findByTestId('drop');
    expect(chartData('drop')).toMatchObject({ labels: ['2026-11-28', '2026-11-29'] });
    expect(chartData('hold').labels).toEqual(['Banker (commission)', 'Super 6 (15-to-1)']);
    expect(chartData('pace').datasets[0]).toMatchObject({ label: 'Coups per hour', data: [90] });
    // the anomalies' table is shown open, the flagged row says so
    const z = within(screen.getByTestId('anomalies')).getByRole('table');
    expect(within(z).getAllByRole('row')[1]!.textContent).toContain('4.15yes');
    expect(screen.getByText(/flagged past 3\./)).toBeTruthy();
    // the flags are a table alone, shown open
    const flags = within(screen.getByTestId('flags')).getByRole('table');
    const cells = within(within(flags).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual([
      'Tie',
      '8-to-1',
      'win 8:1',
      '10',
      '1',
      '10.000%',
      '10.000%',
      '20.000%',
      '9.516%',
    ]);
  });

  it('charts the results of the bet chosen', async () => {
    render(
      <AnalystDashboard token="t" role="admin" filter={parseAnalystRoute('#/analyst')!} api={fakeApi()} />,
    );
    const choose = await screen.findByLabelText('Bet');
    expect(chartData('bet-results').labels).toEqual(['win 1:1', 'push', 'lose']);
    fireEvent.change(choose, { target: { value: 'tie:8-to-1' } });
    expect(chartData('bet-results').labels).toEqual(['win 8:1', 'lose']);
    expect(
      screen.getByRole('heading', { name: 'Results of Tie (8-to-1) beside the exact odds' }),
    ).toBeTruthy();
  });

  it('downloads each chart’s data as CSV: exactly its rows', async () => {
    const save = jest.spyOn(exportModule, 'saveFile').mockImplementation(() => undefined);
    render(
      <AnalystDashboard
        token="t"
        role="analyst"
        filter={parseAnalystRoute('#/analyst?table=T1')!}
        api={fakeApi()}
      />,
    );
    const panel = await screen.findByTestId('drop');
    fireEvent.click(within(panel).getByRole('button', { name: 'Download the data (CSV)' }));
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save).toHaveBeenCalledWith(
      'drop-T1.csv',
      'gamingDay,coups,dropAmount,handle,win,holdPct,theoWin\r\n2026-11-28,4,100000,1000,-500,-0.5,12\r\n2026-11-29,6,0,2000,1500,,25\r\n',
    );
    save.mockRestore();
  });

  it('reads every part by the gaming days, shift and hour of the address; names files by them', async () => {
    const save = jest.spyOn(exportModule, 'saveFile').mockImplementation(() => undefined);
    const api = fakeApi();
    const address = '#/analyst?from=2026-11-28&to=2026-11-29&shift=day&hour=7';
    render(<AnalystDashboard token="t" role="analyst" filter={parseAnalystRoute(address)!} api={api} />);
    await screen.findByTestId('drop');
    const selection = { table: '', from: '2026-11-28', to: '2026-11-29', shift: 'day', hour: '7' };
    for (const part of ['stats', 'betStats', 'hold', 'betTypes', 'pace', 'anomalies'] as const)
      expect([part, (api[part] as jest.Mock).mock.calls]).toEqual([part, [[selection]]]);
    expect((screen.getByLabelText('Shift') as HTMLSelectElement).value).toBe('day');
    expect((screen.getByLabelText('Local hour') as HTMLSelectElement).value).toBe('7');
    fireEvent.click(
      within(screen.getByTestId('outcomes')).getByRole('button', { name: 'Download the data (CSV)' }),
    );
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save.mock.calls[0]![0]).toBe('outcomes-all_2026-11-28_2026-11-29_day_h7.csv');
    save.mockRestore();
  });

  it('offers the shifts the service names and every local hour; puts them in the address', async () => {
    render(
      <AnalystDashboard token="t" role="analyst" filter={parseAnalystRoute('#/analyst')!} api={fakeApi()} />,
    );
    await screen.findByTestId('pace');
    const shift = screen.getByLabelText('Shift');
    expect(
      within(shift)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['every shift', 'day']);
    const hour = screen.getByLabelText('Local hour');
    expect(within(hour).getAllByRole('option')).toHaveLength(25);
    expect(within(hour).getByRole('option', { name: '07:00 to 07:59' })).toBeTruthy();
    fireEvent.change(shift, { target: { value: 'day' } });
    fireEvent.change(hour, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(window.location.hash).toBe('#/analyst?shift=day&hour=0');
  });

  it('puts the selection in the address, refusing days out of order', async () => {
    render(
      <AnalystDashboard token="t" role="analyst" filter={parseAnalystRoute('#/analyst')!} api={fakeApi()} />,
    );
    await screen.findByRole('option', { name: 'T1' });
    fireEvent.change(screen.getByLabelText('Table'), { target: { value: 'T1' } });
    fireEvent.change(screen.getByLabelText('First gaming day'), { target: { value: '2026-11-29' } });
    fireEvent.change(screen.getByLabelText('Last gaming day'), { target: { value: '2026-11-28' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert').textContent).toBe('The first day must not be after the last.');
    fireEvent.change(screen.getByLabelText('Last gaming day'), { target: { value: '2026-11-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(window.location.hash).toBe('#/analyst?table=T1&from=2026-11-29&to=2026-11-30');
  });

  it('a report refused leaves the statistics shown, and says why', async () => {
    const refused = jest.fn(async () => {
      throw new ApiError(503, 'STORE_UNAVAILABLE', 'the read models cannot be read now');
    });
    render(
      <AnalystDashboard
        token="t"
        role="analyst"
        filter={parseAnalystRoute('#/analyst')!}
        api={fakeApi({ pace: refused })}
      />,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The service refused: STORE_UNAVAILABLE the read models cannot be read now',
    );
    expect(screen.getByTestId('outcomes')).toBeTruthy();
    expect(screen.queryByTestId('drop')).toBeNull();
  });

  it('is refused to other roles', () => {
    render(
      <AnalystDashboard
        token="t"
        role="compliance"
        filter={parseAnalystRoute('#/analyst')!}
        api={fakeApi()}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'The analyst dashboard is for the analyst and admin roles.',
    );
  });
});
