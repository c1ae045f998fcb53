import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { LedgerCounters, LedgerEntry, LedgerView } from '@coup/projections/wire';
import { ApiError } from '../api';
import { CsvDownload } from '../components/CsvDownload';
import { money } from '../format';
import { formatTime } from '../i18n';
import { handHash } from '../replay/route';
import type { ComplianceApi } from './api';
import { Pager, Refusal, useCursorPages } from './paging';

const ACCOUNT_FIELDS = [
  'boughtIn',
  'staked',
  'paid',
  'netResult',
  'commission',
  'voidedReturned',
  'cashedOut',
  'chips',
] as const;

/** A counter as shown: commission is what was deducted, owed and collected together. */
const counter = (c: LedgerCounters, field: (typeof ACCOUNT_FIELDS)[number]): number =>
  field === 'commission' ? c.commissionDeducted + c.commissionOwed + c.commissionCollected : c[field];

function AccountsTable({ ledger }: { readonly ledger: LedgerView }) {
  const { t } = useTranslation('compliance');
  const rows: { key: string; label: string; firstAt: string | null; c: LedgerCounters }[] = [
    ...ledger.accounts.map((a) => ({ key: a.tableId, label: a.tableId, firstAt: a.firstAt, c: a })),
    { key: '', label: t('trail.total'), firstAt: null, c: ledger.totals },
  ];
  return (
    <table className="grid trail-accounts">
      <caption>{t('trail.accountsCaption')}</caption>
      <thead>
        <tr>
          {(['table', 'firstAt', ...ACCOUNT_FIELDS] as const).map((f) => (
            <th key={f} scope="col">
              {t(`account.${f}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className={r.key === '' ? 'totals' : undefined}>
            <th scope="row">{r.label}</th>
            <td>{r.firstAt ? formatTime(r.firstAt) : ''}</td>
            {ACCOUNT_FIELDS.map((f) => (
              <td key={f}>{money(counter(r.c, f))}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EntryRow({ entry: e }: { readonly entry: LedgerEntry }) {
  const { t } = useTranslation('compliance');
  return (
    <tr>
      <td>{formatTime(e.at)}</td>
      <td>{e.tableId}</td>
      <td>{t(`kinds.${e.kind}`, { defaultValue: e.kind })}</td>
      <td>
        {e.roundNo !== null && (
          <a
            href={handHash(e.tableId, e.roundNo)}
            aria-label={t('hand.replay', { round: e.roundNo, table: e.tableId })}
          >
            {t('hand.link', { round: e.roundNo })}
          </a>
        )}
      </td>
      <td>{e.spot ?? ''}</td>
      <td className="num">{money(e.amount)}</td>
      <td className="num">{money(e.chipsDelta)}</td>
      <td>{e.result ? t(`settled.${e.result}`, { defaultValue: e.result }) : ''}</td>
      <td className="num">{e.commission ? money(e.commission) : ''}</td>
      <td>{e.by ? `${e.by}${e.role ? ` (${e.role})` : ''}` : ''}</td>
      <td>{e.reason ?? ''}</td>
    </tr>
  );
}

const ENTRY_COLUMNS = [
  'at',
  'table',
  'kind',
  'hand',
  'spot',
  'amount',
  'chipsDelta',
  'result',
  'commission',
  'by',
  'reason',
];
const NUMERIC = new Set(['amount', 'chipsDelta', 'commission']);

function EntriesTable(props: { readonly entries: readonly LedgerEntry[]; readonly pageNo: number }) {
  const { t } = useTranslation('compliance');
  return (
    <table className="grid trail-entries">
      <caption>{t('trail.entriesCaption', { page: props.pageNo, count: props.entries.length })}</caption>
      <thead>
        <tr>
          {ENTRY_COLUMNS.map((c) => (
            <th key={c} scope="col" className={NUMERIC.has(c) ? 'num' : undefined}>
              {t(`entry.${c}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.entries.length === 0 && (
          <tr>
            <td colSpan={ENTRY_COLUMNS.length} className="muted">
              {t('trail.none')}
            </td>
          </tr>
        )}
        {props.entries.map((e) => (
          <EntryRow key={`${e.position}/${e.seq}`} entry={e} />
        ))}
      </tbody>
    </table>
  );
}

/** A player's audit trail: its accounts per table, then every movement with the hand behind it (a replay link). */
export function PlayerTrail(props: { readonly api: ComplianceApi; readonly playerId: string }) {
  const { t } = useTranslation('compliance');
  const { api, playerId } = props;
  const load = useCallback((cursor: string | null) => api.ledger(playerId, cursor), [api, playerId]);
  const { page, pageNo, previous, next } = useCursorPages(load);
  return (
    <section className="player-trail" aria-labelledby="trail-title">
      <h2 id="trail-title">{t('trail.title', { player: playerId })}</h2>
      <CsvDownload
        label={t('trail.download')}
        file={`ledger-${playerId}.csv`}
        ns="compliance"
        load={() => api.ledgerCsv(playerId)}
      />
      {page === null && <p className="muted">{t('trail.loading')}</p>}
      {page instanceof ApiError && <Refusal error={page} />}
      {page && !(page instanceof ApiError) && (
        <>
          <h3>{t('trail.accounts')}</h3>
          <AccountsTable ledger={page} />
          <h3>{t('trail.entries')}</h3>
          <EntriesTable entries={page.entries} pageNo={pageNo} />
          <Pager previous={previous} next={next} />
        </>
      )}
    </section>
  );
}
