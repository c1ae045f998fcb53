/**
 * Open a table (`POST /api/tables`) with a form of every rule. The form refuses what the service refuses, with the
 * service's own check run in the browser; whatever the service still refuses (a table id taken) is shown at the
 * field it names too. A refused field is focused.
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api';
import { controlId } from './Field';
import type { PitApi } from './pitApi';
import { RefusalText, asApiError } from './Refusal';
import { DealingSection, GameSection, MoneySection, SideBetsSection, TimingSection } from './RuleFields';
import { type FieldRefusal, type RulesForm, checkForm, controlOf, initialForm, rawRules } from './rulesForm';

/** A refusal with the code the service gave it (none: the form's own check). */
type Shown = FieldRefusal & { readonly code: string | null };

/** The field a refusal of the service names: `details.field`, the table id's codes, or a validation's first word. */
export function fieldOfApiError(e: ApiError): string {
  const field = e.details?.['field'];
  if (typeof field === 'string') return field;
  if (e.code === 'TABLE_EXISTS' || e.code === 'INVALID_TABLE_ID') return 'tableId';
  const first = /^([A-Za-z.[\]0-9]+) /.exec(e.message)?.[1];
  return first !== undefined && controlOf(first) !== null ? first : 'rules';
}

function focusControl(field: string) {
  const control = controlOf(field);
  if (control) window.setTimeout(() => document.getElementById(controlId(control))?.focus(), 0);
}

function useOpenTable(pit: PitApi, onOpened: (tableId: string) => void) {
  const [form, setForm] = useState<RulesForm>(initialForm);
  const [tried, setTried] = useState(false);
  const [fromService, setFromService] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  // once submitted, the form is checked again at every change, so a refusal moves or goes as the pit types
  const own = tried ? checkForm(form) : null;
  const shown: Shown | null = own ? { ...own, code: null } : fromService;
  const set = (patch: Partial<RulesForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setFromService(null);
  };
  const submit = async () => {
    setTried(true);
    const refusal = checkForm(form);
    if (refusal) return focusControl(refusal.field);
    setBusy(true);
    try {
      await pit.openTable(form.tableId, rawRules(form));
      onOpened(form.tableId);
    } catch (e) {
      const error = asApiError(e);
      const field = fieldOfApiError(error);
      setFromService({ field, message: error.message, code: error.code });
      focusControl(field);
    } finally {
      setBusy(false);
    }
  };
  return { form, set, shown, busy, submit };
}

export function OpenTable(props: { readonly pit: PitApi; readonly onOpened: (tableId: string) => void }) {
  const { t } = useTranslation('pit');
  const { form, set, shown, busy, submit } = useOpenTable(props.pit, props.onOpened);
  const text = (s: Shown): ReactNode =>
    s.code === null ? (
      <>
        {t('open.refused')} <span lang="en">{s.message}</span>
      </>
    ) : (
      <RefusalText code={s.code} message={s.message} />
    );
  const placed = shown ? controlOf(shown.field) : null;
  const errorAt = (control: string): ReactNode => (shown && placed === control ? text(shown) : null);
  return (
    <form
      className="panel open-table"
      aria-labelledby="open-table-heading"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id="open-table-heading">{t('open.heading')}</h2>
      <p className="field-hint">{t('open.intro')}</p>
      {shown && placed === null && (
        <p role="alert" className="refusal">
          {text(shown)}
        </p>
      )}
      {shown && placed !== null && (
        <p role="alert" className="refusal">
          {t('open.refusedAt', { field: shown.field })}
        </p>
      )}
      <div className="rules-grid">
        <DealingSection form={form} set={set} errorAt={errorAt} />
        <GameSection form={form} set={set} errorAt={errorAt} />
        <MoneySection form={form} set={set} errorAt={errorAt} />
        <TimingSection form={form} set={set} errorAt={errorAt} />
      </div>
      <SideBetsSection form={form} set={set} errorAt={errorAt} />
      <button type="submit" disabled={busy}>
        {t('open.submit')}
      </button>
    </form>
  );
}
