/**
 * Open a table (`POST /api/tables`) with a form of every rule. The form refuses what the service refuses, with the
 * service's own check run in the browser, every refused rule at its field, in the current language (the check's
 * English detail beside it); whatever the service still refuses (a table id taken) is shown at the field it names
 * too. The first refused field is focused.
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api';
import { controlId } from './Field';
import type { PitApi } from './pitApi';
import { asApiError, useSayCode } from './Refusal';
import { DealingSection, GameSection, MoneySection, SideBetsSection, TimingSection } from './RuleFields';
import {
  CONTROLS,
  type FieldRefusal,
  type RulesForm,
  checkForm,
  controlOf,
  initialForm,
  rawRules,
  ruleErrorOf,
} from './rulesForm';

/** A refusal shown at a rule: the form's own check (`fromService` false) or the service's answer. */
type Shown = FieldRefusal & { readonly fromService: boolean };

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
  // once submitted, the form is checked again at every change, so refusals move or go as the pit types
  const own = tried ? checkForm(form) : [];
  const shown: Shown[] =
    own.length > 0 ? own.map((r) => ({ ...r, fromService: false })) : fromService ? [fromService] : [];
  const set = (patch: Partial<RulesForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setFromService(null);
  };
  const submit = async () => {
    setTried(true);
    const refusals = checkForm(form);
    // the first refused control as the form shows them
    const first = CONTROLS.find((c) => refusals.some((r) => controlOf(r.field) === c));
    if (refusals.length > 0) return focusControl(first ?? refusals[0]?.field ?? '');
    setBusy(true);
    try {
      await pit.openTable(form.tableId, rawRules(form));
      onOpened(form.tableId);
    } catch (e) {
      const error = asApiError(e);
      const field = fieldOfApiError(error);
      setFromService({ field, code: error.code, message: error.message, fromService: true });
      focusControl(field);
    } finally {
      setBusy(false);
    }
  };
  return { form, set, shown, busy, submit };
}

/**
 * A rule's refusal in words: the rule's own sentence (a refusal code of the service other than a rule's: that
 * code's), with the check's detail beside it in the API's English.
 */
function RuleRefusal({ refusal, form }: { readonly refusal: Shown; readonly form: RulesForm }) {
  const { t } = useTranslation('pit');
  const say = useSayCode();
  const { key, values } = ruleErrorOf(refusal.field, form);
  const ruleWords = refusal.code === 'INVALID_RULES' || refusal.code === 'INVALID_TABLE_ID';
  return (
    <>
      {ruleWords ? t(`ruleErrors.${key}`, values) : say(refusal.code)}
      {refusal.message !== null && (
        <>
          {' '}
          <span className="refusal-detail" lang="en">
            ({refusal.fromService ? `${refusal.code}: ` : ''}
            {refusal.message})
          </span>
        </>
      )}
    </>
  );
}

export function OpenTable(props: { readonly pit: PitApi; readonly onOpened: (tableId: string) => void }) {
  const { t } = useTranslation('pit');
  const { form, set, shown, busy, submit } = useOpenTable(props.pit, props.onOpened);
  const at = (control: string) => shown.filter((r) => controlOf(r.field) === control);
  const errorAt = (control: string): ReactNode => {
    const here = at(control);
    return here.length === 0 ? null : here.map((r) => <RuleRefusal key={r.field} refusal={r} form={form} />);
  };
  const unplaced = shown.filter((r) => controlOf(r.field) === null);
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
      {shown.length > 0 && (
        <div role="alert" className="refusal">
          <p>{t('open.refusedAt', { count: shown.length })}</p>
          {unplaced.map((r) => (
            <p key={r.field}>
              <RuleRefusal refusal={r} form={form} />
            </p>
          ))}
        </div>
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
