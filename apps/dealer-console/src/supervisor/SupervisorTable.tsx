/**
 * A table for the pit boss (`#/supervisor/tables/<id>`): the round's cards, live over the table's feed. A dealt card
 * is clicked to correct it; the round in play is voided, or the coup just settled corrected or voided with a reason,
 * while the service still takes it. The hand's audit trail (`#/tables/<id>/hands/<n>`) shows each correction.
 */
import type { RoundView, TableView } from '@coup/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secondsLeft, useNow } from '../components/Countdown';
import { formatTime } from '../i18n';
import type { RouteContext } from '../routing';
import { useTableFeed } from '../useTableFeed';
import { CorrectCardForm, VoidForm } from './CorrectionForms';
import { type Corrections, correctionsOf, supervisorClient } from './corrections';
import { RoundCards } from './RoundCards';

function RoundFacts({ round, until }: { readonly round: RoundView; readonly until: string | null }) {
  const { t } = useTranslation('supervisor');
  const result = round.result;
  return (
    <p className="round-facts">
      <span className={`round-status round-${round.status}`}>
        {t('round.status', { roundNo: round.roundNo, status: t(`round.statuses.${round.status}`) })}
      </span>{' '}
      {result && round.status !== 'voided' && (
        <strong className="result-line">
          {t(`round.outcomes.${result.outcome}`, { player: result.playerTotal, banker: result.bankerTotal })}
        </strong>
      )}{' '}
      {round.voided && t('round.voided', { reason: round.voided.reason, by: round.voided.by })}{' '}
      {until && (
        <span className="muted">
          {t('round.until', { time: formatTime(until, { dateStyle: undefined }) })}
        </span>
      )}
    </p>
  );
}

function Header({ tableId, view }: { readonly tableId: string; readonly view: TableView | null }) {
  const { t } = useTranslation('supervisor');
  const id = encodeURIComponent(tableId);
  const now = useNow(1000);
  const deadline = view?.phase === 'betting' ? view.round?.deadline : null;
  return (
    <header className="table-header">
      <h2>{t('table.heading', { tableId })}</h2>
      {view && <span className={`phase phase-${view.phase}`}>{t(`pit:phases.${view.phase}`)}</span>}
      {deadline && <span>{t('table.closesIn', { seconds: secondsLeft(deadline, now) })}</span>}
      <a href={`#/tables/${id}`}>{t('table.run')}</a>
      {view?.round && <a href={`#/tables/${id}/hands/${view.round.roundNo}`}>{t('table.audit')}</a>}
    </header>
  );
}

function RoundPanel(props: {
  readonly round: RoundView;
  readonly can: Corrections;
  readonly picked: number | null;
  readonly onPick: (index: number) => void;
}) {
  const { t } = useTranslation('supervisor');
  const { round, can } = props;
  return (
    <section className="panel" aria-labelledby="round-heading">
      <h3 id="round-heading">{t('round.heading', { roundNo: round.roundNo })}</h3>
      <RoundFacts round={round} until={can.until} />
      {can.cards && <p className="field-hint">{t('round.pickHint')}</p>}
      <RoundCards round={round} clickable={can.cards} selected={props.picked} onPick={props.onPick} />
    </section>
  );
}

export function SupervisorTable({ ctx, tableId }: { readonly ctx: RouteContext; readonly tableId: string }) {
  const { t } = useTranslation('supervisor');
  const { state, refresh } = useTableFeed(ctx.api, ctx.token, tableId);
  const client = useMemo(() => supervisorClient(ctx.token), [ctx.token]);
  const [picked, setPicked] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const now = useNow(1000);
  const view = state.view;
  const round = view?.round ?? null;
  const can = correctionsOf(view, now);
  const pickedCard = picked === null ? undefined : round?.cards[picked];
  const finish = (message: string) => {
    setDone(message);
    setPicked(null);
    void refresh();
  };
  return (
    <div className="supervisor-table">
      <Header tableId={tableId} view={view} />
      {state.connection === 'failed' && (
        <p role="alert">{t('table.failed', { code: state.error?.code ?? '' })}</p>
      )}
      {done && (
        <p role="status" className="done">
          {done}
        </p>
      )}
      {!round && view && <p className="muted">{t('round.none')}</p>}
      {round && (
        <RoundPanel round={round} can={can} picked={picked} onPick={(i) => (setPicked(i), setDone(null))} />
      )}
      {round && pickedCard && can.cards && (
        <CorrectCardForm
          key={`${round.roundNo}-${picked}`}
          index={pickedCard.index}
          current={pickedCard.card}
          settled={can.void === 'settled'}
          onSubmit={(card, reason) =>
            client.correctCard(tableId, round.roundNo, pickedCard.index, card, reason)
          }
          onDone={finish}
          onCancel={() => setPicked(null)}
        />
      )}
      {round && can.void && (
        <VoidForm
          key={`${round.roundNo}-${can.void}`}
          roundNo={round.roundNo}
          kind={can.void}
          onSubmit={(reason) => client.voidRound(tableId, round.roundNo, reason)}
          onDone={finish}
        />
      )}
    </div>
  );
}
