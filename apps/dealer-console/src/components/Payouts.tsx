/** The coup's payouts: each settlement, side bets by their label with the paytable they were paid by. */
import { isSideSpot } from '@coup/engine';
import type { CoupSummary, RoundView, Spot } from '@coup/table';
import { useTranslation } from 'react-i18next';
import { type Translate, paytableWords, spotLabel } from '../bets';
import { money } from '../format';
import { outcomeWords, resultWord, scoreWords } from './words';

/** A side bet's paytable: its name and what it pays (empty for a main spot). */
function paytableCell(spot: Spot, paytable: string | undefined, t: Translate): string {
  return isSideSpot(spot) && paytable ? `${paytable} (${paytableWords(spot, paytable, t)})` : '';
}

function PayoutsTable({ result: r }: { readonly result: CoupSummary }) {
  const { t } = useTranslation('dealer');
  if (r.settlements.length === 0) return null;
  // A paytable column once a side bet was settled (main bets have none).
  const side = r.settlements.some((s) => isSideSpot(s.spot));
  return (
    <table className="grid">
      <caption>{t('payouts.caption', { roundNo: r.roundNo })}</caption>
      <thead>
        <tr>
          <th>{t('payouts.player')}</th>
          <th>{t('payouts.spot')}</th>
          {side && <th>{t('payouts.paytable')}</th>}
          <th>{t('payouts.stake')}</th>
          <th>{t('payouts.result')}</th>
          <th>{t('payouts.paid')}</th>
          <th>{t('payouts.commission')}</th>
        </tr>
      </thead>
      <tbody>
        {r.settlements.map((s) => (
          <tr key={`${s.playerId}-${s.spot}`} className={`settle-${s.result}`}>
            <td>{s.playerId}</td>
            <td>{spotLabel(s.spot, t)}</td>
            {side && <td>{paytableCell(s.spot, s.paytable, t)}</td>}
            <td>{money(s.amount)}</td>
            <td className="settle-result">{resultWord(s.result, t)}</td>
            <td>{money(s.paid)}</td>
            <td>{s.commission === 0 ? '' : money(s.commission)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The winner and the totals (a natural said so). */
export function ResultLine({
  result: r,
}: {
  readonly result: Pick<CoupSummary, 'outcome' | 'playerTotal' | 'bankerTotal' | 'natural'>;
}) {
  const { t } = useTranslation('dealer');
  return (
    <div className="result-line">
      <strong>{outcomeWords(r.outcome, t)}</strong>{' '}
      <span className="score">{scoreWords(r.playerTotal, r.bankerTotal, t)}</span>
      {r.natural && t('payouts.natural')}
    </div>
  );
}

/** The coup's result (text and colour) and each settlement, or the void. */
export function Result({ round }: { readonly round: RoundView | null }) {
  const { t } = useTranslation('dealer');
  if (round?.voided) {
    const { by, reason } = round.voided;
    return (
      <div className="result result-void" role="status">
        {t('payouts.voided', { roundNo: round.roundNo, by, reason })}
      </div>
    );
  }
  const r = round?.result;
  if (!r) return null;
  return (
    <div className={`result result-${r.outcome}`} role="status">
      <ResultLine result={r} />
      <PayoutsTable result={r} />
    </div>
  );
}

/**
 * The table's last resolved coup while the current round has none: on a player-dealt table the next round opens
 * with the deal, so the coup the player dealt is seen here.
 */
export function LastCoup({ result }: { readonly result: CoupSummary | null }) {
  const { t } = useTranslation('dealer');
  if (!result) return null;
  return (
    <div className={`result result-last result-${result.outcome}`} data-testid="last-coup">
      <div className="muted">{t('payouts.lastCoup', { roundNo: result.roundNo })}</div>
      <ResultLine result={result} />
      <PayoutsTable result={result} />
    </div>
  );
}
