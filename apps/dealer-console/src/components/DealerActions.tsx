/** The dealer's commands: what may be done now, the action bar with its shortcuts, the forms they open, refusals. */
import type { Card } from '@coup/engine';
import type { TableView } from '@coup/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiError } from '../api';
import { useShortcut } from '../shortcuts';
import { CardEntry } from './CardEntry';
import { awaitingConfirmation } from './ConfirmResult';

export interface Refusal {
  readonly action: string;
  readonly code: string;
  readonly message: string;
}

function ActionButton(props: {
  readonly label: string;
  readonly shortcut: string;
  readonly enabled: boolean;
  readonly onRun: () => void;
}) {
  useShortcut(props.shortcut, props.onRun, props.enabled);
  return (
    <button type="button" disabled={!props.enabled} onClick={props.onRun}>
      {props.label} <kbd>{props.shortcut.toUpperCase()}</kbd>
    </button>
  );
}

/** What the dealer may do now, from the view alone (the service still has the last word). */
export function allowed(view: TableView, role: string) {
  const staff = role === 'dealer' || role === 'supervisor';
  const rules = view.rules;
  const live = rules?.dealing === 'live';
  const everyCoup = rules?.shuffle === 'every-coup';
  const p = view.phase;
  // a complete coup on a table that confirms results: no card is due, the dealer confirms it
  const confirming = awaitingConfirmation(view);
  return {
    newShoe: staff && p === 'idle' && !everyCoup,
    open: staff && (p === 'ready' || (p === 'idle' && everyCoup)),
    close: staff && p === 'betting',
    deal: staff && p === 'dealing' && !live,
    card: staff && p === 'dealing' && live && !confirming,
    confirm: staff && p === 'dealing' && confirming,
    void: role === 'supervisor' && (p === 'betting' || p === 'dealing'),
    live,
  };
}

export type Allowed = ReturnType<typeof allowed>;

/** Commands with their pending state and the last refusal; the view is refreshed after each. */
export function useRun(refresh: () => Promise<unknown>) {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: string, command: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await command();
      setRefusal(null);
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(0, 'UNEXPECTED', (error as Error).message);
      setRefusal({ action, code: e.code, message: e.message });
    } finally {
      setBusy(false);
      await refresh();
    }
  };
  return { refusal, dismiss: () => setRefusal(null), busy, run };
}

export type Run = ReturnType<typeof useRun>['run'];

export function RefusalBox({
  refusal,
  onDismiss,
}: {
  readonly refusal: Refusal;
  readonly onDismiss: () => void;
}) {
  const { t } = useTranslation('dealer');
  return (
    <div className="refusal" role="alert">
      <strong>{t('refusal.refused', { action: refusal.action })}</strong> <code>{refusal.code}</code>{' '}
      {t(`game:refusals.${refusal.code}`, { message: refusal.message, defaultValue: refusal.message })}
      <button type="button" className="link" onClick={onDismiss}>
        {t('refusal.dismiss')}
      </button>
    </div>
  );
}

export function ActionBar(props: {
  readonly api: Api;
  readonly tableId: string;
  readonly roundNo: number;
  readonly role: string;
  readonly can: Allowed;
  readonly ready: boolean;
  readonly run: Run;
  readonly onNewShoe: () => void;
  readonly onVoid: () => void;
}) {
  const { t } = useTranslation('dealer');
  const { api, tableId, roundNo, can, ready, run } = props;
  const open = t('actions.open');
  const close = t('actions.close');
  const deal = t('actions.deal');
  return (
    <nav className="actions" aria-label={t('actions.label')}>
      <ActionButton
        label={t('actions.newShoe')}
        shortcut="n"
        enabled={ready && can.newShoe}
        onRun={props.onNewShoe}
      />
      <ActionButton
        label={open}
        shortcut="o"
        enabled={ready && can.open}
        onRun={() => void run(open, () => api.openBetting(tableId))}
      />
      <ActionButton
        label={close}
        shortcut="m"
        enabled={ready && can.close}
        onRun={() => void run(close, () => api.closeBetting(tableId, roundNo))}
      />
      <ActionButton
        label={deal}
        shortcut="d"
        enabled={ready && can.deal}
        onRun={() => void run(deal, () => api.deal(tableId, roundNo))}
      />
      {props.role === 'supervisor' && (
        <ActionButton
          label={t('actions.void')}
          shortcut="v"
          enabled={ready && can.void}
          onRun={props.onVoid}
        />
      )}
    </nav>
  );
}

/** A live shoe's turned card (and burn), asked before the shoe starts. */
export function TurnedCardForm(props: {
  readonly onSubmit: (card: Card) => Promise<void>;
  readonly onCancel: () => void;
}) {
  const { t } = useTranslation('dealer');
  return (
    <div className="inline-form">
      <CardEntry label={t('turnedCard')} showBurn autoFocus onSubmit={props.onSubmit} />
      <button type="button" className="link" onClick={props.onCancel}>
        {t('cancel')}
      </button>
    </div>
  );
}

export function VoidForm(props: {
  readonly roundNo: number;
  readonly reason: string;
  readonly onReason: (reason: string) => void;
  readonly onSubmit: () => void;
  readonly onCancel: () => void;
}) {
  const { t } = useTranslation('dealer');
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <label htmlFor="void-reason">{t('voidForm.reason', { roundNo: props.roundNo })}</label>
      <input
        id="void-reason"
        autoFocus
        value={props.reason}
        maxLength={200}
        onChange={(e) => props.onReason(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}
      />
      <button type="submit" disabled={!props.reason.trim()}>
        {t('voidForm.submit')}
      </button>
    </form>
  );
}
