import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableEntry } from '../api';
import { type DashboardFilter, analystHash } from './route';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const HOURS = Array.from({ length: 24 }, (_, h) => String(h));

/** What is wrong with a selection (a catalogue key), or null. */
export function filterProblem(f: DashboardFilter): string | null {
  if ((['from', 'to'] as const).some((k) => f[k] !== '' && !DAY.test(f[k]))) return 'errors.day';
  if (f.from !== '' && f.to !== '' && f.from > f.to) return 'errors.range';
  if (f.hour !== '' && !HOURS.includes(f.hour)) return 'errors.hour';
  return null;
}

type Change = (k: keyof DashboardFilter, v: string) => void;

/** A labelled select of `options` (their values shown as they are), the first option meaning "every". */
function Choice(props: {
  readonly id: string;
  readonly label: string;
  readonly every: string;
  readonly value: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly onChange: (v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.every}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The shift (those the service's answers name, and the one chosen) and the local hour. */
function ShiftAndHour(props: {
  readonly f: DashboardFilter;
  readonly shifts: readonly string[];
  readonly set: Change;
}) {
  const { t } = useTranslation('analyst');
  const shifts = [...new Set([...props.shifts, ...(props.f.shift ? [props.f.shift] : [])])].sort();
  return (
    <>
      <Choice
        id="an-shift"
        label={t('filter.shift')}
        every={t('filter.allShifts')}
        value={props.f.shift}
        options={shifts.map((s) => ({ value: s, label: s }))}
        onChange={(v) => props.set('shift', v)}
      />
      <Choice
        id="an-hour"
        label={t('filter.hour')}
        every={t('filter.allHours')}
        value={props.f.hour}
        options={HOURS.map((h) => ({
          value: h,
          label: t('filter.hourOption', { from: h.padStart(2, '0') }),
        }))}
        onChange={(v) => props.set('hour', v)}
      />
    </>
  );
}

/**
 * The dashboard's selection: table, gaming days, shift and local hour; shown in the address (and read again from
 * it) when applied.
 */
export function FilterForm(props: {
  readonly filter: DashboardFilter;
  readonly tables: readonly TableEntry[];
  readonly shifts: readonly string[];
}) {
  const { t } = useTranslation('analyst');
  const [f, setF] = useState<DashboardFilter>(props.filter);
  const [problem, setProblem] = useState<string | null>(null);
  const set: Change = (k, v) => setF({ ...f, [k]: v });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const bad = filterProblem(f);
    setProblem(bad);
    if (bad === null) window.location.hash = analystHash(f);
  };
  const tables = props.tables.map((x) => ({ value: x.tableId, label: x.tableId }));
  return (
    <form className="search-form panel" onSubmit={apply} aria-label={t('filter.label')} noValidate>
      <Choice
        id="an-table"
        label={t('filter.table')}
        every={t('filter.allTables')}
        value={f.table}
        options={tables}
        onChange={(v) => set('table', v)}
      />
      {(['from', 'to'] as const).map((k) => (
        <div className="field" key={k}>
          <label htmlFor={`an-${k}`}>{t(`filter.${k}`)}</label>
          <input id={`an-${k}`} type="date" value={f[k]} onChange={(e) => set(k, e.target.value)} />
        </div>
      ))}
      <ShiftAndHour f={f} shifts={props.shifts} set={set} />
      <div className="field-actions">
        <button type="submit">{t('filter.apply')}</button>
      </div>
      <p className="muted filter-note">{t('filter.note')}</p>
      {problem && (
        <p className="error-text" role="alert">
          {t(problem)}
        </p>
      )}
    </form>
  );
}
