import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BetStatsScope } from '@coup/projections/wire';
import { betName } from './cells';
import { ChartPanel } from './ChartPanel';
import { frequencyChart } from './charts';
import { betKey, betResults } from './data';

/** Every result of one bet type (side bets too) beside its exact probability, the bet chosen from a list. */
export function BetResultsPanel(props: { readonly scope: BetStatsScope; readonly file: string }) {
  const { t } = useTranslation('analyst');
  const { bets } = props.scope;
  const [chosen, setChosen] = useState<string>(() =>
    betKey(bets.find((b) => b.spot === 'banker') ?? bets[0] ?? { spot: 'banker', variant: '' }),
  );
  const bet = bets.find((b) => betKey(b) === chosen) ?? bets[0];
  const table = betResults(bet);
  const name = bet ? betName(bet.spot, bet.variant, t) : '';
  return (
    <div className="bet-results">
      <div className="field">
        <label htmlFor="an-bet">{t('panels.bet.choose')}</label>
        <select id="an-bet" value={bet ? betKey(bet) : ''} onChange={(e) => setChosen(e.target.value)}>
          {bets.map((b) => (
            <option key={betKey(b)} value={betKey(b)}>
              {betName(b.spot, b.variant, t)}
            </option>
          ))}
        </select>
      </div>
      <ChartPanel
        id="bet-results"
        title={t('panels.bet.title', { bet: name })}
        description={t('panels.bet.description')}
        table={table}
        chart={frequencyChart(table, t)}
        file={props.file.replace('.csv', `-${bet ? betKey(bet).replace(/[^A-Za-z0-9-]/g, '-') : 'none'}.csv`)}
      />
    </div>
  );
}
