import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableEntry } from '../api';
import { EMPTY_SEARCH, type SearchForm as Form } from './route';
import { type CasinoZone, type SearchProblem, isProblem, toSearch } from './search';

/** One labelled field of the form; a problem with it is announced and marks it invalid. */
function Field(props: {
  readonly name: keyof Form;
  readonly label: string;
  readonly hint?: string;
  readonly problem: SearchProblem | null;
  readonly children: (p: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = `cs-${props.name}`;
  const invalid = props.problem?.field === props.name;
  const described = [props.hint ? `${id}-hint` : '', invalid ? 'cs-problem' : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        'aria-invalid': invalid,
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {props.hint && (
        <small id={`${id}-hint`} className="muted">
          {props.hint}
        </small>
      )}
    </div>
  );
}

type Bind = (name: keyof Form) => {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
};

/** The form's state: what is typed, the table shown (the first when none is chosen yet), the problem found. */
function useSearchDraft(
  initial: Form,
  tables: readonly TableEntry[] | null,
  zone: CasinoZone,
  onSearch: (form: Form) => void,
) {
  const [form, setForm] = useState<Form>(initial);
  const [problem, setProblem] = useState<SearchProblem | null>(null);
  const table = form.table || (tables?.[0]?.tableId ?? '');
  const bind: Bind = (name) => ({
    value: name === 'table' ? table : form[name],
    onChange: (e) => setForm({ ...form, table, [name]: e.target.value }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wanted = { ...form, table };
    const s = toSearch(wanted, zone);
    setProblem(isProblem(s) ? s : null);
    if (!isProblem(s)) onSearch(wanted);
  };
  const clear = () => {
    setForm({ ...EMPTY_SEARCH, table });
    setProblem(null);
  };
  const setCorrected = (on: boolean) => setForm({ ...form, table, corrected: on ? 'true' : '' });
  return { form, table, problem, bind, submit, clear, setCorrected };
}

/** Where and when: table, shoe, a gaming day or a time range (the casino's local time). */
function WhereFields(props: {
  readonly bind: Bind;
  readonly table: string;
  readonly tables: readonly TableEntry[] | null;
  readonly zone: CasinoZone;
  readonly problem: SearchProblem | null;
}) {
  const { t } = useTranslation('compliance');
  const { bind, problem, table } = props;
  const zone = props.zone.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const listed = props.tables?.some((x) => x.tableId === table) ?? false;
  return (
    <>
      <Field name="table" label={t('form.table')} problem={problem}>
        {(p) => (
          <select {...p} {...bind('table')}>
            {(props.tables ?? []).map((x) => (
              <option key={x.tableId} value={x.tableId}>
                {x.tableId}
              </option>
            ))}
            {table !== '' && !listed && <option value={table}>{table}</option>}
          </select>
        )}
      </Field>
      <Field name="shoe" label={t('form.shoe')} problem={problem}>
        {(p) => <input {...p} {...bind('shoe')} inputMode="numeric" size={5} />}
      </Field>
      <Field name="day" label={t('form.day')} hint={t('form.dayHint')} problem={problem}>
        {(p) => <input {...p} {...bind('day')} type="date" />}
      </Field>
      <Field name="from" label={t('form.from')} hint={t('form.timeHint', { zone })} problem={problem}>
        {(p) => <input {...p} {...bind('from')} type="datetime-local" />}
      </Field>
      <Field name="to" label={t('form.to')} problem={problem}>
        {(p) => <input {...p} {...bind('to')} type="datetime-local" />}
      </Field>
    </>
  );
}

/**
 * The hand search: table, shoe, a gaming day or a time range in the casino's zone, player, outcome, corrected.
 * Searching checks the form (a problem is said next to it) and hands the form on; the caller puts it in the address.
 */
export function SearchForm(props: {
  readonly initial: Form;
  readonly tables: readonly TableEntry[] | null;
  readonly zone: CasinoZone;
  readonly onSearch: (form: Form) => void;
}) {
  const { t } = useTranslation('compliance');
  const d = useSearchDraft(props.initial, props.tables, props.zone, props.onSearch);
  return (
    <form className="search-form panel" onSubmit={d.submit} aria-label={t('form.label')} noValidate>
      <WhereFields
        bind={d.bind}
        table={d.table}
        tables={props.tables}
        zone={props.zone}
        problem={d.problem}
      />
      <Field name="player" label={t('form.player')} problem={d.problem}>
        {(p) => <input {...p} {...d.bind('player')} size={14} />}
      </Field>
      <Field name="outcome" label={t('form.outcome')} problem={d.problem}>
        {(p) => (
          <select {...p} {...d.bind('outcome')}>
            {(['', 'player', 'banker', 'tie', 'void'] as const).map((o) => (
              <option key={o} value={o}>
                {t(`outcomes.${o === '' ? 'any' : o}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="field field-check">
        <input
          id="cs-corrected"
          type="checkbox"
          checked={d.form.corrected === 'true'}
          onChange={(e) => d.setCorrected(e.target.checked)}
        />
        <label htmlFor="cs-corrected">{t('form.corrected')}</label>
      </div>
      <div className="field-actions">
        <button type="submit">{t('form.search')}</button>
        <button type="button" className="link" onClick={d.clear}>
          {t('form.clear')}
        </button>
      </div>
      {d.problem && (
        <p id="cs-problem" className="error-text" role="alert">
          {t(d.problem.message)}
        </p>
      )}
      {props.tables?.length === 0 && <p className="muted">{t('form.noTables')}</p>}
    </form>
  );
}
