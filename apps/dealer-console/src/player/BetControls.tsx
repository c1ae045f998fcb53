/** The bet fields (with their payouts and limits), the total bet, and CLEAR BET / REBET / DEAL. */
import type { Spot, SpotAmounts, TableRules } from '@coup/table';
import { money } from '../format';
import { BET_SPOTS, SPOT_LABEL } from './betting';

const pays = (spot: Spot, rules: Pick<TableRules, 'tiePays'>): string =>
  spot === 'tie' ? `pays ${rules.tiePays}:1` : spot === 'banker' ? 'pays 1:1 less 5%' : 'pays 1:1';

export function BetFields({
  rules,
  bets,
  locked,
  onBet,
}: {
  readonly rules: Pick<TableRules, 'tiePays' | 'limits'>;
  readonly bets: SpotAmounts;
  readonly locked: boolean;
  readonly onBet: (spot: Spot) => void;
}) {
  return (
    <div className="bet-fields">
      {BET_SPOTS.map((spot) => (
        <button
          key={spot}
          type="button"
          className={`bet-field bet-${spot}`}
          aria-label={`Bet on ${SPOT_LABEL[spot]}: ${money(bets[spot])}`}
          disabled={locked}
          onClick={() => onBet(spot)}
        >
          <span className="bet-name">{SPOT_LABEL[spot]}</span>
          <span className="bet-pays">{pays(spot, rules)}</span>
          <span className="bet-amount">{bets[spot] > 0 ? money(bets[spot]) : '\u00a0'}</span>
          <span className="bet-limits muted">
            {money(rules.limits[spot].min)}–{money(rules.limits[spot].max)}
          </span>
        </button>
      ))}
    </div>
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
  return (
    <>
      <p className="total-bet" data-testid="total-bet">
        Total bet: <strong>{money(total)}</strong>
      </p>
      <div className="actions">
        <button type="button" onClick={onClear} disabled={locked || total === 0}>
          CLEAR BET
        </button>
        <button type="button" onClick={onRebet} disabled={locked} title="Repeat your last bet (key 0)">
          REBET <kbd>0</kbd>
        </button>
        <button
          type="button"
          className="deal-button"
          onClick={onDeal}
          disabled={locked || !canDeal}
          title={hint ?? 'Deal the coup (D)'}
        >
          DEAL
        </button>
        {hint && showHint && <span className="muted">{hint}</span>}
      </div>
    </>
  );
}
