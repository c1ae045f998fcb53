import type { Outcome } from '@coup/engine';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { money } from '../format';
import { formatTime } from '../i18n';
import { type ReadApi, readApi } from './api';
import { handHash } from './route';
import type { HandFilter, HandPage, HandSummary } from '@coup/projections/wire';

interface FilterForm {
  shoe: string;
  roundFrom: string;
  roundTo: string;
  outcome: '' | Outcome | 'void';
  player: string;
}

const EMPTY: FilterForm = { shoe: '', roundFrom: '', roundTo: '', outcome: '', player: '' };

/** Why a filter form cannot be searched: its field, and the message's key in the `replay` catalogue. */
export interface FilterRefusal {
  readonly field: keyof FilterForm;
  readonly key: string;
}

/** The form as the query's filter; a field that is not a positive whole number is refused at that field. */
export function toFilter(f: FilterForm): { ok: true; filter: HandFilter } | ({ ok: false } & FilterRefusal) {
  const nums: Partial<Record<'shoe' | 'roundFrom' | 'roundTo', number>> = {};
  for (const field of ['shoe', 'roundFrom', 'roundTo'] as const) {
    const text = f[field].trim();
    if (text === '') continue;
    if (!/^[0-9]{1,9}$/.test(text)) return { ok: false, field, key: `hands.errors.${field}` };
    nums[field] = Number(text);
  }
  const { roundFrom, roundTo } = nums;
  if (roundFrom !== undefined && roundTo !== undefined && roundFrom > roundTo)
    return { ok: false, field: 'roundFrom', key: 'hands.errors.order' };
  const player = f.player.trim();
  return {
    ok: true,
    filter: {
      ...nums,
      ...(f.outcome === '' ? {} : { outcome: f.outcome }),
      ...(player === '' ? {} : { player }),
    },
  };
}

/** How often the first page of the hand history is read again. */
export const HAND_LIST_REFRESH_MS = 2_000;

/** The page of hands at `cursor` (null: loading); the first page (the newest hands) is read again every few seconds. */
function useHandPage(api: ReadApi, tableId: string, filter: HandFilter, cursor: string | null) {
  const [page, setPage] = useState<HandPage | ApiError | null>(null);
  useEffect(() => {
    let stop = false;
    setPage(null);
    const load = () =>
      api.hands(tableId, filter, cursor).then(
        (p) => !stop && setPage(p),
        (e: unknown) =>
          !stop && setPage(e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e))),
      );
    void load();
    // The first page (the newest hands) follows the table: a hand appears once the read side has recorded it.
    const timer = cursor === null ? setInterval(() => void load(), HAND_LIST_REFRESH_MS) : null;
    return () => {
      stop = true;
      if (timer) clearInterval(timer);
    };
  }, [api, tableId, filter, cursor]);
  return page;
}

/** The filters: searching applies the form (or shows why it cannot), clearing empties it; both go to page 1. */
function HandFilters(props: { readonly onFilter: (filter: HandFilter) => void }) {
  const { t } = useTranslation('replay');
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const [refused, setRefused] = useState<FilterRefusal | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = toFilter(form);
    setRefused(r.ok ? null : r);
    if (r.ok) props.onFilter(r.filter);
  };
  const clear = () => {
    setForm(EMPTY);
    setRefused(null);
    props.onFilter({});
  };
  const field = (key: keyof FilterForm) => ({
    id: `hf-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value }),
    ...(refused?.field === key ? { 'aria-invalid': true, 'aria-describedby': 'hf-error' } : {}),
  });
  return (
    <form className="filters panel" onSubmit={submit} aria-label={t('hands.filters')}>
      <label htmlFor="hf-shoe">{t('hands.shoe')}</label>
      <input {...field('shoe')} inputMode="numeric" size={5} />
      <label htmlFor="hf-roundFrom">{t('hands.roundFrom')}</label>
      <input {...field('roundFrom')} inputMode="numeric" size={6} />
      <label htmlFor="hf-roundTo">{t('hands.roundTo')}</label>
      <input {...field('roundTo')} inputMode="numeric" size={6} />
      <label htmlFor="hf-outcome">{t('hands.outcome')}</label>
      <select {...field('outcome')}>
        {(['', 'player', 'banker', 'tie', 'void'] as const).map((o) => (
          <option key={o} value={o}>
            {t(`hands.outcomes.${o === '' ? 'any' : o}`)}
          </option>
        ))}
      </select>
      <label htmlFor="hf-player">{t('hands.player')}</label>
      <input {...field('player')} size={12} />
      <button type="submit">{t('hands.search')}</button>
      <button type="button" className="link" onClick={clear}>
        {t('hands.clear')}
      </button>
      {refused && (
        <span className="error-text" role="alert" id="hf-error">
          {t(refused.key)}
        </span>
      )}
    </form>
  );
}

const COLUMNS = [
  'round',
  'shoe',
  'status',
  'outcome',
  'player',
  'banker',
  'bets',
  'staked',
  'paid',
  'players',
  'opened',
] as const;

/** The hand's result: its outcome (natural), or voided with why; marked when put right after it settled. */
function OutcomeCell({ hand: h }: { readonly hand: HandSummary }) {
  const { t } = useTranslation('replay');
  const outcome = h.outcome as Outcome | null;
  return (
    <td className={outcome ? `spot-${outcome}` : ''}>
      {outcome
        ? t(`hands.outcomes.${outcome}`)
        : h.status === 'voided'
          ? t('hands.voided', { reason: h.voidReason ?? '' })
          : ''}
      {h.natural ? ` ${t('hands.natural')}` : ''}
      {h.amended && (
        <>
          {' '}
          <span className="badge badge-amended">
            {t(h.status === 'voided' ? 'hands.voidedAfter' : 'hands.corrected')}
          </span>
        </>
      )}
    </td>
  );
}

function HandRow({ tableId, hand: h }: { readonly tableId: string; readonly hand: HandSummary }) {
  const { t } = useTranslation('replay');
  return (
    <tr>
      <td>
        <a href={handHash(tableId, h.roundNo)}>{t('hands.link', { round: h.roundNo })}</a>
      </td>
      <td>{h.shoeNo}</td>
      <td>{t(`status.${h.status}`, h.status)}</td>
      <OutcomeCell hand={h} />
      <td>
        {h.playerCards.join(' ')} {h.playerTotal !== null && <strong>{h.playerTotal}</strong>}
      </td>
      <td>
        {h.bankerCards.join(' ')} {h.bankerTotal !== null && <strong>{h.bankerTotal}</strong>}
      </td>
      <td>{h.betCount}</td>
      <td>{money(h.totalStaked)}</td>
      <td>{money(h.totalPaid)}</td>
      <td>{h.players.join(t('hands.separator'))}</td>
      <td>
        <time dateTime={h.openedAt}>{formatTime(h.openedAt)}</time>
      </td>
    </tr>
  );
}

function HandsTable(props: { readonly tableId: string; readonly page: HandPage; readonly pageNo: number }) {
  const { t } = useTranslation('replay');
  const { page } = props;
  return (
    <table className="grid hands-table">
      <caption>{t('hands.caption', { page: props.pageNo, count: page.items.length })}</caption>
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th key={c} scope="col">
              {t(`hands.columns.${c}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {page.items.length === 0 && (
          <tr>
            <td colSpan={COLUMNS.length} className="muted">
              {t('hands.none')}
            </td>
          </tr>
        )}
        {page.items.map((h) => (
          <HandRow key={h.roundNo} tableId={props.tableId} hand={h} />
        ))}
      </tbody>
    </table>
  );
}

/** A table's hand history: the hand-history filters, cursor pages (newest first), each hand a link to its replay. */
export function HandList(props: {
  readonly token: string;
  readonly tableId: string;
  readonly api?: ReadApi;
}) {
  const { t } = useTranslation('replay');
  const { tableId } = props;
  const api = useMemo(() => props.api ?? readApi(props.token), [props.api, props.token]);
  const [filter, setFilter] = useState<HandFilter>({});
  /** Cursors of the pages visited (null: the first). */
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const page = useHandPage(api, tableId, filter, cursors[cursors.length - 1] ?? null);

  return (
    <div className="hand-list">
      <header className="replay-header">
        <h2>
          {t('hands.title')} <span className="muted">{t('hands.table', { table: tableId })}</span>
        </h2>
        <a href={`#/tables/${tableId}`}>{t('hands.liveTable')}</a>
      </header>
      <HandFilters
        onFilter={(f) => {
          setFilter(f);
          setCursors([null]);
        }}
      />
      {page === null && <p className="muted">{t('hands.loading')}</p>}
      {page instanceof ApiError && (
        <div className="refusal" role="alert">
          <strong>{t('hands.refused')}</strong> <code>{page.code}</code> <span lang="en">{page.message}</span>
        </div>
      )}
      {page && !(page instanceof ApiError) && (
        <>
          <HandsTable tableId={tableId} page={page} pageNo={cursors.length} />
          <nav className="pager" aria-label={t('hands.pages')}>
            <button
              type="button"
              disabled={cursors.length <= 1}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              {t('hands.previous')}
            </button>
            <button
              type="button"
              disabled={page.nextCursor === null}
              onClick={() => page.nextCursor !== null && setCursors([...cursors, page.nextCursor])}
            >
              {t('hands.next')}
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
