/** The coup on the felt once all its cards are shown: the outcome, the totals and each bet's settlement. */
import type { Settlement } from '@coup/table';
import { money, outcomeLabel } from '../format';
import { spotLabel } from '../bets';
import { settlementLine } from './dealing';
import type { Shown } from './usePlayerTable';

function SettlementItem({ s }: { readonly s: Settlement }) {
  const line = settlementLine(s);
  return (
    <li className={`settle-${s.result}`}>
      {spotLabel(s.spot)} {money(s.amount)} {line.words}{' '}
      <strong>
        {line.net > 0 ? '+' : ''}
        {money(line.net)}
      </strong>
      {s.commission > 0 && <span> (5% commission {money(s.commission)} taken)</span>}
    </li>
  );
}

/** `shown.fresh` false: the last coup, shown on load. */
export function CoupResult({ shown }: { readonly shown: Shown }) {
  const { coup } = shown;
  return (
    <div className={`coup-result outcome-${coup.outcome}`} data-testid="coup-result">
      <p className="result-line">
        <strong>{outcomeLabel(coup.outcome)}</strong> {coup.playerTotal} to {coup.bankerTotal}
        {coup.natural ? ' (natural)' : ''}
        {!shown.fresh && <span className="muted"> · last coup, round {coup.roundNo}</span>}
      </p>
      <ul className="settlements">
        {coup.settlements.map((s) => (
          <SettlementItem key={s.spot} s={s} />
        ))}
      </ul>
    </div>
  );
}
