import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventStore, RecordedEvent } from '@coup/event-store';
import {
  evolve,
  initialState,
  tableStream,
  tableView,
  type Actor,
  type SpotAmounts,
  type TableEvent,
  type TableState,
  type TableView,
} from '@coup/table';
import type { Client } from './live.clients';
import { EventFrames, isBetEvent, serializePlain } from './live.frames';
import type { LiveSender } from './live.send';

/** A table's state as the store acknowledged it, at the revision of its last event. */
export interface TableAt {
  readonly state: TableState;
  readonly revision: bigint;
}

export interface ChannelDeps {
  /** The store as stored (the live push never needs a sealed seed). */
  readonly store: EventStore;
  /** The table's state now (the processor's read: at least the store's head when asked). */
  readonly load: (tableId: string) => Promise<TableAt>;
  readonly sender: LiveSender;
  /** Other players' bets reach a coalesced watcher as one totals frame per this many ms at most. */
  readonly coalesceMs: number;
  /** A failure the channel met while following (logged by the gateway). */
  readonly failed: (tableId: string, error: unknown) => void;
  /** Runs `next` in a later turn of the event loop (default setImmediate; tests step it by hand). */
  readonly later?: (next: () => void) => void;
}

/** The round's bets as everyone may see them: totals per spot and how many players have stakes. */
export interface BetTotals {
  readonly roundNo: number;
  readonly totals: SpotAmounts;
  readonly bettors: number;
}

/** Live events held while the channel loads or catches up; beyond, they are dropped and read from the store. */
const MAX_HELD = 10_000;
/** Events read from the store at a time when catching up, with a turn of the event loop between pages. */
const CATCH_UP_PAGE = 500;
/** A totals frame goes to this many sockets per turn of the event loop (acks and bets are handled between). */
export const TOTALS_CHUNK = 256;

/** Numbers each totals send (over all channels), so that a client is sent a totals frame once. */
let totalsSends = 0;

/** A totals frame on its way to the coalesced watchers, a chunk per turn. */
interface TotalsSend {
  readonly frame: Buffer;
  readonly seq: number;
  readonly clients: readonly Client[];
  next: number;
}

/**
 * One followed table: its state folded from the log (the same `evolve` as the processor), and its watchers by
 * audience. Each event is serialized once per audience (live.frames.ts) and sent at once, in order: to staff who
 * asked for every event, every event; to everyone else, every event but other players' bets, which reach them as
 * one `bets` frame (the round's totals per spot and bettors, true at a stated revision) per `coalesceMs` at most.
 * Before any other event, the pending totals go first, so that a watcher's frames are always in revision order.
 * A player's own bets, chips and settlements reach only that player's sockets.
 *
 * A totals frame that is due by its timer goes out TOTALS_CHUNK sockets per turn of the event loop, so that
 * thousands of watchers never hold the acks, the bets and the every-event staff behind them. Meanwhile each
 * coalesced socket still gets it before anything newer: a bettor's own bet, a table event (which first finishes
 * the send), or the next totals. Staff who asked for every event get no totals frames: their events go first.
 */
export class TableChannel {
  state: TableState = initialState;
  /** The revision `state` is true at (-1n before it is loaded). */
  revision = -1n;
  private loaded = false;
  /** A load or catch-up runs: live events wait in `held`. */
  private busy = false;
  private held: RecordedEvent[] = [];
  /** Live events were dropped from `held`: the next catch-up reads the store to its head. */
  private overflow = false;
  private repairing = false;
  private lane: Promise<void> = Promise.resolve();

  /** Sockets following the table, joined or still subscribing (the channel lives while there is one). */
  readonly holders = new Set<Client>();
  private readonly staffEvery = new Set<Client>();
  private readonly staffCoalesced = new Set<Client>();
  private readonly players = new Set<Client>();
  private readonly byPlayer = new Map<string, Set<Client>>();

  /** Bets (or a change of the totals) since the last totals frame. */
  private pending = false;
  private timer: NodeJS.Timeout | null = null;
  private lastFlushAt = -Infinity;
  /** A totals frame still being sent (the rest of its sockets get it a chunk per turn). */
  private sending: TotalsSend | null = null;

  constructor(
    readonly tableId: string,
    private readonly deps: ChannelDeps,
  ) {}

  /** Brings the channel to the store's `head` at least (loading it first). One at a time. */
  sync(head: bigint): Promise<void> {
    const run = this.lane.then(() => this.syncNow(head));
    this.lane = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** An event of the table from the log's follower, in order (a repeat is skipped, a gap is read from the store). */
  onLive(e: RecordedEvent): void {
    if (this.busy || !this.loaded) return this.hold(e);
    if (e.streamRevision <= this.revision) return;
    if (e.streamRevision === this.revision + 1n) return this.deliver(e);
    this.hold(e);
    this.repair(e.streamRevision - 1n);
  }

  /** The table as `viewer` may see it now, at `revision`. */
  viewFor(viewer: Actor): TableView {
    return tableView(this.state, viewer);
  }

  /** Starts sending the table's frames to a client that has everything up to `revision`. */
  join(client: Client): void {
    const { id, role } = client.principal;
    // A totals frame being sent is older than what the client has (a view or a resume up to now).
    client.totalsSeq = this.sending?.seq ?? client.totalsSeq;
    if (role !== 'player') (client.every ? this.staffEvery : this.staffCoalesced).add(client);
    else {
      this.players.add(client);
      let own = this.byPlayer.get(id);
      if (!own) this.byPlayer.set(id, (own = new Set()));
      own.add(client);
    }
  }

  /** Stops sending to a client (joined or not). */
  leave(client: Client): void {
    this.holders.delete(client);
    this.staffEvery.delete(client);
    this.staffCoalesced.delete(client);
    if (this.players.delete(client)) {
      const own = this.byPlayer.get(client.principal.id);
      own?.delete(client);
      if (own?.size === 0) this.byPlayer.delete(client.principal.id);
    }
  }

  /** Stops following: no timer left behind. */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.held = [];
    this.sending = null;
  }

  /** A past event (a resume) as this client receives it live, or null when it would not receive it. */
  frameFor(client: Client, e: RecordedEvent): Buffer | null {
    const event = { type: e.type, data: e.data } as TableEvent;
    const { id, role } = client.principal;
    if (isBetEvent(event) && !client.every && !(role === 'player' && event.data.playerId === id)) return null;
    return new EventFrames(this.tableId, e, event).for({ id, role });
  }

  /** The round's totals now, as a `bets` frame (null when there is no round). */
  totalsFrame(): Buffer | null {
    const bets = this.totals();
    return bets === null
      ? null
      : serializePlain({ type: 'bets', tableId: this.tableId, revision: Number(this.revision), ...bets });
  }

  private totals(): BetTotals | null {
    const round = tableView(this.state).round;
    return round === null
      ? null
      : { roundNo: round.roundNo, totals: round.bets.totals, bettors: round.bets.bettors };
  }

  private hold(e: RecordedEvent): void {
    if (this.held.length >= MAX_HELD) {
      this.held = [];
      this.overflow = true;
    }
    if (!this.overflow) this.held.push(e);
  }

  /** Reads a gap from the store (once at a time); a failure is retried by the next live event. */
  private repair(to: bigint): void {
    if (this.repairing) return;
    this.repairing = true;
    this.sync(to)
      .catch((error: unknown) => this.deps.failed(this.tableId, error))
      .finally(() => {
        this.repairing = false;
      });
  }

  private async syncNow(head: bigint): Promise<void> {
    if (this.loaded && this.revision >= head && !this.overflow) return;
    this.busy = true;
    try {
      if (!this.loaded) {
        const at = await this.deps.load(this.tableId);
        // Events the processor has and the follower has not delivered yet come from the store below.
        this.state = at.state;
        this.revision = at.revision;
        this.loaded = true;
      }
      if (this.overflow) {
        this.overflow = false;
        const now = await this.deps.store.streamHead(tableStream(this.tableId));
        if (now !== null && now.revision > head) head = now.revision;
      }
      await this.readStore(head);
    } finally {
      this.busy = false;
      this.drainHeld();
    }
  }

  /** Delivers the store's events after `revision` up to `head`, a page at a time. */
  private async readStore(head: bigint): Promise<void> {
    while (this.revision < head) {
      const from = this.revision + 1n;
      const page: RecordedEvent[] = [];
      const count = head - from + 1n < BigInt(CATCH_UP_PAGE) ? Number(head - from + 1n) : CATCH_UP_PAGE;
      for await (const e of this.deps.store.readStream(tableStream(this.tableId), {
        fromRevision: from,
        maxCount: count,
      }))
        page.push(e);
      for (const e of page) if (e.streamRevision === this.revision + 1n) this.deliver(e);
      if (page.length < count) return;
      if (this.revision < head) await nextTurn();
    }
  }

  private drainHeld(): void {
    const held = this.held;
    this.held = [];
    for (const [i, e] of held.entries()) {
      if (e.streamRevision <= this.revision) continue;
      if (e.streamRevision !== this.revision + 1n) {
        this.held = held.slice(i);
        return this.repair(e.streamRevision - 1n);
      }
      this.deliver(e);
    }
  }

  /** Folds one event (the next revision) and sends its frames: at once, or into the totals for a coalesced bet. */
  private deliver(e: RecordedEvent): void {
    const event = { type: e.type, data: e.data } as TableEvent;
    const bet = isBetEvent(event);
    const frames = new EventFrames(this.tableId, e, event);
    // Staff who take every event take no totals: theirs go first.
    for (const client of this.staffEvery) this.sendTo(client, frames.staff());
    if (this.staffEvery.size > 0) this.deps.sender.eventWritten('every', e.recordedAt);
    if (bet) {
      this.state = evolve(this.state, event);
      this.revision = e.streamRevision;
      const own = this.byPlayer.get(event.data.playerId);
      if (own)
        for (const client of own) {
          this.totalsFirst(client);
          this.sendTo(client, frames.player(client.principal.id));
        }
      this.markPending();
      return;
    }
    // Before any other event, the totals true before it go first (the whole of any send under way).
    this.flush(false);
    const before = JSON.stringify(this.totals());
    this.state = evolve(this.state, event);
    this.revision = e.streamRevision;
    const staff = frames.staff();
    const send = this.deps.sender;
    if (staff) for (const client of this.staffCoalesced) send.frame(client, staff);
    for (const client of this.players) this.sendTo(client, frames.player(client.principal.id));
    this.deps.sender.eventWritten('all', e.recordedAt);
    // A table event may change the totals too (a new round empties them; a player who leaves takes its stakes).
    if (JSON.stringify(this.totals()) !== before) this.markPending();
  }

  private sendTo(client: Client, frame: Buffer | null): void {
    if (frame !== null) this.deps.sender.frame(client, frame);
  }

  /** Totals are due: at the end of this turn if the last frame is an interval old, else an interval after it. */
  private markPending(): void {
    this.pending = true;
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastFlushAt + this.deps.coalesceMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush(true);
    }, wait);
  }

  /**
   * Sends the round's totals to every coalesced watcher, if bets came since the last frame: one frame, to all of
   * them now, or (`chunked`) a chunk of them per turn. Any send still under way is finished first.
   */
  private flush(chunked: boolean): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.finishSending();
    if (!this.pending) return;
    this.pending = false;
    this.lastFlushAt = performance.now();
    const frame = this.totalsFrame();
    if (frame === null) return;
    const clients = [...this.staffCoalesced];
    for (const client of this.players) if (!client.every) clients.push(client);
    this.sending = { frame, seq: ++totalsSends, clients, next: 0 };
    if (chunked) this.sendChunk(this.sending);
    else this.finishSending();
  }

  /** Sends the totals under way to the next chunk of its sockets; the rest in a later turn. */
  private sendChunk(send: TotalsSend): void {
    if (this.sending !== send) return;
    this.sendUpTo(send, send.next + TOTALS_CHUNK);
    if (send.next < send.clients.length) (this.deps.later ?? setImmediate)(() => this.sendChunk(send));
    else this.sending = null;
  }

  private finishSending(): void {
    const send = this.sending;
    if (send === null) return;
    this.sending = null;
    this.sendUpTo(send, send.clients.length);
  }

  private sendUpTo(send: TotalsSend, end: number): void {
    for (const client of send.clients.slice(send.next, end)) {
      send.next++;
      this.sendTotals(client, send);
    }
  }

  /** Before anything newer reaches a coalesced client, the totals under way do. */
  private totalsFirst(client: Client): void {
    if (this.sending !== null && !client.every) this.sendTotals(client, this.sending);
  }

  /** The totals frame to one client still following the table, once. */
  private sendTotals(client: Client, send: TotalsSend): void {
    if (client.totalsSeq >= send.seq) return;
    client.totalsSeq = send.seq;
    if (client.tableId === this.tableId && (this.players.has(client) || this.staffCoalesced.has(client)))
      this.deps.sender.frame(client, send.frame);
  }
}
