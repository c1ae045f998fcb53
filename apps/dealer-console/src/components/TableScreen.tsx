import type { Card } from '@coup/engine';
import type { TableView } from '@coup/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api';
import type { FeedState } from '../feed';
import { Roads } from '../roads/Roads';
import { useTableFeed } from '../useTableFeed';
import { CardEntry } from './CardEntry';
import { ConfirmResultPanel } from './ConfirmResult';
import { LiveCountdown } from './Countdown';
import {
  ActionBar,
  type Allowed,
  RefusalBox,
  type Run,
  TurnedCardForm,
  VoidForm,
  allowed,
  useRun,
} from './DealerActions';
import { EdgeAlert, useEdgeMonitor } from './EdgeAlert';
import { NextCard } from './NextCard';
import { useDocumentTitle } from './useDocumentTitle';
import {
  BetsPanel,
  EventLog,
  Hands,
  LastCoup,
  PlayersPanel,
  Result,
  RulesSummary,
  ShoePanel,
} from './TableParts';

function Banner({ feed }: { readonly feed: FeedState }) {
  const { t } = useTranslation('dealer');
  if (feed.connection === 'reconnecting') {
    const seconds = Math.round((feed.retryInMs ?? 0) / 100) / 10;
    return (
      <div className="banner banner-warn" role="alert">
        {feed.revision === null
          ? t('banner.reconnecting', { seconds })
          : t('banner.reconnectingFrom', { seconds, revision: feed.revision })}
      </div>
    );
  }
  if (feed.connection === 'failed')
    return (
      <div className="banner banner-error" role="alert">
        {feed.error?.code}: {feed.error?.message}
      </div>
    );
  if (feed.connection === 'connecting') return <div className="banner">{t('banner.connecting')}</div>;
  return null;
}

function TableHeader({ tableId, view, feed }: { tableId: string; view: TableView | null; feed: FeedState }) {
  const { t } = useTranslation('dealer');
  return (
    <header className="table-header">
      <h2>{t('table', { tableId })}</h2>
      {view && (
        <>
          <span className={`phase phase-${view.phase}`}>{t(`phases.${view.phase}`)}</span>
          <span className="round-no">{t('round', { roundNo: view.roundNo })}</span>
          {view.rules && <RulesSummary rules={view.rules} />}
          {view.phase === 'betting' && view.round?.deadline && (
            <LiveCountdown deadline={view.round.deadline} />
          )}
        </>
      )}
      <span className={`conn conn-${feed.connection}`}>{t(`connection.${feed.connection}`)}</span>
    </header>
  );
}

/** The roads. */
function SideColumn({
  token,
  tableId,
  view,
  feed,
}: {
  token: string;
  tableId: string;
  view: TableView;
  feed: FeedState;
}) {
  return (
    <div className="col-right">
      <Roads
        token={token}
        tableId={tableId}
        shoeNo={view.shoe?.shoeNo ?? null}
        shoeCoups={view.shoe?.coups ?? 0}
        everyCoup={view.shoe?.everyCoup ?? view.rules?.shuffle === 'every-coup'}
        lastRound={view.lastResult?.roundNo ?? null}
        live={feed.road}
        voided={feed.roadVoided}
        amendments={feed.amendments}
      />
    </div>
  );
}

/** The dealer's column: refusal, actions, the forms they open, live card entry, the hands, result and bets. */
function MainColumn(props: {
  readonly api: Api;
  readonly role: string;
  readonly tableId: string;
  readonly view: TableView;
  readonly feed: FeedState;
  readonly commands: ReturnType<typeof useRun>;
}) {
  const { t } = useTranslation('dealer');
  const { api, role, tableId, view, feed } = props;
  const { refusal, dismiss, busy, run } = props.commands;
  const [turning, setTurning] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const [reason, setReason] = useState('');
  const can = allowed(view, role);
  const roundNo = view.round?.roundNo ?? view.roundNo ?? 0;
  const ready = !busy && feed.connection === 'live';
  const newShoe = () => {
    if (can.live) setTurning(true);
    else void run(t('actions.newShoe'), () => api.startShoe(tableId));
  };
  const submitVoid = () => {
    if (!reason.trim()) return;
    setVoiding(false);
    void run(t('actions.void'), () => api.voidRound(tableId, roundNo, reason.trim()));
    setReason('');
  };
  return (
    <div className="col-main">
      {refusal && <RefusalBox refusal={refusal} onDismiss={dismiss} />}
      <ActionBar
        {...{ api, tableId, roundNo, role, can, ready, run }}
        onNewShoe={newShoe}
        onVoid={() => setVoiding(true)}
      />
      {turning && can.newShoe && (
        <TurnedCardForm
          onSubmit={(card) => {
            setTurning(false);
            return run(t('actions.newShoe'), () => api.startShoe(tableId, card));
          }}
          onCancel={() => setTurning(false)}
        />
      )}
      {voiding && can.void && (
        <VoidForm
          {...{ roundNo, reason, onReason: setReason, onSubmit: submitVoid }}
          onCancel={() => setVoiding(false)}
        />
      )}
      <LiveCardEntry {...{ api, tableId, view, feed, can, roundNo, run }} />
      <CoupPanels {...{ api, tableId, role, view, can, ready, roundNo, run }} />
    </div>
  );
}

/** The hands, the result (or, on a table that confirms results, the result to confirm), and the bets. */
function CoupPanels(props: {
  readonly api: Api;
  readonly tableId: string;
  readonly role: string;
  readonly view: TableView;
  readonly can: Allowed;
  readonly ready: boolean;
  readonly roundNo: number;
  readonly run: Run;
}) {
  const { t } = useTranslation('dealer');
  const { api, tableId, view, roundNo, run } = props;
  return (
    <>
      <Hands round={view.round} />
      {props.can.confirm && view.round ? (
        <ConfirmResultPanel
          tableId={tableId}
          round={view.round}
          role={props.role}
          enabled={props.ready}
          onConfirm={() => run(t('actions.confirm'), () => api.confirmResult(tableId, roundNo))}
        />
      ) : (
        <Result round={view.round} />
      )}
      {/* a player-dealt table opens the next round with the deal: its last coup is shown beside */}
      {view.rules?.dealtBy === 'player' && !view.round?.result && <LastCoup result={view.lastResult} />}
      <BetsPanel round={view.round} />
    </>
  );
}

/** Live dealing: the next card expected and the entry for it. */
function LiveCardEntry(props: {
  readonly api: Api;
  readonly tableId: string;
  readonly view: TableView;
  readonly feed: FeedState;
  readonly can: Allowed;
  readonly roundNo: number;
  readonly run: Run;
}) {
  const { t } = useTranslation('dealer');
  const { api, tableId, view, can, roundNo, run } = props;
  // no card is due once the coup is complete (a table that confirms results shows the result instead)
  if (!(view.round?.next && view.round.status === 'dealing' && can.live) || can.confirm) return null;
  const dealCard = (card: Card) =>
    run(t('actions.card', { card }), () => api.dealCard(tableId, roundNo, card));
  return (
    <div className="dealing">
      <NextCard next={view.round.next} />
      <CardEntry
        label={t('cardEntry.label')}
        shortcut="e"
        captureRanks
        autoFocus
        disabled={!can.card || props.feed.connection !== 'live'}
        onSubmit={dealCard}
      />
    </div>
  );
}

/** One table, live: what the dealer sees and the actions they take. */
export function TableScreen(props: {
  readonly api: Api;
  readonly token: string;
  readonly role: string;
  readonly tableId: string;
}) {
  const { api, token, role, tableId } = props;
  const { state: feed, refresh } = useTableFeed(api, token, tableId);
  const commands = useRun(refresh);
  const view = feed.view;
  const edge = useEdgeMonitor(token, tableId, view?.shoe ?? null, feed.amendedAt);
  const { t } = useTranslation('dealer');
  useDocumentTitle(t('documentTitle', { tableId }));
  return (
    <div className="table-screen">
      <TableHeader tableId={tableId} view={view} feed={feed} />
      <Banner feed={feed} />
      <EdgeAlert edge={edge} />
      {view && (
        <div className="table-body">
          <div className="col-left">
            <ShoePanel shoe={view.shoe} />
            <PlayersPanel view={view} />
            <p className="history-link">
              <a href={`#/tables/${tableId}/hands`}>{t('historyLink')}</a>
            </p>
            <EventLog log={feed.log} />
          </div>
          <MainColumn api={api} role={role} tableId={tableId} view={view} feed={feed} commands={commands} />
          <SideColumn token={token} tableId={tableId} view={view} feed={feed} />
        </div>
      )}
    </div>
  );
}
