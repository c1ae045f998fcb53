/**
 * The live table over the service's WebSocket (`/ws?token=`), kept true to the table:
 *
 * - Subscribing with no revision gets `{ type: 'view', revision, view }`: the table as it stands.
 * - Every later `{ type: 'event', revision }` moves the last revision seen, and the view is re-read from
 *   `GET /api/tables/:id` (debounced, so a burst of events costs one read; a stale answer never overwrites a newer
 *   one). The console never folds a guess into the view: the service's view is the truth.
 * - Other players' bets come coalesced (the default stream): `{ type: 'bets', revision, roundNo, totals, bettors }`
 *   at most a few times a second, the round's totals as the service has them at that revision. They go into the
 *   view at once (they are the service's figures, not a guess), and the view is re-read as after an event (a
 *   staff console shows each player's stakes too).
 * - A dropped socket reconnects with backoff and subscribes with `fromRevision` = the last revision seen: the
 *   service sends exactly the missed events (no gap, no duplicate; any event at or below it is ignored anyway),
 *   then `resumed`, and the view is re-read once.
 *
 * Plain TypeScript with injected socket, timers and fetch, so it is tested without a browser; `useTableFeed` wraps it.
 */
import type { CoupSummary, SpotAmounts, TableEvent, TableView } from '@coup/table';

/** Where the socket stands. `failed`: the service refused us (bad token, no such table): no retry. */
export type Connection = 'connecting' | 'live' | 'reconnecting' | 'failed';

/** A line of the event log shown on screen. */
export interface LoggedEvent {
  readonly revision: number;
  readonly type: TableEvent['type'];
  readonly at: string;
}

/** A coup seen resolved in the current shoe (for the roads). */
export type RoadEntry = Pick<CoupSummary, 'roundNo' | 'outcome' | 'natural' | 'playerTotal' | 'bankerTotal'>;

export interface FeedState {
  readonly connection: Connection;
  readonly view: TableView | null;
  /** Revision of the last event seen (or of the view at subscribe); null before the first. */
  readonly revision: number | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  /** Milliseconds until the next reconnect attempt while `reconnecting`. */
  readonly retryInMs: number | null;
  /** The latest events, newest first (at most {@link LOG_SIZE}). */
  readonly log: readonly LoggedEvent[];
  /**
   * Coups resolved in the current shoe since this console subscribed, in round order, each as last corrected (a
   * settled coup's correction replaces its entry; one voided after it settled leaves).
   */
  readonly road: readonly RoadEntry[];
  /** Rounds of the current shoe voided after they settled, seen live: off the road whatever the read model says. */
  readonly roadVoided: readonly number[];
  /** Corrections and voids of settled coups seen (any shoe): each is a reason to read the roads again. */
  readonly amendments: number;
  /** When the current shoe's last settled coup correction or void was made (its event's `at`), else null. */
  readonly amendedAt: string | null;
}

export const LOG_SIZE = 40;

/** The slice of the browser WebSocket the feed uses. */
export type SocketLike = Pick<WebSocket, 'onopen' | 'onmessage' | 'onclose' | 'onerror' | 'send' | 'close'>;

export interface FeedDeps {
  readonly tableId: string;
  readonly token: string;
  /** Opens a socket to the given URL. */
  readonly connect: (url: string) => SocketLike;
  /** The socket URL for a token, e.g. `ws://host/ws?token=...`. */
  readonly url: (token: string) => string;
  /** Reads the view from the REST API. */
  readonly readView: (tableId: string) => Promise<TableView>;
  readonly setTimer: (fn: () => void, ms: number) => unknown;
  readonly clearTimer: (handle: unknown) => void;
  /** Debounce for view re-reads after events, ms. */
  readonly debounceMs?: number;
}

/** Reconnect delay after `attempt` failures: 0.5 s doubling to 10 s. */
export function backoffMs(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** attempt);
}

type ServerMessage =
  | { type: 'hello'; role?: string; id?: string }
  | { type: 'view'; tableId: string; revision: number; view: TableView }
  | { type: 'event'; tableId: string; revision: number; event: TableEvent }
  | { type: 'resumed'; tableId: string; revision: number }
  | {
      type: 'bets';
      tableId: string;
      revision: number;
      roundNo: number;
      totals: SpotAmounts;
      bettors: number;
    }
  | { type: 'error'; code: string; message: string }
  | { type: 'pong' };

/** A coup on the road as its event records it (resolved, or re-resolved by a correction). */
function roadEntry(d: RoadEntry): RoadEntry {
  const { roundNo, outcome, natural, playerTotal, bankerTotal } = d;
  return { roundNo, outcome, natural, playerTotal, bankerTotal };
}

/** The road with `entry` in its round's place: replacing that round's entry, else inserted in round order. */
function withCoup(road: readonly RoadEntry[], entry: RoadEntry): readonly RoadEntry[] {
  const others = road.filter((c) => c.roundNo !== entry.roundNo);
  const at = others.findIndex((c) => c.roundNo > entry.roundNo);
  return at < 0 ? [...others, entry] : [...others.slice(0, at), entry, ...others.slice(at)];
}

const INITIAL: FeedState = {
  connection: 'connecting',
  view: null,
  revision: null,
  error: null,
  retryInMs: null,
  log: [],
  road: [],
  roadVoided: [],
  amendments: 0,
  amendedAt: null,
};

export class TableFeed {
  private state: FeedState = INITIAL;
  private socket: SocketLike | null = null;
  private attempt = 0;
  private disposed = false;
  private retryTimer: unknown = null;
  private refreshTimer: unknown = null;
  /** Bumped by every view applied or requested: an answer to an older request is dropped. */
  private viewSeq = 0;
  /** The shoe the live road is of, once an event said. */
  private roadShoe: number | null = null;
  private readonly listeners = new Set<(s: FeedState) => void>();

  constructor(private readonly deps: FeedDeps) {}

  get current(): FeedState {
    return this.state;
  }

  subscribe(listener: (s: FeedState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.open();
  }

  dispose(): void {
    this.disposed = true;
    if (this.retryTimer !== null) this.deps.clearTimer(this.retryTimer);
    if (this.refreshTimer !== null) this.deps.clearTimer(this.refreshTimer);
    const s = this.socket;
    this.socket = null;
    s?.close(1000, 'console left the table');
    this.listeners.clear();
  }

  /** Re-reads the view now (after a command, whatever its answer). */
  async refresh(): Promise<void> {
    const seq = ++this.viewSeq;
    try {
      const view = await this.deps.readView(this.deps.tableId);
      if (seq === this.viewSeq && !this.disposed) this.set({ view });
    } catch {
      // the socket's next event or reconnect re-reads it; a command error is shown by the caller
    }
  }

  private set(patch: Partial<FeedState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l(this.state);
  }

  private open(): void {
    if (this.disposed) return;
    this.retryTimer = null;
    const socket = this.deps.connect(this.deps.url(this.deps.token));
    this.socket = socket;
    socket.onopen = () => {
      const from = this.state.revision;
      socket.send(
        JSON.stringify({
          type: 'subscribe',
          tableId: this.deps.tableId,
          ...(from === null ? {} : { fromRevision: from }),
        }),
      );
    };
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      let message: ServerMessage;
      try {
        message = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      this.onMessage(message);
    };
    socket.onerror = () => undefined;
    socket.onclose = (ev) => {
      if (this.socket !== socket || this.disposed) return;
      this.socket = null;
      if (ev.code === 4401 || this.state.connection === 'failed') {
        this.set({
          connection: 'failed',
          error: this.state.error ?? { code: 'UNAUTHENTICATED', message: ev.reason || 'sign in again' },
        });
        return;
      }
      const delay = backoffMs(this.attempt);
      this.attempt += 1;
      this.set({ connection: 'reconnecting', retryInMs: delay });
      this.retryTimer = this.deps.setTimer(() => this.open(), delay);
    };
  }

  private onMessage(message: ServerMessage): void {
    switch (message.type) {
      case 'view':
        this.viewSeq += 1;
        this.attempt = 0;
        this.set({
          view: message.view,
          revision: message.revision,
          connection: 'live',
          error: null,
          retryInMs: null,
        });
        return;
      case 'event': {
        const last = this.state.revision;
        if (last !== null && message.revision <= last) return; // already seen
        const e = message.event;
        const log = [{ revision: message.revision, type: e.type, at: e.data.at }, ...this.state.log].slice(
          0,
          LOG_SIZE,
        );
        this.set({ revision: message.revision, log, ...this.roadAfter(e) });
        this.scheduleRefresh();
        return;
      }
      case 'bets':
        return this.onTotals(message);
      case 'resumed':
        this.attempt = 0;
        this.set({ connection: 'live', error: null, retryInMs: null });
        void this.refresh();
        return;
      case 'error':
        this.set({ connection: 'failed', error: { code: message.code, message: message.message } });
        this.socket?.close(1000, 'refused');
        return;
      case 'hello':
      case 'pong':
        return;
    }
  }

  /** The live road after `e`: a new shoe starts it over, a coup joins it, a settled coup's correction or void amends it. */
  private roadAfter(e: TableEvent): Pick<FeedState, 'road' | 'roadVoided' | 'amendments' | 'amendedAt'> {
    const { road, roadVoided, amendments, amendedAt } = this.state;
    switch (e.type) {
      case 'ShoeStarted':
        this.roadShoe = e.data.shoeNo ?? null;
        return { road: [], roadVoided: [], amendments, amendedAt: null };
      case 'CoupResolved':
        this.roadShoe = e.data.shoeNo ?? this.roadShoe;
        return { road: withCoup(road, roadEntry(e.data)), roadVoided, amendments, amendedAt };
      case 'SettledCoupCorrected':
      case 'SettledCoupVoided': {
        // the previous shoe's last coup may be amended after this shoe started: not on this road
        const here = this.roadShoe === null || e.data.shoeNo === this.roadShoe;
        const amended = { amendments: amendments + 1, amendedAt: here ? e.data.at : amendedAt };
        if (!here) return { road, roadVoided, ...amended };
        if (e.type === 'SettledCoupCorrected')
          return { road: withCoup(road, roadEntry(e.data)), roadVoided, ...amended };
        return {
          road: road.filter((c) => c.roundNo !== e.data.roundNo),
          roadVoided: [...roadVoided, e.data.roundNo],
          ...amended,
        };
      }
      default:
        return { road, roadVoided, amendments, amendedAt };
    }
  }

  /** The round's totals at a revision: into the view at once (an older read answer is dropped), then re-read. */
  private onTotals(message: Extract<ServerMessage, { type: 'bets' }>): void {
    const last = this.state.revision;
    if (last !== null && message.revision < last) return;
    const view = this.state.view;
    const round = view?.round;
    if (view && round && round.roundNo === message.roundNo) {
      this.viewSeq += 1;
      const bets = { ...round.bets, totals: message.totals, bettors: message.bettors };
      this.set({ view: { ...view, round: { ...round, bets } }, revision: message.revision });
    } else this.set({ revision: message.revision });
    this.scheduleRefresh();
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer !== null) return;
    this.refreshTimer = this.deps.setTimer(() => {
      this.refreshTimer = null;
      void this.refresh();
    }, this.deps.debounceMs ?? 40);
  }
}
