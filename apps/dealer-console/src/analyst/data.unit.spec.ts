import { i18n } from '../i18n';
import { showCell } from './cells';
import { frequencyChart } from './charts';
import { betResults, dataCsv, outcomeFrequencies, outsideInterval } from './data';
import {
  anomalies,
  anomalyChart,
  betTypeChart,
  betTypeHold,
  dealerPace,
  dropAndWin,
  dropChart,
  paceChart,
} from './report-data';
import { ANOMALIES, BET_STATS, BET_TYPES, HOLD, PACE, TIE_BET } from './testing/fixtures';

const t = i18n.getFixedT('en', 'analyst');

describe('the dashboard’s data', () => {
  it('outcome frequencies come from the player bet: a win is player, a loss banker, a push tie', () => {
    const table = outcomeFrequencies(BET_STATS.overall);
    expect(table.rows).toEqual([
      {
        result: 'player',
        coups: 10,
        count: 4,
        frequency: 0.4,
        ciLow: 0.168,
        ciHigh: 0.687,
        expected: 0.446247,
        withinCi: true,
      },
      {
        result: 'banker',
        coups: 10,
        count: 5,
        frequency: 0.5,
        ciLow: 0.237,
        ciHigh: 0.763,
        expected: 0.458597,
        withinCi: true,
      },
      {
        result: 'tie',
        coups: 10,
        count: 1,
        frequency: 0.1,
        ciLow: 0.018,
        ciHigh: 0.404,
        expected: 0.095156,
        withinCi: true,
      },
    ]);
    // no coups yet: the outcomes with nothing to show
    expect(outcomeFrequencies(null).rows.map((r) => [r.result, r.count, r.frequency])).toEqual([
      ['player', 0, null],
      ['banker', 0, null],
      ['tie', 0, null],
    ]);
  });

  it('the CSV is exactly the chart’s rows, raw values, header the column keys', () => {
    expect(dataCsv(outcomeFrequencies(BET_STATS.overall))).toBe(
      'result,coups,count,frequency,ciLow,ciHigh,expected,withinCi\r\n' +
        'player,10,4,0.4,0.168,0.687,0.446247,true\r\n' +
        'banker,10,5,0.5,0.237,0.763,0.458597,true\r\n' +
        'tie,10,1,0.1,0.018,0.404,0.095156,true\r\n',
    );
    expect(dataCsv(dropAndWin(HOLD))).toBe(
      'gamingDay,coups,dropAmount,handle,win,holdPct,theoWin\r\n' +
        '2026-11-28,4,100000,1000,-500,-0.5,12\r\n' +
        '2026-11-29,6,0,2000,1500,,25\r\n',
    );
  });

  it('the flags are the results outside their interval', () => {
    expect(outsideInterval(BET_STATS.overall).rows).toEqual([
      {
        bet: 'tie',
        variant: '8-to-1',
        result: 'win:8/1',
        coups: 10,
        count: 1,
        frequency: 0.1,
        ciLow: 0.1,
        ciHigh: 0.2,
        expected: 0.095156,
      },
    ]);
    expect(betResults(TIE_BET).rows.map((r) => r.result)).toEqual(['win:8/1', 'lose']);
    expect(betResults(undefined).rows).toEqual([]);
  });

  it('cells are shown as percentages, dollars and words', () => {
    expect(showCell('frequency', 0.4, t)).toBe('40.000%');
    expect(showCell('holdPercent', 33.333333, t)).toBe('33.33%');
    expect(showCell('handle', 123_456, t)).toBe('$1,234.56');
    expect(showCell('theoWin', 1_175.7637, t)).toBe('$11.76');
    expect(showCell('withinCi', false, t)).toBe('no');
    expect(showCell('result', 'win:1/1:commission', t)).toBe('win 1:1 less 5%');
    expect(showCell('result', 'win:54/100', t)).toBe('win 0.54:1');
    expect(showCell('result', 'banker', t)).toBe('Banker');
    expect(showCell('bet', 'dragon7', t)).toBe('Dragon 7');
    expect(showCell('expected', null, t)).toBe('–');
  });
});

describe('the charts’ data', () => {
  it('frequencies: the interval as a floating bar, observed and exact as points, in % of coups', () => {
    const { data, options } = frequencyChart(outcomeFrequencies(BET_STATS.overall), t);
    expect(data.labels).toEqual(['Player', 'Banker', 'Tie']);
    expect(data.datasets.map((d) => [d.type, d.label])).toEqual([
      ['bar', '95% interval'],
      ['line', 'Observed'],
      ['line', 'Exact probability'],
    ]);
    const round = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(round) : Number((v as number).toFixed(6));
    expect(data.datasets[0]!.data.map(round)).toEqual([
      [16.8, 68.7],
      [23.7, 76.3],
      [1.8, 40.4],
    ]);
    expect(data.datasets[1]!.data).toEqual([40, 50, 10]);
    expect(data.datasets[2]!.data.map(round)).toEqual([44.6247, 45.8597, 9.5156]);
    expect(options.animation).toBe(false);
    const ticks = options.scales?.['y']?.ticks as { callback: (v: number) => string };
    expect([0.1 + 0.2, 12, 1.2000000000000002].map((v) => ticks.callback(v))).toEqual([
      '0.3%',
      '12%',
      '1.2%',
    ]);
  });

  it('the reports: hold beside the theoretical per bet type with stakes, drop and win in dollars, pace, z-scores', () => {
    const types = betTypeHold(BET_TYPES);
    expect(types.rows.map((r) => r.betType)).toEqual(['banker:commission', 'super6:15-to-1']);
    const hold = betTypeChart(types, t).data;
    expect(hold.labels).toEqual(['Banker (commission)', 'Super 6 (15-to-1)']);
    expect(hold.datasets.map((d) => [d.label, d.data])).toEqual([
      ['Hold', [2.5, 100]],
      ['Theoretical hold', [1.06, 14]],
    ]);
    const drop = dropChart(dropAndWin(HOLD), t).data;
    expect(drop.labels).toEqual(['2026-11-28', '2026-11-29']);
    expect(drop.datasets.map((d) => [d.label, d.data])).toEqual([
      ['Drop', [1000, 0]],
      ['Win', [-5, 15]],
      ['Theoretical win', [0.12, 0.25]],
    ]);
    const pace = paceChart(dealerPace(PACE), t).data;
    expect([pace.labels, pace.datasets[0]!.data]).toEqual([['dora · T1 · 2026-11-29 day'], [90]]);
    const z = anomalyChart(anomalies(ANOMALIES), t).data;
    expect(z.labels).toEqual(['T1 · 2026-11-29', 'alice · 2026-11-29']);
    expect(z.datasets[0]!.data).toEqual([4.15, 0.05]);
    expect(z.datasets[0]!.backgroundColor).toEqual(['#c0262d', '#1f5fbf']);
    expect(showCell('z', 4.15, t)).toBe('4.15');
    expect(showCell('betType', 'tie:8-to-1', t)).toBe('Tie (8-to-1)');
    expect(showCell('scope', 'player', t)).toBe('player');
  });
});
