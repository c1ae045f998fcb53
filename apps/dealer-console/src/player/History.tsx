/** The hands the player played, newest first, each with its replay link and its shuffle check. */
import { spotLabel } from '../bets';
import { settlementLine } from './dealing';
import type { HistoryEntry } from './history';
import type { LedgerAccount } from './playerApi';
import { money, outcomeLabel } from '../format';
import { PlayingCard } from '../components/TableParts';

export function History({
  tableId,
  entries,
  error,
  account = null,
}: {
  readonly tableId: string;
  readonly entries: readonly HistoryEntry[] | null;
  readonly error: string | null;
  /** The ledger's totals for this table (read model; may lag a coup). */
  readonly account?: LedgerAccount | null;
}) {
  return (
    <section className="panel player-history" aria-label="history">
      <h3>Your hands</h3>
      {account && <LedgerSummary account={account} />}
      {error && <p className="error-text">The history could not be read: {error}</p>}
      {entries === null ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted">No hands yet.</p>
      ) : (
        <table className="history-table">
          <thead>
            <tr>
              <th>Round</th>
              <th>Cards</th>
              <th>Result</th>
              <th>Your bets</th>
              <th>Shuffle</th>
            </tr>
          </thead>
          <tbody>
            {entries.slice(0, SHOWN).map((h) => (
              <HistoryRow key={h.roundNo} tableId={tableId} h={h} />
            ))}
          </tbody>
        </table>
      )}
      {entries !== null && entries.length > SHOWN && (
        <p className="muted">
          The latest {SHOWN} of {entries.length} hands.
        </p>
      )}
    </section>
  );
}

/** Hands listed at most. */
const SHOWN = 50;

const short = (hex: string | null) => (hex === null ? '–' : `${hex.slice(0, 12)}…`);

function LedgerSummary({ account }: { readonly account: LedgerAccount }) {
  return (
    <p className="ledger-summary" data-testid="ledger-summary">
      Ledger (it may lag a moment): bought in {money(account.boughtIn)},{' '}
      {account.bets === 1 ? '1 bet placement' : `${account.bets} bet placements`}; bets settled:{' '}
      {account.wins} won, {account.losses} lost, {account.pushes} pushed; net{' '}
      <strong>
        {account.netResult > 0 ? '+' : ''}
        {money(account.netResult)}
      </strong>
      , commission {money(account.commissionDeducted)}, cashed out {money(account.cashedOut)}.
    </p>
  );
}

/** One hand: its replay link, the cards, the result, the player's bets and net, and the shuffle check. */
function HistoryRow({ tableId, h }: { readonly tableId: string; readonly h: HistoryEntry }) {
  const net = h.settlements.reduce((n, s) => n + settlementLine(s).net, 0);
  return (
    <tr data-testid={`history-${h.roundNo}`}>
      <td>
        <a href={`#/tables/${encodeURIComponent(tableId)}/hands/${h.roundNo}`}>#{h.roundNo} replay</a>
      </td>
      <td className="facts history-cards">
        <span>
          P{' '}
          {h.playerCards.map((c, i) => (
            <PlayingCard key={i} card={c} />
          ))}
        </span>
        <span>
          B{' '}
          {h.bankerCards.map((c, i) => (
            <PlayingCard key={i} card={c} />
          ))}
        </span>
      </td>
      <td>
        {outcomeLabel(h.outcome)} {h.playerTotal}–{h.bankerTotal}
      </td>
      <td>
        {h.settlements.map((s) => (
          <div key={s.spot}>
            {spotLabel(s.spot)} {money(s.amount)} {s.result}
            {s.commission > 0 ? ` (commission ${money(s.commission)})` : ''}
          </div>
        ))}
        <strong>
          {net > 0 ? '+' : ''}
          {money(net)}
        </strong>
      </td>
      <ShuffleCheck h={h} />
    </tr>
  );
}

/** The shuffle's commitment (published before the bets) checked against its revealed seed. */
function ShuffleCheck({ h }: { readonly h: HistoryEntry }) {
  return (
    <td className="shuffle-check">
      <div>
        commitment <code title={h.commitment ?? ''}>{short(h.commitment)}</code>
      </div>
      <div>
        seed <code title={h.seed ?? ''}>{short(h.seed)}</code>
      </div>
      {h.verified === null ? (
        <span className="muted">seed not revealed yet</span>
      ) : h.verified ? (
        <span className="verified-ok">✓ sha256(seed) = commitment, published before your bet</span>
      ) : (
        <span className="verified-bad">✗ sha256(seed) ≠ commitment</span>
      )}
    </td>
  );
}
