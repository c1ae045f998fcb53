/**
 * The supervisor's forms: correct the picked card (`PUT .../cards/<index>`), and void the round in play or the coup
 * just settled (`POST .../void`). A settled coup's correction or void needs a reason, recorded with who made it.
 */
import type { Card } from '@coup/engine';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../pit/Field';
import { RefusalNote, useCommand } from '../pit/Refusal';
import { cardTyped } from './corrections';
import { useCardWords } from './RoundCards';

/** The correction's own check: a card as typed, and a reason (3 characters or more) once the coup has settled. */
export function checkCorrection(
  text: string,
  reason: string,
  settled: boolean,
): { readonly card: Card } | { readonly field: string; readonly key: string } {
  const card = cardTyped(text);
  if (!card) return { field: 'card', key: 'correct.badCard' };
  if (settled && reason.trim().length < 3) return { field: 'reason', key: 'correct.needReason' };
  return { card };
}

interface CorrectProps {
  readonly index: number;
  readonly current: Card;
  /** The coup has settled: a reason is required. */
  readonly settled: boolean;
  readonly onSubmit: (card: Card, reason: string) => Promise<unknown>;
  readonly onDone: (message: string) => void;
  readonly onCancel: () => void;
}

function useCorrection(props: CorrectProps) {
  const { t } = useTranslation('supervisor');
  const words = useCardWords();
  const [text, setText] = useState('');
  const [reason, setReason] = useState('');
  const [refused, setRefused] = useState<{ field: string; key: string } | null>(null);
  const { error, busy, run } = useCommand();
  const submit = async () => {
    const checked = checkCorrection(text, reason, props.settled);
    if (!('card' in checked)) return setRefused(checked);
    setRefused(null);
    const { card } = checked;
    if (await run(() => props.onSubmit(card, reason)))
      props.onDone(
        t('correct.done', { order: props.index + 1, from: words(props.current), to: words(card) }),
      );
  };
  // a refusal goes as soon as its field is typed in again
  const edit = (field: string, set: (v: string) => void) => (v: string) => {
    set(v);
    setRefused((r) => (r?.field === field ? null : r));
  };
  return {
    text,
    setText: edit('card', setText),
    reason,
    setReason: edit('reason', setReason),
    refused,
    error,
    busy,
    submit,
  };
}

export function CorrectCardForm(props: CorrectProps) {
  const { t } = useTranslation('supervisor');
  const words = useCardWords();
  const { text, setText, reason, setReason, refused, error, busy, submit } = useCorrection(props);
  const at = (field: string) => (refused?.field === field ? t(refused.key) : null);
  return (
    <form
      className="panel correction"
      aria-labelledby="correct-heading"
      noValidate
      onSubmit={(e) => (e.preventDefault(), void submit())}
    >
      <h3 id="correct-heading">
        {t('correct.heading', { order: props.index + 1, card: words(props.current) })}
      </h3>
      {props.settled && <p className="field-hint">{t('correct.settledHint')}</p>}
      <TextField
        name="card"
        label={t('correct.card')}
        hint={t('correct.cardHint')}
        value={text}
        onChange={setText}
        error={at('card')}
      />
      <TextField
        name="reason"
        label={props.settled ? t('correct.reasonRequired') : t('correct.reason')}
        value={reason}
        onChange={setReason}
        error={at('reason')}
      />
      <RefusalNote error={error} />
      <button type="submit" disabled={busy}>
        {t('correct.submit')}
      </button>{' '}
      <button type="button" onClick={props.onCancel}>
        {t('correct.cancel')}
      </button>
    </form>
  );
}

export function VoidForm(props: {
  readonly roundNo: number;
  readonly kind: 'round' | 'settled';
  readonly onSubmit: (reason: string) => Promise<unknown>;
  readonly onDone: (message: string) => void;
}) {
  const { t } = useTranslation('supervisor');
  const [reason, setReason] = useState('');
  const [refused, setRefused] = useState(false);
  const { error, busy, run } = useCommand();
  const submit = async () => {
    setRefused(reason.trim().length < 3);
    if (reason.trim().length < 3) return;
    if (await run(() => props.onSubmit(reason))) {
      setReason('');
      props.onDone(t(`void.done.${props.kind}`, { roundNo: props.roundNo }));
    }
  };
  return (
    <form
      className="panel void-form"
      aria-labelledby="void-heading"
      noValidate
      onSubmit={(e) => (e.preventDefault(), void submit())}
    >
      <h3 id="void-heading">{t(`void.heading.${props.kind}`, { roundNo: props.roundNo })}</h3>
      <p className="field-hint">{t(`void.hint.${props.kind}`)}</p>
      <TextField
        name="void-reason"
        label={t('void.reason')}
        value={reason}
        onChange={(v) => (setReason(v), setRefused(false))}
        error={refused ? t('void.needReason') : null}
      />
      <RefusalNote error={error} />
      <button type="submit" className="danger" disabled={busy}>
        {t(`void.submit.${props.kind}`)}
      </button>
    </form>
  );
}
