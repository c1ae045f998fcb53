import type { Card } from '@coup/engine';
import type { TableView } from '@coup/table';
import { useState } from 'react';
import { type Api, ApiError } from '../api';
import type { FeedState } from '../feed';
import { useShortcut } from '../shortcuts';
import { useTableFeed } from '../useTableFeed';
import { CardEntry } from './CardEntry';
import { EdgeAlert, useEdgeMonitor } from './EdgeAlert';
import { LiveCountdown } from './Countdown';
import { NextCard } from './NextCard';
import { Roads } from '../roads/Roads';
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

interface Refusal {
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
function allowed(view: TableView, role: string) {
  const staff = role === 'dealer' || role === 'supervisor';
  const rules = view.rules;
  const live = rules?.dealing === 'live';
  const everyCoup = rules?.shuffle === 'every-coup';
  const p = view.phase;
  return {
    newShoe: staff && p === 'idle' && !everyCoup,
    open: staff && (p === 'ready' || (p === 'idle' && everyCoup)),
    close: staff && p === 'betting',
    deal: staff && p === 'dealing' && !live,
    card: staff && p === 'dealing' && live,
    void: role === 'supervisor' && (p === 'betting' || p === 'dealing'),
    live,
  };
}

function Banner({ feed }: { readonly feed: FeedState }) {
  if (feed.connection === 'reconnecting')
    return (
      <div className="banner banner-warn" role="alert">
        Connection lost. Reconnecting in {Math.round((feed.retryInMs ?? 0) / 100) / 10} s
        {feed.revision !== null && `, resuming after event #${feed.revision}`}. The table below may be out of
        date.
      </div>
    );
  if (feed.connection === 'failed')
    return (
      <div className="banner banner-error" role="alert">
        {feed.error?.code}: {feed.error?.message}
      </div>
    );
  if (feed.connection === 'connecting') return <div className="banner">Connecting...</div>;
  return null;
}

type Allowed = ReturnType<typeof allowed>;

function TableHeader({ tableId, view, feed }: { tableId: string; view: TableView | null; feed: FeedState }) {
  return (
    <header className="table-header">
      <h2>Table {tableId}</h2>
      {view && (
        <>
          <span className={`phase phase-${view.phase}`}>{view.phase}</span>
          <span>Round {view.roundNo}</span>
          {view.rules && <RulesSummary rules={view.rules} />}
          {view.phase === 'betting' && view.round?.deadline && (
            <LiveCountdown deadline={view.round.deadline} />
          )}
        </>
      )}
      <span className={`conn conn-${feed.connection}`}>{feed.connection}</span>
    </header>
  );
}

/** Commands with their pending state and the last refusal; the view is refreshed after each. */
function useRun(refresh: () => Promise<unknown>) {
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

type Run = ReturnType<typeof useRun>['run'];

function RefusalBox({ refusal, onDismiss }: { readonly refusal: Refusal; readonly onDismiss: () => void }) {
  return (
    <div className="refusal" role="alert">
      <strong>{refusal.action} refused</strong> <code>{refusal.code}</code> {refusal.message}
      <button type="button" className="link" onClick={onDismiss}>
        dismiss
      </button>
    </div>
  );
}

function ActionBar(props: {
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
  const { api, tableId, roundNo, can, ready, run } = props;
  return (
    <nav className="actions" aria-label="actions">
      <ActionButton label="New shoe" shortcut="n" enabled={ready && can.newShoe} onRun={props.onNewShoe} />
      <ActionButton
        label="Open betting"
        shortcut="o"
        enabled={ready && can.open}
        onRun={() => void run('Open betting', () => api.openBetting(tableId))}
      />
      <ActionButton
        label="No more bets"
        shortcut="m"
        enabled={ready && can.close}
        onRun={() => void run('No more bets', () => api.closeBetting(tableId, roundNo))}
      />
      <ActionButton
        label="Deal"
        shortcut="d"
        enabled={ready && can.deal}
        onRun={() => void run('Deal', () => api.deal(tableId, roundNo))}
      />
      {props.role === 'supervisor' && (
        <ActionButton label="Void round" shortcut="v" enabled={ready && can.void} onRun={props.onVoid} />
      )}
    </nav>
  );
}

/** A live shoe's turned card (and burn), asked before the shoe starts. */
function TurnedCardForm(props: {
  readonly onSubmit: (card: Card) => Promise<void>;
  readonly onCancel: () => void;
}) {
  return (
    <div className="inline-form">
      <CardEntry label="Turned card" showBurn autoFocus onSubmit={props.onSubmit} />
      <button type="button" className="link" onClick={props.onCancel}>
        cancel
      </button>
    </div>
  );
}

function VoidForm(props: {
  readonly roundNo: number;
  readonly reason: string;
  readonly onReason: (reason: string) => void;
  readonly onSubmit: () => void;
  readonly onCancel: () => void;
}) {
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <label htmlFor="void-reason">Void round {props.roundNo}: reason</label>
      <input
        id="void-reason"
        autoFocus
        value={props.reason}
        maxLength={200}
        onChange={(e) => props.onReason(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}
      />
      <button type="submit" disabled={!props.reason.trim()}>
        Void
      </button>
    </form>
  );
}

/** The roads, the link to the hand history, and the event log. */
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
      />
      <p className="history-link">
        <a href={`#/tables/${tableId}/hands`}>Hand history and replay</a>
      </p>
      <EventLog log={feed.log} />
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
    else void run('New shoe', () => api.startShoe(tableId));
  };
  const submitVoid = () => {
    if (!reason.trim()) return;
    setVoiding(false);
    void run('Void round', () => api.voidRound(tableId, roundNo, reason.trim()));
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
            return run('New shoe', () => api.startShoe(tableId, card));
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
      <Hands round={view.round} />
      <Result round={view.round} />
      {/* a player-dealt table opens the next round with the deal: its last coup is shown beside */}
      {view.rules?.dealtBy === 'player' && !view.round?.result && <LastCoup result={view.lastResult} />}
      <BetsPanel round={view.round} />
    </div>
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
  const { api, tableId, view, can, roundNo, run } = props;
  if (!(view.round?.next && view.round.status === 'dealing' && can.live)) return null;
  const dealCard = (card: Card) => run(`Card ${card}`, () => api.dealCard(tableId, roundNo, card));
  return (
    <div className="dealing">
      <NextCard next={view.round.next} />
      <CardEntry
        label="Enter card"
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
  const edge = useEdgeMonitor(token, tableId, view?.shoe ?? null);
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
          </div>
          <MainColumn api={api} role={role} tableId={tableId} view={view} feed={feed} commands={commands} />
          <SideColumn token={token} tableId={tableId} view={view} feed={feed} />
        </div>
      )}
    </div>
  );
}
