/** The bet fields (with their payouts and limits), the total bet, and CLEAR BET / REBET / DEAL. */
import { isSideSpot } from '@coup/engine';
import { type Spot, type SpotAmounts, type TableRules, amountOn, limitOf } from '@coup/table';
import { Trans, useTranslation } from 'react-i18next';
import { paysWords, spotLabel } from '../bets';
import { money } from '../format';
import { betSpots } from './betting';

/** `<h>` in a message: words for screen readers only. */
export const HIDDEN = { h: <span className="visually-hidden" /> };
const FIELD = { ...HIDDEN, n: <span className="bet-name" /> };

type FieldRules = Pick<TableRules, 'tiePays' | 'limits' | 'game' | 'sideBets'>;

function BetField(props: {
  readonly spot: Spot;
  readonly rules: FieldRules;
  readonly bets: SpotAmounts;
  readonly locked: boolean;
  readonly onBet: (spot: Spot) => void;
}) {
  const { t } = useTranslation('player');
  const { spot, rules } = props;
  const amount = amountOn(props.bets, spot);
  const limit = limitOf(rules, spot);
  return (
    <button
      type="button"
      className={`bet-field bet-${isSideSpot(spot) ? 'side' : spot}`}
      disabled={props.locked}
      onClick={() => props.onBet(spot)}
    >
      {/* named by what it shows ("Bet on" for screen readers only): the name holds the visible text */}
      <Trans t={t} i18nKey="bets.field" values={{ spot: spotLabel(spot, t) }} components={FIELD} />
      <span className="bet-pays">{paysWords(spot, rules, t)}</span>
      <span className="bet-amount">{amount > 0 ? money(amount) : '\u00a0'}</span>
      {limit && (
        <span className="bet-limits muted">
          {money(limit.min)}–{money(limit.max)}
        </span>
      )}
    </button>
  );
}

/** The main spots in a row, and the side bets this table offers in a row beneath (none on the online game). */
export function BetFields({
  rules,
  bets,
  locked,
  onBet,
}: {
  readonly rules: FieldRules;
  readonly bets: SpotAmounts;
  readonly locked: boolean;
  readonly onBet: (spot: Spot) => void;
}) {
  const { t } = useTranslation('player');
  const spots = betSpots(rules);
  const side = spots.filter(isSideSpot);
  const field = (spot: Spot) => <BetField key={spot} {...{ spot, rules, bets, locked, onBet }} />;
  return (
    <>
      <div className="bet-fields">{spots.filter((s) => !isSideSpot(s)).map(field)}</div>
      {side.length > 0 && (
        <div className="bet-fields side-bets" role="group" aria-label={t('bets.sideBets')}>
          {side.map(field)}
        </div>
      )}
    </>
  );
}

export function BetActions({
  total,
  locked,
  canDeal,
  hint,
  showHint,
  onClear,
  onRebet,
  onDeal,
}: {
  readonly total: number;
  readonly locked: boolean;
  readonly canDeal: boolean;
  /** Why DEAL is not possible yet (its title), or null. */
  readonly hint: string | null;
  /** Whether the hint is also shown beside DEAL. */
  readonly showHint: boolean;
  readonly onClear: () => void;
  readonly onRebet: () => void;
  readonly onDeal: () => void;
}) {
  const { t } = useTranslation('player');
  return (
    <>
      <p className="total-bet" data-testid="total-bet">
        <Trans
          t={t}
          i18nKey="bets.total"
          values={{ amount: money(total) }}
          components={{ strong: <strong /> }}
        />
      </p>
      <div className="actions">
        <button type="button" onClick={onClear} disabled={locked || total === 0}>
          {t('bets.clear')}
        </button>
        <button
          type="button"
          onClick={onRebet}
          disabled={locked}
          title={t('bets.rebetTitle')}
          aria-keyshortcuts="0"
        >
          {t('bets.rebet')} <kbd className="key">0</kbd>
        </button>
        <button
          type="button"
          className="deal-button"
          onClick={onDeal}
          disabled={locked || !canDeal}
          title={hint ?? t('bets.dealTitle')}
        >
          {t('bets.deal')}
        </button>
        {hint && showHint && <span className="deal-hint">{hint}</span>}
      </div>
    </>
  );
}
