import { useTranslation } from 'react-i18next';
import type {
  AnomalyReport,
  BetStatsView,
  BetTypeRow,
  HoldRow,
  PaceRow,
  Report,
  StatsView,
} from '@coup/projections/wire';
import { money } from '../format';
import { BetResultsPanel } from './BetResultsPanel';
import { percent } from './cells';
import { ChartPanel } from './ChartPanel';
import { frequencyChart } from './charts';
import { outcomeFrequencies, outsideInterval } from './data';
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

/** The statistics of the selection: the main bets' and each bet type's (UTC days). */
export interface StatsData {
  readonly stats: StatsView;
  readonly bets: BetStatsView;
}

/** The analysts' reports of the selection (gaming days). */
export interface ReportsData {
  readonly hold: Report<HoldRow>;
  readonly betTypes: Report<BetTypeRow>;
  readonly pace: Report<PaceRow>;
  readonly anomalies: AnomalyReport;
}

/** The selection's totals in one line: coups, voids, handle, the house's win, hold beside the edge. */
function Totals({ stats }: { readonly stats: StatsView }) {
  const { t } = useTranslation('analyst');
  const o = stats.overall;
  const hold = o.holdPercent === null ? '–' : percent(o.holdPercent);
  const edge = o.theoreticalEdgePercent === null ? '–' : percent(o.theoreticalEdgePercent);
  const values = {
    coups: o.coups,
    voids: o.voids,
    handle: money(o.handle.total),
    win: money(o.houseResult),
    hold,
    edge,
  };
  return (
    <p className="panel totals-line" data-testid="totals">
      {t('totals', values)}
    </p>
  );
}

/** Outcomes and each bet's results beside the exact odds, and the results outside their interval. */
export function StatsPanels({ data, suffix }: { readonly data: StatsData; readonly suffix: string }) {
  const { t } = useTranslation('analyst');
  const scope = data.bets.overall;
  const outcomes = outcomeFrequencies(scope);
  const flags = outsideInterval(scope);
  return (
    <>
      <Totals stats={data.stats} />
      <ChartPanel
        id="outcomes"
        title={t('panels.outcomes.title')}
        description={t('panels.outcomes.description')}
        table={outcomes}
        chart={frequencyChart(outcomes, t)}
        file={`outcomes-${suffix}.csv`}
      />
      <BetResultsPanel scope={scope} file={`bet-results-${suffix}.csv`} />
      <ChartPanel
        id="flags"
        title={t('panels.flags.title')}
        description={t('panels.flags.description')}
        table={flags}
        chart={null}
        file={`flags-${suffix}.csv`}
      />
    </>
  );
}

/** Hold beside the theoretical by bet type, drop and win by gaming day, dealer pace, hold anomalies. */
export function ReportPanels({ data, suffix }: { readonly data: ReportsData; readonly suffix: string }) {
  const { t } = useTranslation('analyst');
  const types = betTypeHold(data.betTypes);
  const days = dropAndWin(data.hold);
  const pace = dealerPace(data.pace);
  const flags = anomalies(data.anomalies);
  const panel = (id: string) => ({
    id,
    title: t(`panels.${id}.title`),
    description: t(`panels.${id}.description`, { threshold: data.anomalies.threshold }),
    file: `${id}-${suffix}.csv`,
  });
  return (
    <>
      <ChartPanel {...panel('hold')} table={types} chart={betTypeChart(types, t)} />
      <ChartPanel {...panel('drop')} table={days} chart={dropChart(days, t)} />
      <ChartPanel {...panel('pace')} table={pace} chart={paceChart(pace, t)} />
      <ChartPanel {...panel('anomalies')} table={flags} chart={anomalyChart(flags, t)} open />
    </>
  );
}
