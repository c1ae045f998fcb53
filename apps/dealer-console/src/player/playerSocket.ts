/**
 * The socket the player page holds: it follows the player's table on the live push (the default, coalesced stream:
 * the player's own bets at once, other players' as totals) and carries the page's bets, clears and rebets, each
 * answered by an `ack` with what the REST route would answer; the table's events are handed to `onEvent`'s listeners. A command the socket cannot carry (not connected, the
 * connection drops, no ack in time) is refused with {@link SocketUnavailable}: the caller sends it over REST with
 * the same Idempotency-Key, which gets the first answer if the socket's copy was taken after all.
 */

import type { TableEvent } from '@coup/table';

/** What the service answers a command: the REST route's status and body. */
export interface Ack {
  readonly status: number;
  readonly body: unknown;
}

/** The socket could not carry the command (send it another way, with the same key). */
export class SocketUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SocketUnavailable';
  }
}

/** The slice of the browser WebSocket this uses. */
export type PlayerSocketLike = Pick<
  WebSocket,
  'onopen' | 'onmessage' | 'onclose' | 'onerror' | 'send' | 'close' | 'readyState'
>;

export interface PlayerSocketDeps {
  readonly url: string;
  readonly connect?: (url: string) => PlayerSocketLike;
  readonly setTimer?: (fn: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
  /** How long a command waits for its ack before it is sent another way. */
  readonly ackTimeoutMs?: number;
}

interface Waiting {
  readonly resolve: (ack: Ack) => void;
  readonly reject: (error: Error) => void;
  readonly timer: unknown;
}

const OPEN = 1;

export class PlayerSocket {
  private socket: PlayerSocketLike | null = null;
  private tableId: string | null = null;
  private attempt = 0;
  private retry: unknown = null;
  private disposed = false;
  private readonly waiting = new Map<string, Waiting>();
  private readonly eventListeners = new Set<(event: TableEvent) => void>();
  private readonly connect: (url: string) => PlayerSocketLike;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly deps: PlayerSocketDeps) {
    this.connect = deps.connect ?? ((url) => new WebSocket(url));
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.open();
  }

  /** Follows this table from now on (again after every reconnect). */
  follow(tableId: string): void {
    this.tableId = tableId;
    this.subscribe();
  }

  /** Calls `listener` with each event of the followed table the service pushes; returns the unsubscribe. */
  onEvent(listener: (event: TableEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Sends a command (`{ type, key, ... }`) and resolves with its ack. */
  command(message: { readonly type: string; readonly key: string } & Record<string, unknown>): Promise<Ack> {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return Promise.reject(new SocketUnavailable('not connected'));
    return new Promise<Ack>((resolve, reject) => {
      const timer = this.setTimer(
        () => this.settle(message.key, new SocketUnavailable('no answer in time')),
        this.deps.ackTimeoutMs ?? 10_000,
      );
      this.waiting.set(message.key, { resolve, reject, timer });
      socket.send(JSON.stringify(message));
    });
  }

  dispose(): void {
    this.disposed = true;
    if (this.retry !== null) this.clearTimer(this.retry);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'the player left the page');
    this.failAll('the page closed its socket');
  }

  private open(): void {
    if (this.disposed) return;
    this.retry = null;
    const socket = this.connect(this.deps.url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.subscribe();
    };
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      let frame: { type?: unknown; key?: unknown; status?: unknown; body?: unknown; event?: TableEvent };
      try {
        frame = JSON.parse(String(ev.data)) as typeof frame;
      } catch {
        return;
      }
      if (frame.type === 'ack' && typeof frame.key === 'string' && typeof frame.status === 'number')
        this.settle(frame.key, { status: frame.status, body: frame.body });
      else if (frame.type === 'event' && typeof frame.event === 'object' && frame.event !== null) {
        const event = frame.event;
        for (const l of this.eventListeners) l(event);
      }
    };
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket || this.disposed) return;
      this.socket = null;
      this.failAll('the connection dropped');
      const delay = Math.min(10_000, 500 * 2 ** this.attempt);
      this.attempt += 1;
      this.retry = this.setTimer(() => this.open(), delay);
    };
  }

  private subscribe(): void {
    const socket = this.socket;
    if (this.tableId !== null && socket?.readyState === OPEN)
      socket.send(JSON.stringify({ type: 'subscribe', tableId: this.tableId }));
  }

  private settle(key: string, outcome: Ack | Error): void {
    const waiting = this.waiting.get(key);
    if (!waiting) return;
    this.waiting.delete(key);
    this.clearTimer(waiting.timer);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }

  private failAll(reason: string): void {
    for (const key of [...this.waiting.keys()]) this.settle(key, new SocketUnavailable(reason));
  }
}
