/** The coup's payouts: each settlement, side bets by their label with the paytable they were paid by. */
import { isSideSpot } from '@coup/engine';
import type { CoupSummary, RoundView, Spot } from '@coup/table';
import { paytableWords, spotLabel } from '../bets';
import { money, outcomeLabel } from '../format';

/** A side bet's paytable: its name and what it pays (empty for a main spot). */
function paytableCell(spot: Spot, paytable: string | undefined): string {
  return isSideSpot(spot) && paytable ? `${paytable} (${paytableWords(spot, paytable)})` : '';
}

function PayoutsTable({ result: r }: { readonly result: CoupSummary }) {
  if (r.settlements.length === 0) return null;
  // A paytable column once a side bet was settled (main bets have none).
  const side = r.settlements.some((s) => isSideSpot(s.spot));
  return (
    <table className="grid">
      <caption>Payouts, round {r.roundNo}</caption>
      <thead>
        <tr>
          <th>player</th>
          <th>spot</th>
          {side && <th>paytable</th>}
          <th>stake</th>
          <th>result</th>
          <th>paid</th>
          <th>commission</th>
        </tr>
      </thead>
      <tbody>
        {r.settlements.map((s) => (
          <tr key={`${s.playerId}-${s.spot}`} className={`settle-${s.result}`}>
            <td>{s.playerId}</td>
            <td>{spotLabel(s.spot)}</td>
            {side && <td>{paytableCell(s.spot, s.paytable)}</td>}
            <td>{money(s.amount)}</td>
            <td>{s.result}</td>
            <td>{money(s.paid)}</td>
            <td>{s.commission === 0 ? '' : money(s.commission)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ResultLine({ result: r }: { readonly result: CoupSummary }) {
  return (
    <div className="result-line">
      <strong>{outcomeLabel(r.outcome)}</strong> {r.playerTotal} to {r.bankerTotal}
      {r.natural && ' (natural)'}
    </div>
  );
}

/** The coup's result (text and colour) and each settlement, or the void. */
export function Result({ round }: { readonly round: RoundView | null }) {
  if (round?.voided) {
    return (
      <div className="result result-void" role="status">
        Round {round.roundNo} voided by {round.voided.by}: {round.voided.reason}. Every bet was returned.
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
  if (!result) return null;
  return (
    <div className={`result result-last result-${result.outcome}`} data-testid="last-coup">
      <div className="muted">Last coup, round {result.roundNo}</div>
      <ResultLine result={result} />
      <PayoutsTable result={result} />
    </div>
  );
}
