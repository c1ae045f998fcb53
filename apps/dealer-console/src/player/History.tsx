/** The hands the player played, newest first, each with its time, replay link and shuffle check. */
import { Trans, useTranslation } from 'react-i18next';
import { spotLabel } from '../bets';
import { PlayingCard } from '../components/TableParts';
import { outcomeWords } from '../components/words';
import { money } from '../format';
import { formatTime } from '../i18n';
import { settlementLine } from './dealing';
import type { HistoryEntry } from './history';
import type { LedgerAccount } from './playerApi';

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
  const { t } = useTranslation('player');
  return (
    <section className="panel player-history" aria-label={t('history.region')}>
      <h3>{t('history.title')}</h3>
      {account && <LedgerSummary account={account} />}
      {error && <p className="error-text">{t('history.failed', { error })}</p>}
      {entries === null ? (
        <p className="muted">{t('history.loading')}</p>
      ) : entries.length === 0 ? (
        <p className="muted">{t('history.none')}</p>
      ) : (
        <div className="history-scroll">
          <table className="history-table">
            <thead>
              <tr>
                <th>{t('history.round')}</th>
                <th>{t('history.cards')}</th>
                <th>{t('history.result')}</th>
                <th>{t('history.bets')}</th>
                <th>{t('history.shuffle')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.slice(0, SHOWN).map((h) => (
                <HistoryRow key={h.roundNo} tableId={tableId} h={h} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries !== null && entries.length > SHOWN && (
        <p className="muted">{t('history.latest', { shown: SHOWN, total: entries.length })}</p>
      )}
    </section>
  );
}

/** Hands listed at most. */
const SHOWN = 50;

const short = (hex: string | null) => (hex === null ? '–' : `${hex.slice(0, 12)}…`);
const signed = (cents: number) => `${cents > 0 ? '+' : ''}${money(cents)}`;

function LedgerSummary({ account: a }: { readonly account: LedgerAccount }) {
  const { t } = useTranslation('player');
  const values = {
    boughtIn: money(a.boughtIn),
    placements: a.bets === 1 ? t('history.placement') : t('history.placements', { count: a.bets }),
    wins: a.wins,
    losses: a.losses,
    pushes: a.pushes,
    net: signed(a.netResult),
    commission: money(a.commissionDeducted),
    cashedOut: money(a.cashedOut),
  };
  return (
    <p className="ledger-summary" data-testid="ledger-summary">
      <Trans t={t} i18nKey="history.ledger" values={values} components={{ strong: <strong /> }} />
    </p>
  );
}

/** A settled coup corrected or voided after it settled: what happened, when and why. */
function AmendedNote({ h }: { readonly h: HistoryEntry }) {
  const { t } = useTranslation('player');
  const a = h.amended;
  if (a === null) return null;
  return (
    <div className={`amended amended-${a.kind}`}>
      {t(`history.amended.${a.kind}`, { reason: a.reason, time: formatTime(a.at) })}
    </div>
  );
}

/** The player's bets and net: as settled (again, after a correction), or each stake returned when voided. */
function BetsCell({ h }: { readonly h: HistoryEntry }) {
  const { t } = useTranslation('player');
  if (h.amended?.kind === 'voided')
    return (
      <td>
        {h.settlements.map((s) => (
          <div key={s.spot}>
            <s>
              {spotLabel(s.spot, t)} {money(s.amount)}
            </s>
          </div>
        ))}
        <strong>{t('history.stakeReturned', { amount: money(h.amended.returned) })}</strong>
      </td>
    );
  const net = h.settlements.reduce((n, s) => n + settlementLine(s).net, 0);
  return (
    <td>
      {h.settlements.map((s) => (
        <div key={s.spot}>
          {spotLabel(s.spot, t)} {money(s.amount)} {t(`game:results.${s.result}`)}
          {s.commission > 0 ? t('history.commission', { amount: money(s.commission) }) : ''}
        </div>
      ))}
      <strong>{signed(net)}</strong>
    </td>
  );
}

/** One hand: its replay link and time, the cards, the result, the player's bets and net, and the shuffle check. */
function HistoryRow({ tableId, h }: { readonly tableId: string; readonly h: HistoryEntry }) {
  const { t } = useTranslation('player');
  const outcome = `${outcomeWords(h.outcome, t)} ${h.playerTotal}–${h.bankerTotal}`;
  return (
    <tr data-testid={`history-${h.roundNo}`} data-amended={h.amended?.kind}>
      <td>
        <a href={`#/tables/${encodeURIComponent(tableId)}/hands/${h.roundNo}`}>
          {t('history.replay', { roundNo: h.roundNo })}
        </a>
        <div className="muted">
          <time dateTime={h.at}>{formatTime(h.at)}</time>
        </div>
      </td>
      <td className="facts history-cards">
        <span>
          {t('game:letters.player')}{' '}
          {h.playerCards.map((c, i) => (
            <PlayingCard key={i} card={c} />
          ))}
        </span>
        <span>
          {t('game:letters.banker')}{' '}
          {h.bankerCards.map((c, i) => (
            <PlayingCard key={i} card={c} />
          ))}
        </span>
      </td>
      <td>
        {h.amended?.kind === 'voided' ? <s>{outcome}</s> : outcome}
        <AmendedNote h={h} />
      </td>
      <BetsCell h={h} />
      <ShuffleCheck h={h} />
    </tr>
  );
}

/** The shuffle's commitment (published before the bets) checked against its revealed seed. */
function ShuffleCheck({ h }: { readonly h: HistoryEntry }) {
  const { t } = useTranslation('player');
  return (
    <td className="shuffle-check">
      <div>
        {t('history.commitment')} <code title={h.commitment ?? ''}>{short(h.commitment)}</code>
      </div>
      <div>
        {t('history.seed')} <code title={h.seed ?? ''}>{short(h.seed)}</code>
      </div>
      {h.verified === null ? (
        <span className="muted">{t('history.notRevealed')}</span>
      ) : h.verified ? (
        <span className="verified-ok">{t('history.verified')}</span>
      ) : (
        <span className="verified-bad">{t('history.mismatch')}</span>
      )}
    </td>
  );
}
