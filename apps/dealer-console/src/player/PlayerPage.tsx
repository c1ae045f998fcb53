/**
 * The online single-player game (rules text 000) on the player's personal table: chips stacked by denomination,
 * bet fields, CLEAR BET / REBET (key 0) / DEAL, the coup dealt card by card, sound, help, exit, and the history with
 * the shuffle commitments checked against the revealed seeds. Every action is one service command; the page shows
 * the service's view after it (and the service's refusal when one comes).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CoupSummary, Spot, SpotAmounts, TableEvent, TableView } from '@coup/table';
import { ApiError } from '../api';
import { money, outcomeLabel } from '../format';
import { isTyping } from '../shortcuts';
import { PlayingCard } from '../components/TableParts';
import {
  BET_SPOTS,
  NO_BETS,
  SPOT_LABEL,
  canDeal,
  chipStacks,
  dealHint,
  stopReason,
  totalBet,
} from './betting';
import { dealingOrder, settlementLine, shownTotal } from './dealing';
import { historyOf, type HistoryEntry } from './history';
import type { LedgerAccount, PlayerApi } from './playerApi';
import { loadSoundOn, saveSoundOn, soundPlayer, type AudioLike } from './sound';
import { HelpPanel } from './HelpPanel';
import { History } from './History';

/** A coup on the felt: revealed up to `count` cards. `fresh`: dealt now (animated), else the last one on load. */
interface Shown {
  readonly coup: Pick<
    CoupSummary,
    | 'roundNo'
    | 'playerCards'
    | 'bankerCards'
    | 'playerTotal'
    | 'bankerTotal'
    | 'outcome'
    | 'natural'
    | 'settlements'
  >;
  readonly count: number;
  readonly fresh: boolean;
}

export interface PlayerPageProps {
  readonly api: PlayerApi;
  readonly playerId: string;
  /** The table's events as this player sees them (for the history). */
  readonly loadHistory: (tableId: string) => Promise<readonly TableEvent[]>;
  /** Milliseconds between dealt cards. */
  readonly revealMs?: number;
  readonly storage?: Storage | null;
  readonly audio?: () => AudioLike | null;
}

const mineOf = (view: TableView | null, playerId: string): SpotAmounts => {
  const p =
    view?.round?.status === 'betting' ? view.round.bets.players.find((x) => x.playerId === playerId) : null;
  return p ? { player: p.player, banker: p.banker, tie: p.tie } : NO_BETS;
};

export function PlayerPage({
  api,
  playerId,
  loadHistory,
  revealMs = 450,
  storage = null,
  audio,
}: PlayerPageProps) {
  const [tableId, setTableId] = useState<string | null>(null);
  const [view, setView] = useState<TableView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ code: string; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [chosen, setChip] = useState<number | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [soundOn, setSoundOn] = useState(() => loadSoundOn(storage));
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [account, setAccount] = useState<LedgerAccount | null>(null);
  const [buyIn, setBuyIn] = useState('1000');

  const soundRef = useRef(soundOn);
  soundRef.current = soundOn;
  const sound = useMemo(() => soundPlayer(() => soundRef.current, audio), [audio]);

  const rules = view?.rules ?? null;
  /** The selected chip: the smallest until one is chosen. */
  const chip = chosen ?? rules?.chips[0] ?? null;
  const me = view?.players.find((p) => p.playerId === playerId) ?? null;
  const balance = me?.chips ?? 0;
  const bets = mineOf(view, playerId);
  const total = totalBet(bets);
  const dealing = shown !== null && shown.count < dealingOrder(shown.coup).length;
  const betting = view?.round?.status === 'betting' && me !== null;
  /** Bet fields take clicks whenever betting is open: clicks queue and run one after another. */
  const locked = dealing || !betting;

  /** The newest view from the service, for queued commands (a render may not have happened yet). */
  const latest = useRef<TableView | null>(null);
  /** Commands run one at a time, in the order they were clicked. */
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const enqueue = (op: () => Promise<unknown>) => {
    chain.current = chain.current.then(op).catch(() => undefined);
  };

  const refreshHistory = useCallback(
    (id: string) => {
      loadHistory(id).then(
        (events) => {
          setHistory(historyOf(events, playerId));
          setHistoryError(null);
        },
        (e: Error) => setHistoryError(e.message),
      );
      api.ledger(playerId, id).then(
        (l) => setAccount(l.accounts.find((a) => a.tableId === id) ?? null),
        () => setAccount(null), // the summary is optional: the history above stands without it
      );
    },
    [api, loadHistory, playerId],
  );

  // Entry: open (or resume) the personal table with betting open; show the last coup (a reload mid-deal lands here).
  useEffect(() => {
    let live = true;
    // One retry: two opens racing on a brand-new table (React's dev double effects) may refuse the second.
    const retry = () => new Promise((r) => setTimeout(r, 300)).then(() => api.open());
    api
      .open()
      .catch(retry)
      .then(
        (answer) => {
          if (!live) return;
          setTableId(answer.tableId);
          latest.current = answer.view;
          setView(answer.view);
          const last = answer.view.lastResult;
          if (last) setShown({ coup: last, count: dealingOrder(last).length, fresh: false });
          refreshHistory(answer.tableId);
        },
        (e: ApiError) => live && setLoadError(`${e.code}: ${e.message}`),
      );
    return () => {
      live = false;
    };
  }, [api, refreshHistory]);

  // The deal, card by card.
  useEffect(() => {
    if (!shown || !shown.fresh) return undefined;
    const order = dealingOrder(shown.coup);
    if (shown.count >= order.length) return undefined;
    const timer = setTimeout(() => {
      setShown((s) => (s ? { ...s, count: s.count + 1 } : s));
      sound.play('card');
      if (shown.count + 1 === order.length) {
        const net = shown.coup.settlements.reduce((n, s) => n + settlementLine(s).net, 0);
        const pushed = shown.coup.settlements.every((s) => s.result === 'push');
        setTimeout(() => sound.play(pushed ? 'push' : net >= 0 ? 'win' : 'lose'), 120);
      }
    }, revealMs);
    return () => clearTimeout(timer);
  }, [shown, revealMs, sound]);

  /** Runs one command, then shows the service's view; a refusal is shown, never thrown. */
  const run = useCallback(
    async <T,>(command: () => Promise<T>, onAnswer?: (answer: T) => void): Promise<T | null> => {
      if (!tableId) return null;
      setBusy(true);
      setRefusal(null);
      setNotice(null);
      try {
        const answer = await command();
        const next = await api.view(tableId);
        onAnswer?.(answer); // rendered together with the new view
        latest.current = next;
        setView(next);
        return answer;
      } catch (error) {
        const e = error as ApiError;
        setRefusal({ code: e.code ?? 'ERROR', message: e.message });
        try {
          const next = await api.view(tableId);
          latest.current = next;
          setView(next);
        } catch {
          // keep the last view
        }
        return null;
      } finally {
        setBusy(false);
      }
    },
    [api, tableId],
  );

  /** What a queued command sees: the latest view, the player's stakes and chips in it. */
  const now = () => {
    const v = latest.current;
    if (!v?.rules || v.round?.status !== 'betting') return null;
    const mine = v.players.find((p) => p.playerId === playerId);
    if (!mine) return null;
    return { v, rules: v.rules, bets: mineOf(v, playerId), balance: mine.chips };
  };

  const placeBet = (spot: Spot) => {
    if (locked || chip === null) return;
    const c = chip;
    enqueue(async () => {
      const at = now();
      if (!at) return;
      const reason = stopReason(at.rules, at.bets, at.balance, spot, c);
      if (reason) {
        setRefusal({ code: 'BET_LIMIT', message: reason });
        return;
      }
      sound.play('chip');
      await run(() => api.bet(at.v.tableId ?? '', at.v.roundNo, playerId, spot, c));
    });
  };

  const clear = () => {
    if (locked) return;
    enqueue(async () => {
      const at = now();
      if (!at || totalBet(at.bets) === 0) return;
      await run(() => api.clear(at.v.tableId ?? '', at.v.roundNo, playerId));
    });
  };

  const rebet = () => {
    if (locked) return;
    enqueue(async () => {
      const at = now();
      if (!at) return;
      sound.play('chip');
      await run(() => api.rebet(at.v.tableId ?? '', at.v.roundNo, playerId));
    });
  };

  const deal = () => {
    if (locked) return;
    enqueue(async () => {
      const at = now();
      if (!at || !canDeal(at.rules, at.bets)) return;
      const answer = await run(
        () => api.deal(at.v.tableId ?? '', at.v.roundNo),
        (coup) => setShown({ coup, count: 0, fresh: true }),
      );
      if (answer && tableId) refreshHistory(tableId);
    });
  };

  const exit = () => {
    if (!tableId) return;
    enqueue(async () => {
      const answer = await run(() => api.exit(tableId));
      if (answer) {
        setNotice(`You left the table: ${money(answer.paid ?? 0)} cashed out. Buy in to play again.`);
        setShown(null);
      }
    });
  };

  const submitBuyIn = () => {
    const dollars = Number(buyIn);
    if (!Number.isInteger(dollars) || dollars <= 0) {
      setRefusal({ code: 'INVALID_AMOUNT', message: 'Buy in a whole number of dollars, at least $1' });
      return;
    }
    if (tableId) enqueue(() => run(() => api.buyIn(tableId, dollars * 100)));
  };

  const toggleSound = () => {
    setSoundOn((on) => {
      saveSoundOn(storage, !on);
      return !on;
    });
  };

  // Keyboard: 0 rebet, 1-5 chips, P B T bet fields, C clear, D deal, S sound, ? help, Escape closes help.
  const keys = useRef<(e: KeyboardEvent) => void>(() => undefined);
  keys.current = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.altKey || e.metaKey || e.repeat || isTyping(e.target)) return;
    const k = e.key.toLowerCase();
    const chipIndex = '12345'.indexOf(k);
    let handled = true;
    if (k === '0') rebet();
    else if (chipIndex >= 0 && rules && rules.chips[chipIndex] !== undefined)
      setChip(rules.chips[chipIndex] ?? null);
    else if (k === 'p') placeBet('player');
    else if (k === 'b') placeBet('banker');
    else if (k === 't') placeBet('tie');
    else if (k === 'c') clear();
    else if (k === 'd') deal();
    else if (k === 's') toggleSound();
    else if (k === '?' || k === 'h') setHelpOpen((o) => !o);
    else if (k === 'escape') setHelpOpen(false);
    else handled = false;
    if (handled) e.preventDefault();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => keys.current(e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (loadError) {
    return (
      <p role="alert" className="banner banner-error">
        Your table could not be opened: {loadError}
      </p>
    );
  }
  if (!view || !rules || !tableId) return <p className="muted">Opening your table…</p>;

  const order = shown ? dealingOrder(shown.coup) : [];
  const visible = shown ? order.slice(0, shown.count) : [];
  const complete = shown !== null && shown.count >= order.length;
  const hint = dealHint(rules, bets);
  const { stacks, rest } = chipStacks(balance, rules.chips);

  return (
    <div className="player-page">
      <div className="player-toolbar">
        <h2>Baccarat</h2>
        <span className="player-balance" aria-label="balance">
          Balance <strong>{money(balance)}</strong>
        </span>
        <button
          type="button"
          className={`sound-toggle ${soundOn ? 'sound-on' : 'sound-off'}`}
          aria-pressed={soundOn}
          aria-label={soundOn ? 'Sound on' : 'Sound off'}
          title="Sound (S)"
          onClick={toggleSound}
        >
          ♪ {soundOn ? 'on' : 'off'}
        </button>
        <button type="button" onClick={exit}>
          Exit game
        </button>
        <button
          type="button"
          className="help-button"
          aria-label="Help"
          aria-expanded={helpOpen}
          title="Help (?)"
          onClick={() => setHelpOpen((o) => !o)}
        >
          ?
        </button>
      </div>

      {notice && (
        <p role="status" className="banner">
          {notice}
        </p>
      )}
      {refusal && (
        <div role="alert" className="refusal player-refusal" data-code={refusal.code}>
          {refusal.message}
          {refusal.code === 'COUP_INCOMPLETE' && (
            <span className="refusal-actions">
              {' '}
              <button type="button" onClick={() => deal()} disabled={locked || !canDeal(rules, bets)}>
                DEAL
              </button>{' '}
              <button type="button" onClick={clear} disabled={locked || total === 0}>
                CLEAR BET
              </button>
            </span>
          )}
        </div>
      )}

      {me === null ? (
        <form
          className="panel buy-in"
          onSubmit={(e) => {
            e.preventDefault();
            submitBuyIn();
          }}
        >
          <h3>Buy chips</h3>
          <label htmlFor="buy-in-amount">Amount in dollars</label>{' '}
          <input
            id="buy-in-amount"
            inputMode="numeric"
            value={buyIn}
            onChange={(e) => setBuyIn(e.target.value)}
            size={8}
          />{' '}
          <button type="submit" disabled={busy}>
            Buy in
          </button>
        </form>
      ) : (
        <div className="player-main">
          <section className="felt" aria-label="table">
            <div className="felt-hands">
              {(['player', 'banker'] as const).map((side) => {
                const cards = visible.filter((c) => c.to === side);
                const t = shownTotal(visible, side);
                const won = complete && shown?.coup.outcome === side;
                return (
                  <section
                    key={side}
                    className={`felt-hand hand-${side}${won ? ' won' : ''}`}
                    aria-label={`${side} hand`}
                  >
                    <h3>
                      {side === 'player' ? 'Player' : 'Banker'}{' '}
                      {t !== null && (
                        <span className="total" aria-label={`${side} total`}>
                          {t}
                        </span>
                      )}
                    </h3>
                    <div className="cards" data-testid={`${side}-cards`}>
                      {cards.map((c) => (
                        <PlayingCard key={c.order} card={c.card} order={c.order} />
                      ))}
                    </div>
                  </section>
                );
              })}
            </div>
            <div className="felt-result" aria-live="polite">
              {shown && complete && (
                <div className={`coup-result outcome-${shown.coup.outcome}`} data-testid="coup-result">
                  <p className="result-line">
                    <strong>{outcomeLabel(shown.coup.outcome)}</strong> {shown.coup.playerTotal} to{' '}
                    {shown.coup.bankerTotal}
                    {shown.coup.natural ? ' (natural)' : ''}
                    {!shown.fresh && <span className="muted"> · last coup, round {shown.coup.roundNo}</span>}
                  </p>
                  <ul className="settlements">
                    {shown.coup.settlements.map((s) => {
                      const line = settlementLine(s);
                      return (
                        <li key={s.spot} className={`settle-${s.result}`}>
                          {SPOT_LABEL[s.spot]} {money(s.amount)} {line.words}{' '}
                          <strong>
                            {line.net > 0 ? '+' : ''}
                            {money(line.net)}
                          </strong>
                          {s.commission > 0 && <span> (5% commission {money(s.commission)} taken)</span>}
                        </li>
                      );
                    })}
                  </ul>
                </div>
              )}
              {dealing && <p className="muted">Dealing…</p>}
            </div>
            <div className="bet-fields">
              {BET_SPOTS.map((spot) => (
                <button
                  key={spot}
                  type="button"
                  className={`bet-field bet-${spot}`}
                  aria-label={`Bet on ${SPOT_LABEL[spot]}: ${money(bets[spot])}`}
                  disabled={locked}
                  onClick={() => placeBet(spot)}
                >
                  <span className="bet-name">{SPOT_LABEL[spot]}</span>
                  <span className="bet-pays">
                    {spot === 'tie'
                      ? `pays ${rules.tiePays}:1`
                      : spot === 'banker'
                        ? 'pays 1:1 less 5%'
                        : 'pays 1:1'}
                  </span>
                  <span className="bet-amount">{bets[spot] > 0 ? money(bets[spot]) : '\u00a0'}</span>
                  <span className="bet-limits muted">
                    {money(rules.limits[spot].min)}–{money(rules.limits[spot].max)}
                  </span>
                </button>
              ))}
            </div>
            <p className="total-bet" data-testid="total-bet">
              Total bet: <strong>{money(total)}</strong>
            </p>
            <div className="actions">
              <button type="button" onClick={clear} disabled={locked || total === 0}>
                CLEAR BET
              </button>
              <button type="button" onClick={rebet} disabled={locked} title="Repeat your last bet (key 0)">
                REBET <kbd>0</kbd>
              </button>
              <button
                type="button"
                className="deal-button"
                onClick={() => deal()}
                disabled={locked || !canDeal(rules, bets)}
                title={hint ?? 'Deal the coup (D)'}
              >
                DEAL
              </button>
              {hint && betting && !dealing && <span className="muted">{hint}</span>}
            </div>
            {view.shoe?.commitment && (
              <p className="commitment muted">
                This coup&apos;s shuffle is committed: sha256 <code>{view.shoe.commitment}</code>; the seed is
                revealed after the deal (see your history).
              </p>
            )}
          </section>
          <aside className="chip-rack" aria-label="your chips">
            <h3>Your chips</h3>
            {stacks.map(({ chip: c, count }) => (
              <button
                key={c}
                type="button"
                className={`chip chip-${c}${chip === c ? ' selected' : ''}`}
                aria-pressed={chip === c}
                aria-label={`${money(c)} chip`}
                onClick={() => setChip(c)}
              >
                <span className="chip-face">{money(c)}</span>
                <span className="chip-stack" aria-hidden="true">
                  {Array.from({ length: Math.min(count, 10) }, (_, i) => (
                    <span key={i} className="chip-disc" />
                  ))}
                </span>
                <span className="chip-count">×{count}</span>
              </button>
            ))}
            {rest > 0 && <p className="muted">and {money(rest)} in change</p>}
            <p className="muted">Selected: {chip === null ? 'none' : money(chip)}</p>
          </aside>
        </div>
      )}

      {helpOpen && <HelpPanel rules={rules} onClose={() => setHelpOpen(false)} />}

      <History tableId={tableId} entries={history} error={historyError} account={account} />
    </div>
  );
}
