import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HandPage, HandSummary, HandVerification } from '@coup/projections/wire';
import { ApiError } from '../api';
import { money } from '../format';
import { formatTime } from '../i18n';
import { handHash } from '../replay/route';
import type { ComplianceApi } from './api';
import { Pager, Refusal, asApiError, useCursorPages } from './paging';
import { CsvDownload } from '../components/CsvDownload';
import { playerHash } from './route';
import type { Search } from './search';

/** A hand's verification (the service's named checks), read when the row is shown. */
function VerifyCell(props: {
  readonly api: ComplianceApi;
  readonly tableId: string;
  readonly roundNo: number;
}) {
  const { t } = useTranslation('compliance');
  const { api, tableId, roundNo } = props;
  const [v, setV] = useState<HandVerification | ApiError | null>(null);
  useEffect(() => {
    let stop = false;
    api.verify(tableId, roundNo).then(
      (r) => !stop && setV(r),
      (e: unknown) => !stop && setV(asApiError(e)),
    );
    return () => {
      stop = true;
    };
  }, [api, tableId, roundNo]);
  if (v === null) return <span className="muted">{t('verify.checking')}</span>;
  if (v instanceof ApiError) return <span className="verify-bad">{t('verify.error', { code: v.code })}</span>;
  const named = (status: string) =>
    v.checks
      .filter((c) => c.status === status)
      .map((c) => c.name)
      .join(', ');
  if (!v.ok) return <span className="verify-bad">{t('verify.failed', { checks: named('fail') })}</span>;
  const pending = named('pending');
  if (pending !== '')
    return <span className="verify-pending">{t('verify.pending', { checks: pending })}</span>;
  return <span className="verify-ok">{t('verify.ok')}</span>;
}

/** The hand's result in words: outcome (natural), voided with why, or still in play; corrected or voided after it settled. */
function ResultCell({ hand: h }: { readonly hand: HandSummary }) {
  const { t } = useTranslation('compliance');
  return (
    <td className={h.outcome ? `spot-${h.outcome}` : ''}>
      {h.status === 'voided'
        ? `${t('hand.voided')}${h.voidReason ? `: ${h.voidReason}` : ''}`
        : h.outcome
          ? t(`outcomes.${h.outcome}`)
          : t('hand.inPlay', { status: t(`status.${h.status}`) })}
      {h.natural ? ` (${t('hand.natural')})` : ''}
      {h.amended && (
        <>
          {' '}
          <span className="badge badge-amended">
            {t(h.status === 'voided' ? 'hand.voidedAfter' : 'hand.corrected')}
          </span>
        </>
      )}
    </td>
  );
}

function HandRow(props: { readonly api: ComplianceApi; readonly hand: HandSummary }) {
  const { t } = useTranslation('compliance');
  const h = props.hand;
  return (
    <tr>
      <td>
        <a
          href={handHash(h.tableId, h.roundNo)}
          aria-label={t('hand.replay', { round: h.roundNo, table: h.tableId })}
        >
          {t('hand.link', { round: h.roundNo })}
        </a>
      </td>
      <td className="num">{h.shoeNo}</td>
      <td>{formatTime(h.openedAt)}</td>
      <ResultCell hand={h} />
      <td>
        {h.playerCards.join(' ')} {h.playerTotal !== null && <strong>{h.playerTotal}</strong>}
      </td>
      <td>
        {h.bankerCards.join(' ')} {h.bankerTotal !== null && <strong>{h.bankerTotal}</strong>}
      </td>
      <td className="num">{money(h.totalStaked)}</td>
      <td className="num">{money(h.totalPaid)}</td>
      <td className="num">{money(h.houseResult)}</td>
      <td className="players">
        {h.players.map((p) => (
          <a key={p} href={playerHash(p)} aria-label={t('hand.trailOf', { player: p })}>
            {p}
          </a>
        ))}
      </td>
      <td>
        <VerifyCell api={props.api} tableId={h.tableId} roundNo={h.roundNo} />
      </td>
    </tr>
  );
}

const COLUMNS = [
  'hand',
  'shoe',
  'opened',
  'result',
  'player',
  'banker',
  'staked',
  'paid',
  'house',
  'players',
  'verify',
];
const NUMERIC = new Set(['shoe', 'staked', 'paid', 'house']);

function ResultsTable(props: {
  readonly api: ComplianceApi;
  readonly search: Search;
  readonly page: HandPage;
  readonly pageNo: number;
}) {
  const { t } = useTranslation('compliance');
  const { page } = props;
  return (
    <table className="grid compliance-hands">
      <caption>
        {t('results.caption', { page: props.pageNo, count: page.items.length, table: props.search.tableId })}
      </caption>
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th key={c} scope="col" className={NUMERIC.has(c) ? 'num' : undefined}>
              {t(`columns.${c}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {page.items.length === 0 && (
          <tr>
            <td colSpan={COLUMNS.length} className="muted">
              {t('results.none')}
            </td>
          </tr>
        )}
        {page.items.map((h) => (
          <HandRow key={`${h.tableId}/${h.roundNo}`} api={props.api} hand={h} />
        ))}
      </tbody>
    </table>
  );
}

/** A search's hands: pages (newest first), each with its verification and replay link; the whole search as CSV. */
export function HandResults(props: { readonly api: ComplianceApi; readonly search: Search }) {
  const { t } = useTranslation('compliance');
  const { api, search } = props;
  const load = useCallback((cursor: string | null) => api.hands(search, cursor), [api, search]);
  const { page, pageNo, previous, next } = useCursorPages(load);
  return (
    <section className="compliance-results" aria-label={t('nav.search')}>
      <CsvDownload
        label={t('results.download')}
        file={`hands-${search.tableId}.csv`}
        ns="compliance"
        load={() => api.handsCsv(search)}
      />
      {page === null && <p className="muted">{t('results.loading')}</p>}
      {page instanceof ApiError && <Refusal error={page} />}
      {page && !(page instanceof ApiError) && (
        <>
          <ResultsTable api={api} search={search} page={page} pageNo={pageNo} />
          <Pager previous={previous} next={next} />
        </>
      )}
    </section>
  );
}
