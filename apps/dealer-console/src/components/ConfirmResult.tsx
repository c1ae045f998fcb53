/**
 * Live tables whose rules ask the dealer to confirm each result (`confirmResult`): once the coup's last card is shown,
 * the result it will settle with (resolved in the browser by the engine's own rules from the cards on the view) and
 * a Confirm button; Enter confirms. Until then a supervisor may still correct a card (the screen shows the result of
 * the corrected cards as soon as the service's view has them).
 */
import { type CoupResult, resolveCoup } from '@coup/engine';
import type { RoundView, TableView } from '@coup/table';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isTyping } from '../shortcuts';
import { ResultLine } from './Payouts';

/** Whether the round in play is complete and waits for the dealer's confirmation before it settles. */
export function awaitingConfirmation(view: TableView): boolean {
  const round = view.round;
  return (
    view.rules?.dealing === 'live' &&
    view.rules.confirmResult === true &&
    round?.status === 'dealing' &&
    round.next?.to === 'complete'
  );
}

/** The coup's result from its dealt cards, or null when they do not make a coup (never on a complete round). */
function pendingResult(round: RoundView): CoupResult | null {
  try {
    return resolveCoup(round.cards.map((c) => c.card));
  } catch {
    return null;
  }
}

/** Whether Enter pressed on `target` belongs to it: a field, or a control that Enter activates itself. */
function ownsEnter(target: EventTarget | null): boolean {
  if (isTyping(target)) return true;
  return (
    target instanceof HTMLElement && target.closest('button, a[href], summary, [role="button"]') !== null
  );
}

/** Enter pressed on the page (not in a field, not on a button or link, which take it themselves) calls `onEnter`. */
function useEnterKey(onEnter: () => void, enabled: boolean) {
  const latest = useRef(onEnter);
  latest.current = onEnter;
  useEffect(() => {
    if (!enabled) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || e.ctrlKey || e.altKey || e.metaKey || e.repeat || ownsEnter(e.target)) return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

/**
 * The complete coup's result and its Confirm button (Enter). `onConfirm` is called once per round until it
 * resolves (a second Enter before the answer sends nothing); a refused confirmation may be tried again.
 */
export function ConfirmResultPanel(props: {
  readonly tableId: string;
  readonly round: RoundView;
  readonly role: string;
  readonly enabled: boolean;
  readonly onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation('dealer');
  const { round } = props;
  const sent = useRef<number | null>(null);
  const confirm = () => {
    if (!props.enabled || sent.current === round.roundNo) return;
    sent.current = round.roundNo;
    void props.onConfirm().finally(() => {
      sent.current = null;
    });
  };
  useEnterKey(confirm, props.enabled);
  const result = pendingResult(round);
  return (
    <section
      className={`result result-pending${result ? ` result-${result.outcome}` : ''}`}
      aria-label={t('confirm.region')}
    >
      <div className="muted">{t('confirm.title', { roundNo: round.roundNo })}</div>
      {result && <ResultLine result={result} />}
      <div className="confirm-actions">
        <button
          type="button"
          className="confirm-button"
          disabled={!props.enabled}
          autoFocus
          onClick={confirm}
        >
          {t('confirm.button')} <kbd>{t('confirm.key')}</kbd>
        </button>
        {props.role === 'supervisor' && (
          <a href={`#/supervisor/tables/${encodeURIComponent(props.tableId)}`}>{t('confirm.correct')}</a>
        )}
      </div>
      <p className="muted">{t('confirm.help')}</p>
    </section>
  );
}
