import { analystApi } from './api';
import { parseAnalystRoute } from './route';

/** The paths the dashboard asks for, by call. */
async function pathsOf(address: string): Promise<Record<string, string>> {
  const asked: string[] = [];
  const fetchFn = jest.fn(async (input: string) => {
    asked.push(input);
    return { ok: true, status: 200, json: async () => ({}) } as Response;
  });
  const api = analystApi('t', fetchFn);
  const f = parseAnalystRoute(address)!;
  const parts = ['stats', 'betStats', 'hold', 'betTypes', 'pace', 'anomalies'] as const;
  const out: Record<string, string> = {};
  for (const part of parts) {
    await api[part](f);
    out[part] = asked.pop()!;
  }
  return out;
}

describe('the dashboard’s calls', () => {
  it('ask the statistics by gaming day (the days as gamingDayFrom..gamingDayTo) and the reports with from..to, each with the shift and hour', async () => {
    const paths = await pathsOf('#/analyst?table=T1&from=2026-11-28&to=2026-11-29&shift=day&hour=7');
    const stats =
      'tableId=T1&calendar=gaming&gamingDayFrom=2026-11-28&gamingDayTo=2026-11-29&shift=day&hour=7';
    const report = 'tableId=T1&from=2026-11-28&to=2026-11-29&shift=day&hour=7';
    expect(paths).toEqual({
      stats: `/api/stats?${stats}`,
      betStats: `/api/stats/bets?${stats}`,
      hold: `/api/reports/hold?${report}&groupBy=gamingDay`,
      betTypes: `/api/reports/bet-types?${report}&groupBy=betType`,
      pace: `/api/reports/dealer-pace?${report}`,
      anomalies: `/api/reports/anomalies?${report}`,
    });
  });

  it('ask every gaming day when none is chosen', async () => {
    const paths = await pathsOf('#/analyst');
    expect([paths['stats'], paths['betStats'], paths['hold']]).toEqual([
      '/api/stats?calendar=gaming',
      '/api/stats/bets?calendar=gaming',
      '/api/reports/hold?groupBy=gamingDay',
    ]);
  });

  it('keep the selection in the address and read it back', () => {
    const f = parseAnalystRoute('#/analyst?hour=0&shift=grave&table=T1')!;
    expect(f).toEqual({ table: 'T1', from: '', to: '', shift: 'grave', hour: '0' });
  });
});
