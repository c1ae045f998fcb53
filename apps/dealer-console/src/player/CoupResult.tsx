/** The coup on the felt once all its cards are shown: the outcome, the totals and each bet's settlement. */
import type { Settlement } from '@coup/table';
import { useTranslation } from 'react-i18next';
import { spotLabel } from '../bets';
import { outcomeWords, scoreWords } from '../components/words';
import { money } from '../format';
import { settlementLine } from './dealing';
import type { Shown } from './usePlayerTable';

function SettlementItem({ s }: { readonly s: Settlement }) {
  const { t } = useTranslation('player');
  const { net } = settlementLine(s);
  return (
    <li className={`settle-${s.result}`}>
      {t('result.settlement', {
        spot: spotLabel(s.spot, t),
        amount: money(s.amount),
        words: t(`result.words.${s.result}`),
      })}{' '}
      <strong>
        {net > 0 ? '+' : ''}
        {money(net)}
      </strong>
      {s.commission > 0 && <span>{t('result.commission', { amount: money(s.commission) })}</span>}
    </li>
  );
}

/** `shown.fresh` false: the last coup, shown on load. */
export function CoupResult({ shown }: { readonly shown: Shown }) {
  const { t } = useTranslation('player');
  const { coup } = shown;
  return (
    <div className={`coup-result outcome-${coup.outcome}`} data-testid="coup-result">
      <p className="result-line">
        <strong>{outcomeWords(coup.outcome, t)}</strong> {scoreWords(coup.playerTotal, coup.bankerTotal, t)}
        {coup.natural ? t('result.natural') : ''}
        {!shown.fresh && <span className="muted">{t('result.last', { roundNo: coup.roundNo })}</span>}
      </p>
      <ul className="settlements">
        {coup.settlements.map((s) => (
          <SettlementItem key={s.spot} s={s} />
        ))}
      </ul>
    </div>
  );
}
