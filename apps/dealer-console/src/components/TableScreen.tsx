import type { Card } from '@coup/engine';
import type { TableView } from '@coup/table';
import { useState } from 'react';
import { type Api, ApiError } from '../api';
import type { FeedState } from '../feed';
import { useShortcut } from '../shortcuts';
import { useTableFeed } from '../useTableFeed';
import { CardEntry } from './CardEntry';
import { LiveCountdown } from './Countdown';
import { NextCard } from './NextCard';
import { Roads } from '../roads/Roads';
import { BetsPanel, EventLog, Hands, PlayersPanel, Result, ShoePanel } from './TableParts';

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

/** One table, live: what the dealer sees and the actions they take. */
export function TableScreen(props: {
  readonly api: Api;
  readonly token: string;
  readonly role: string;
  readonly tableId: string;
}) {
  const { api, token, role, tableId } = props;
  const { state: feed, refresh } = useTableFeed(api, token, tableId);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [turning, setTurning] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const [reason, setReason] = useState('');
  const view = feed.view;

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

  const can = view
    ? allowed(view, role)
    : { newShoe: false, open: false, close: false, deal: false, card: false, void: false, live: false };
  const roundNo = view?.round?.roundNo ?? view?.roundNo ?? 0;
  const ready = !busy && feed.connection === 'live';

  const newShoe = () => {
    if (can.live) setTurning(true);
    else void run('New shoe', () => api.startShoe(tableId));
  };
  const dealCard = (card: Card) => run(`Card ${card}`, () => api.dealCard(tableId, roundNo, card));
  const submitVoid = () => {
    if (!reason.trim()) return;
    setVoiding(false);
    void run('Void round', () => api.voidRound(tableId, roundNo, reason.trim()));
    setReason('');
  };

  return (
    <div className="table-screen">
      <header className="table-header">
        <h2>Table {tableId}</h2>
        {view && (
          <>
            <span className={`phase phase-${view.phase}`}>{view.phase}</span>
            <span>Round {view.roundNo}</span>
            {view.rules && (
              <span className="muted">
                {view.rules.dealing}, {view.rules.decks} decks, commission {view.rules.commission}, tie{' '}
                {view.rules.tiePays}:1
              </span>
            )}
            {view.phase === 'betting' && view.round?.deadline && (
              <LiveCountdown deadline={view.round.deadline} />
            )}
          </>
        )}
        <span className={`conn conn-${feed.connection}`}>{feed.connection}</span>
      </header>
      <Banner feed={feed} />
      {view && (
        <div className="table-body">
          <div className="col-left">
            <ShoePanel shoe={view.shoe} />
            <PlayersPanel view={view} />
          </div>
          <div className="col-main">
            {refusal && (
              <div className="refusal" role="alert">
                <strong>{refusal.action} refused</strong> <code>{refusal.code}</code> {refusal.message}
                <button type="button" className="link" onClick={() => setRefusal(null)}>
                  dismiss
                </button>
              </div>
            )}
            <nav className="actions" aria-label="actions">
              <ActionButton label="New shoe" shortcut="n" enabled={ready && can.newShoe} onRun={newShoe} />
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
              {role === 'supervisor' && (
                <ActionButton
                  label="Void round"
                  shortcut="v"
                  enabled={ready && can.void}
                  onRun={() => setVoiding(true)}
                />
              )}
            </nav>
            {turning && can.newShoe && (
              <div className="inline-form">
                <CardEntry
                  label="Turned card"
                  showBurn
                  autoFocus
                  onSubmit={(card) => {
                    setTurning(false);
                    return run('New shoe', () => api.startShoe(tableId, card));
                  }}
                />
                <button type="button" className="link" onClick={() => setTurning(false)}>
                  cancel
                </button>
              </div>
            )}
            {voiding && can.void && (
              <form
                className="inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  submitVoid();
                }}
              >
                <label htmlFor="void-reason">Void round {roundNo}: reason</label>
                <input
                  id="void-reason"
                  autoFocus
                  value={reason}
                  maxLength={200}
                  onChange={(e) => setReason(e.target.value)}
                  onKeyDown={(e) => e.key === 'Escape' && setVoiding(false)}
                />
                <button type="submit" disabled={!reason.trim()}>
                  Void
                </button>
              </form>
            )}
            {view.round?.next && view.round.status === 'dealing' && can.live && (
              <div className="dealing">
                <NextCard next={view.round.next} />
                <CardEntry
                  label="Enter card"
                  shortcut="e"
                  captureRanks
                  autoFocus
                  disabled={!can.card || feed.connection !== 'live'}
                  onSubmit={dealCard}
                />
              </div>
            )}
            <Hands round={view.round} />
            <Result round={view.round} />
            <BetsPanel round={view.round} />
          </div>
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
        </div>
      )}
    </div>
  );
}
