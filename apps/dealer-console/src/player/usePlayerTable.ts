/**
 * The player page's table state: the personal table opened (or resumed) on entry, the service's latest view, the
 * coup revealed card by card, the history and the ledger's totals, and the actions with their pending (busy) and
 * refusal states. Every action is one service command, run one at a time in the order they were clicked; the page
 * shows the service's view after it (and the service's refusal when one comes).
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoupSummary, Spot, SpotAmounts, TableEvent, TableView } from '@coup/table';
import type { ApiError } from '../api';
import type { Translate } from '../bets';
import { money } from '../format';
import { NO_BETS, canDeal, stopReason, totalBet } from './betting';
import { dealingOrder, settlementLine } from './dealing';
import { historyOf, type HistoryEntry } from './history';
import type { LedgerAccount, OpenAnswer, PlayerApi } from './playerApi';
import { shownAfter, useAmendments } from './useAmendments';
import type { Sound } from './useSound';

/** A coup on the felt: revealed up to `count` cards. `fresh`: dealt now (animated), else the last one on load. */
export interface Shown {
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
  /**
   * The table as it was before this coup was dealt, shown while its cards are revealed: the view after the deal has
   * the settlement in it already (chips paid, stakes gone), which must not show before the cards do.
   */
  readonly before?: TableView | null;
}

export interface Refusal {
  readonly code: string;
  readonly message: string;
  /** The page's own reason, already in the reader's language (else the service's message, shown by its code). */
  readonly local?: boolean;
}

export interface PlayerTableOptions {
  readonly api: PlayerApi;
  readonly playerId: string;
  /** The table's events as this player sees them (for the history). */
  readonly loadHistory: (tableId: string) => Promise<readonly TableEvent[]>;
  /** Milliseconds between dealt cards. */
  readonly revealMs: number;
  readonly sound: Sound;
}

/** The player's stakes on the layout while betting is open. */
const mineOf = (view: TableView | null, playerId: string): SpotAmounts => {
  const p =
    view?.round?.status === 'betting' ? view.round.bets.players.find((x) => x.playerId === playerId) : null;
  if (!p) return NO_BETS;
  const { playerId: _, ...bets } = p;
  return bets;
};

/** Whether a coup is being revealed: dealt now, and not all its cards shown yet. */
const revealing = (shown: Shown | null): shown is Shown =>
  shown !== null && shown.fresh && shown.count < dealingOrder(shown.coup).length;

/** What the page derives from the view: the player's seat, chips and stakes, and whether bets are taken now. */
function derive(view: TableView | null, playerId: string, shown: Shown | null) {
  const me = view?.players.find((p) => p.playerId === playerId) ?? null;
  const bets = mineOf(view, playerId);
  const dealing = revealing(shown);
  const betting = view?.round?.status === 'betting' && me !== null;
  return {
    rules: view?.rules ?? null,
    me,
    balance: me?.chips ?? 0,
    bets,
    total: totalBet(bets),
    dealing,
    betting,
    /** Bet fields take clicks whenever betting is open: clicks queue and run one after another. */
    locked: dealing || !betting,
  };
}

/** What a queued command sees: the latest view, the player's stakes and chips in it (null unless betting). */
function bettingNow(v: TableView | null, playerId: string) {
  if (!v?.rules || v.round?.status !== 'betting') return null;
  const mine = v.players.find((p) => p.playerId === playerId);
  if (!mine) return null;
  return { v, rules: v.rules, bets: mineOf(v, playerId), balance: mine.chips };
}

/** The history of the player's hands and the ledger's totals for the table, read again after each coup. */
function useHistory(api: PlayerApi, loadHistory: PlayerTableOptions['loadHistory'], playerId: string) {
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [account, setAccount] = useState<LedgerAccount | null>(null);
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
  return { history, historyError, account, refreshHistory };
}

/** The service's latest view: state to render, and a ref for queued commands (a render may not have happened yet). */
function useLatestView() {
  const [view, setView] = useState<TableView | null>(null);
  const latest = useRef<TableView | null>(null);
  const show = useCallback((next: TableView) => {
    latest.current = next;
    setView(next);
  }, []);
  return { view, latest, show };
}

/** Commands, one at a time in click order; each shows the service's view after it, and its refusal (never thrown). */
function useCommands(api: PlayerApi, tableId: string | null, show: (view: TableView) => void) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const enqueue = (op: () => Promise<unknown>) => {
    chain.current = chain.current.then(op).catch(() => undefined);
  };
  const run = useCallback(
    async <T>(command: () => Promise<T>, onAnswer?: (answer: T) => void): Promise<T | null> => {
      if (!tableId) return null;
      setBusy(true);
      setRefusal(null);
      setNotice(null);
      try {
        const answer = await command();
        const next = await api.view(tableId);
        onAnswer?.(answer); // rendered together with the new view
        show(next);
        return answer;
      } catch (error) {
        const e = error as ApiError;
        setRefusal({ code: e.code ?? 'ERROR', message: e.message });
        await api.view(tableId).then(show, () => undefined); // else keep the last view
        return null;
      } finally {
        setBusy(false);
      }
    },
    [api, tableId, show],
  );
  return { busy, refusal, setRefusal, notice, setNotice, enqueue, run };
}

/** Entry: open (or resume) the personal table with betting open. Returns the error when it cannot be opened. */
function useOpenTable(api: PlayerApi, opened: (answer: OpenAnswer) => void): string | null {
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // One retry: two opens racing on a brand-new table (React's dev double effects) may refuse the second.
    const retry = () => new Promise((r) => setTimeout(r, 300)).then(() => api.open());
    api
      .open()
      .catch(retry)
      .then(
        (answer) => live && opened(answer),
        (e: ApiError) => live && setLoadError(`${e.code}: ${e.message}`),
      );
    return () => {
      live = false;
    };
  }, [api, opened]);
  return loadError;
}

/**
 * The deal, card by card, with the card sounds; after the last card, the result's sound and `onShown` (what follows
 * the settlement: the history and the ledger are read again).
 */
function useReveal(
  shown: Shown | null,
  setShown: (update: (s: Shown | null) => Shown | null) => void,
  revealMs: number,
  sound: Sound,
  onShown: () => void,
) {
  const shownDone = useRef(onShown);
  shownDone.current = onShown;
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
        shownDone.current();
      }
    }, revealMs);
    return () => clearTimeout(timer);
  }, [shown, setShown, revealMs, sound]);
}

/** What the actions work with. */
interface ActionContext extends ReturnType<typeof useCommands> {
  readonly api: PlayerApi;
  readonly playerId: string;
  readonly tableId: string | null;
  readonly locked: boolean;
  readonly latest: RefObject<TableView | null>;
  readonly sound: Sound;
  readonly setShown: (shown: Shown | null) => void;
  readonly t: Translate;
}

/** Bets, clear, rebet and deal: ignored while the layout is locked, queued, and checked again against the latest view. */
function bettingActions(c: ActionContext) {
  const now = () => bettingNow(c.latest.current, c.playerId);
  return {
    placeBet(spot: Spot, chip: number | null) {
      if (c.locked || chip === null) return;
      c.enqueue(async () => {
        const at = now();
        if (!at) return;
        const reason = stopReason(at.rules, at.bets, at.balance, spot, chip, c.t);
        if (reason) {
          c.setRefusal({ code: 'BET_LIMIT', message: reason, local: true });
          return;
        }
        c.sound.play('chip');
        await c.run(() => c.api.bet(at.v.tableId ?? '', at.v.roundNo, c.playerId, spot, chip));
      });
    },
    clear() {
      if (c.locked) return;
      c.enqueue(async () => {
        const at = now();
        if (!at || totalBet(at.bets) === 0) return;
        await c.run(() => c.api.clear(at.v.tableId ?? '', at.v.roundNo, c.playerId));
      });
    },
    rebet() {
      if (c.locked) return;
      c.enqueue(async () => {
        const at = now();
        if (!at) return;
        c.sound.play('chip');
        await c.run(() => c.api.rebet(at.v.tableId ?? '', at.v.roundNo, c.playerId));
      });
    },
    deal() {
      if (c.locked) return;
      c.enqueue(async () => {
        const at = now();
        if (!at || !canDeal(at.rules, at.bets)) return;
        // The table after the deal (settled) comes in with the answer: the one before it shows until the cards do.
        await c.run(
          () => c.api.deal(at.v.tableId ?? '', at.v.roundNo),
          (coup) => c.setShown({ coup, count: 0, fresh: true, before: c.latest.current }),
        );
      });
    },
  };
}

/** Exit (a cash-out) and buy-in. */
function seatActions(c: ActionContext) {
  const { tableId } = c;
  return {
    exit() {
      if (!tableId) return;
      c.enqueue(async () => {
        const answer = await c.run(() => c.api.exit(tableId));
        if (answer) {
          c.setNotice(c.t('player:left', { amount: money(answer.paid ?? 0) }));
          c.setShown(null);
        }
      });
    },
    /** Buys `amount` (whole dollars, as typed) in. */
    buyIn(amount: string) {
      const dollars = Number(amount);
      if (!Number.isInteger(dollars) || dollars <= 0) {
        c.setRefusal({ code: 'INVALID_AMOUNT', message: c.t('player:buyIn.invalid'), local: true });
        return;
      }
      if (tableId) c.enqueue(() => c.run(() => c.api.buyIn(tableId, dollars * 100)));
    },
  };
}

export type PlayerActions = ReturnType<typeof bettingActions> & ReturnType<typeof seatActions>;

export function usePlayerTable({ api, playerId, loadHistory, revealMs, sound }: PlayerTableOptions) {
  const { t } = useTranslation('player');
  const [tableId, setTableId] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const { view, latest, show } = useLatestView();
  const { refreshHistory, ...record } = useHistory(api, loadHistory, playerId);
  const commands = useCommands(api, tableId, show);
  const opened = useCallback(
    (answer: OpenAnswer) => {
      setTableId(answer.tableId);
      show(answer.view);
      // The last coup, shown whole (a reload mid-deal lands here).
      const last = answer.view.lastResult;
      if (last) setShown({ coup: last, count: dealingOrder(last).length, fresh: false });
      refreshHistory(answer.tableId);
    },
    [show, refreshHistory],
  );
  const loadError = useOpenTable(api, opened);
  useReveal(shown, setShown, revealMs, sound, () => {
    if (tableId) refreshHistory(tableId);
  });
  useAmendments(
    api,
    tableId,
    (roundNo, next) => {
      show(next);
      setShown((s) => shownAfter(s, roundNo, next));
    },
    refreshHistory,
  );
  // While a coup's cards are revealed, the table as it was before the deal (see Shown.before).
  const shownView = revealing(shown) && shown.before ? shown.before : view;
  const derived = derive(shownView, playerId, shown);
  const c: ActionContext = {
    ...commands,
    api,
    playerId,
    tableId,
    locked: derived.locked,
    latest,
    sound,
    setShown,
    t,
  };
  const actions: PlayerActions = { ...bettingActions(c), ...seatActions(c) };
  const { busy, refusal, notice } = commands;
  return {
    tableId,
    view: shownView,
    shown,
    loadError,
    busy,
    refusal,
    notice,
    ...record,
    ...derived,
    actions,
  };
}
