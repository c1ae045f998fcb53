import type { Outcome } from '@coup/engine';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../api';
import { money } from '../format';
import { type ReadApi, readApi } from './api';
import { handHash } from './route';
import type { HandFilter, HandPage, HandSummary } from '@coup/projections/wire';

const OUTCOME_TEXT: Record<Outcome, string> = { player: 'Player', banker: 'Banker', tie: 'Tie' };

interface FilterForm {
  shoe: string;
  roundFrom: string;
  roundTo: string;
  outcome: '' | Outcome | 'void';
  player: string;
}

const EMPTY: FilterForm = { shoe: '', roundFrom: '', roundTo: '', outcome: '', player: '' };

/** The form as the query's filter; a field that is not a positive whole number is an error in words. */
export function toFilter(f: FilterForm): { ok: true; filter: HandFilter } | { ok: false; message: string } {
  const num = (label: string, s: string): number | undefined | string => {
    const t = s.trim();
    if (t === '') return undefined;
    return /^[0-9]{1,9}$/.test(t) ? Number(t) : `${label} must be a whole number`;
  };
  const shoe = num('Shoe', f.shoe);
  const roundFrom = num('Round from', f.roundFrom);
  const roundTo = num('Round to', f.roundTo);
  for (const v of [shoe, roundFrom, roundTo]) if (typeof v === 'string') return { ok: false, message: v };
  if (typeof roundFrom === 'number' && typeof roundTo === 'number' && roundFrom > roundTo)
    return { ok: false, message: 'Round from must not be after round to' };
  const player = f.player.trim();
  return {
    ok: true,
    filter: {
      ...(shoe === undefined ? {} : { shoe: shoe as number }),
      ...(roundFrom === undefined ? {} : { roundFrom: roundFrom as number }),
      ...(roundTo === undefined ? {} : { roundTo: roundTo as number }),
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
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = toFilter(form);
    if (!r.ok) {
      setFormError(r.message);
      return;
    }
    setFormError(null);
    props.onFilter(r.filter);
  };
  const clear = () => {
    setForm(EMPTY);
    setFormError(null);
    props.onFilter({});
  };
  const field = (key: keyof FilterForm) => ({
    id: `hf-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value }),
  });
  return (
    <form className="filters panel" onSubmit={submit} aria-label="filters">
      <label htmlFor="hf-shoe">Shoe</label>
      <input {...field('shoe')} inputMode="numeric" size={5} />
      <label htmlFor="hf-roundFrom">Rounds from</label>
      <input {...field('roundFrom')} inputMode="numeric" size={6} />
      <label htmlFor="hf-roundTo">to</label>
      <input {...field('roundTo')} inputMode="numeric" size={6} />
      <label htmlFor="hf-outcome">Outcome</label>
      <select {...field('outcome')}>
        <option value="">any</option>
        <option value="player">Player</option>
        <option value="banker">Banker</option>
        <option value="tie">Tie</option>
        <option value="void">voided</option>
      </select>
      <label htmlFor="hf-player">Player</label>
      <input {...field('player')} size={12} />
      <button type="submit">Search</button>
      <button type="button" className="link" onClick={clear}>
        clear
      </button>
      {formError && (
        <span className="error-text" role="alert">
          {formError}
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
];

function HandRow({ tableId, hand: h }: { readonly tableId: string; readonly hand: HandSummary }) {
  return (
    <tr>
      <td>
        <a href={handHash(tableId, h.roundNo)}>Hand {h.roundNo}</a>
      </td>
      <td>{h.shoeNo}</td>
      <td>{h.status}</td>
      <td className={h.outcome ? `spot-${h.outcome}` : ''}>
        {h.outcome ? OUTCOME_TEXT[h.outcome] : h.status === 'voided' ? `void: ${h.voidReason ?? ''}` : ''}
        {h.natural ? ' (natural)' : ''}
      </td>
      <td>
        {h.playerCards.join(' ')} {h.playerTotal !== null && <strong>{h.playerTotal}</strong>}
      </td>
      <td>
        {h.bankerCards.join(' ')} {h.bankerTotal !== null && <strong>{h.bankerTotal}</strong>}
      </td>
      <td>{h.betCount}</td>
      <td>{money(h.totalStaked)}</td>
      <td>{money(h.totalPaid)}</td>
      <td>{h.players.join(', ')}</td>
      <td>{h.openedAt.replace('T', ' ').slice(0, 19)}</td>
    </tr>
  );
}

function HandsTable(props: { readonly tableId: string; readonly page: HandPage; readonly pageNo: number }) {
  const { page } = props;
  return (
    <table className="grid hands-table">
      <caption>
        Page {props.pageNo}: {page.items.length} hand(s), newest first
      </caption>
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th key={c}>{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {page.items.length === 0 && (
          <tr>
            <td colSpan={COLUMNS.length} className="muted">
              No hand matches.
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
          Hand history <span className="muted">table {tableId}</span>
        </h2>
        <a href={`#/tables/${tableId}`}>Live table</a>
      </header>
      <HandFilters
        onFilter={(f) => {
          setFilter(f);
          setCursors([null]);
        }}
      />
      {page === null && <p className="muted">Loading...</p>}
      {page instanceof ApiError && (
        <div className="refusal" role="alert">
          <strong>Hand history refused</strong> <code>{page.code}</code> {page.message}
        </div>
      )}
      {page && !(page instanceof ApiError) && (
        <>
          <HandsTable tableId={tableId} page={page} pageNo={cursors.length} />
          <nav className="pager" aria-label="pages">
            <button
              type="button"
              disabled={cursors.length <= 1}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous page
            </button>
            <button
              type="button"
              disabled={page.nextCursor === null}
              onClick={() => page.nextCursor !== null && setCursors([...cursors, page.nextCursor])}
            >
              Next page
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
