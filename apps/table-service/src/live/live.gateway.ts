import { Inject, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayDisconnect } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RawData, WebSocket } from 'ws';
import type { Principal, TokenVerifier } from '@coup/auth';
import { redactEvent, tableView, type TableEvent } from '@coup/table';
import type { RecordedEvent, Subscription } from '@coup/event-store';
import { TOKEN_VERIFIER, mayUseTable, principalFromHeader } from '../common/auth';
import { toErrorBody } from '../common/exception.filter';
import { Metrics } from '../common/metrics';
import { EventStoreHandle } from '../store/event-store.provider';
import { TableProcessor, tableStream } from '../tables/table-processor';
import {
  DEFAULT_LIVE_LIMITS,
  LIVE_LIMITS,
  SUBSCRIBE_COST,
  TokenBucket,
  type LiveLimits,
} from './live.limits';
import { parseClientMessage, type ClientMessage } from './live.protocol';

/** A socket's send buffer beyond this means the client cannot keep up: it is dropped and must resume. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** Live events held for a client whose subscribe is still reading; beyond this it is dropped as too slow. */
const MAX_BACKLOG = 10_000;
/** A resume reads this many events at a time and lets the event loop run between reads. */
export const RESUME_PAGE = 100;

/** Close codes of the live push (1009, a message over the size limit, is the `ws` server's own). */
export const CLOSE = {
  shuttingDown: 1001,
  internal: 1011,
  tooSlow: 4008,
  unauthenticated: 4401,
  tooManySockets: 4429,
} as const;

interface Client {
  readonly socket: WebSocket;
  readonly principal: Principal;
  readonly bucket: TokenBucket;
  tableId: string | null;
  /** Revision of the last event sent; live events at or below it are skipped (no duplicates). */
  revision: bigint;
  /** False while a subscribe reads: live events wait in the backlog. */
  ready: boolean;
  readonly backlog: RecordedEvent[];
  /** Bumped by every subscribe, unsubscribe and the drop: an older subscribe still reading sees it and stops. */
  generation: number;
  gone: boolean;
  /** When the client was last told it is over the rate (at most one such frame a second). */
  toldLimitedAt: number;
}

/**
 * Live push over WebSocket at `/ws`. Authenticate with `?token=<bearer>` (or an `Authorization` header), then send
 * `{ "type": "subscribe", "tableId": "T1", "fromRevision"?: n }`. The server answers with `{ type: "view" }` (the
 * table now, with its revision) or, when resuming, the missed events then `{ type: "resumed" }`, and then every
 * event in order as `{ type: "event", tableId, revision, event }`. Events come from the store's `$all`
 * subscription, so commands handled by another service process reach every client too.
 *
 * A socket follows one table at a time: a subscribe replaces the socket's current one, including one still
 * reading (the later supersedes the earlier). Every message is checked against the protocol's schema
 * (live.protocol.ts) and refused with `{ type: "error", statusCode, code, message }`; nothing a client sends can
 * reject unhandled: every asynchronous path ends in an error frame (unexpected errors logged with their context).
 * The limits (LiveLimits) bound what one socket and one principal may cost.
 */
@WebSocketGateway({ path: '/ws' })
export class LiveGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly log = new Logger('live');
  private readonly clients = new Map<WebSocket, Client>();
  private readonly byTable = new Map<string, Set<Client>>();
  private readonly socketsOf = new Map<string, number>();
  private subscription: Subscription | null = null;

  constructor(
    @Inject(EventStoreHandle) private readonly handle: EventStoreHandle,
    @Inject(TableProcessor) private readonly tables: TableProcessor,
    @Inject(TOKEN_VERIFIER) private readonly tokens: TokenVerifier,
    @Optional() @Inject(LIVE_LIMITS) private readonly limits: LiveLimits = DEFAULT_LIVE_LIMITS,
    @Optional() @Inject(Metrics) private readonly metrics: Metrics | null = null,
  ) {}

  /** Follows the log from its current end; called once the app has started. */
  async start(): Promise<void> {
    const head = await this.handle.store.headPosition();
    this.subscription = this.handle.store.subscribeToAll(head === null ? {} : { fromPosition: head });
    const sub = this.subscription;
    void (async () => {
      try {
        for await (const e of sub) this.dispatch(e);
      } catch (error) {
        this.log.error({ msg: 'live subscription stopped', error: String((error as Error).message) });
      }
    })();
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    try {
      this.connect(socket, request);
    } catch (error) {
      this.unexpected(error, { during: 'connect' });
      socket.close(CLOSE.internal, 'INTERNAL_ERROR');
    }
  }

  handleDisconnect(socket: WebSocket): void {
    const client = this.clients.get(socket);
    if (client) this.drop(client);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
    this.log.log({ msg: 'live feed stopped' });
    for (const c of this.clients.values()) c.socket.close(CLOSE.shuttingDown, 'server shutting down');
  }

  private connect(socket: WebSocket, request: IncomingMessage): void {
    let principal: Principal;
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const token = url.searchParams.get('token');
      principal = principalFromHeader(this.tokens, token ? `Bearer ${token}` : request.headers.authorization);
    } catch (error) {
      const body = toErrorBody(error);
      // Counted and logged like the HTTP edge's failures (the address, never the token); the per-address connection
      // cap bounds how fast one client can try.
      this.metrics?.authFailures.inc({ transport: 'ws', outcome: 'refused' });
      this.log.warn({
        msg: 'live socket refused: authentication failed',
        code: body.code,
        address: request.socket.remoteAddress,
      });
      return this.refuseSocket(socket, body.statusCode, body.code, body.message, CLOSE.unauthenticated);
    }
    const held = this.socketsOf.get(principal.id) ?? 0;
    if (held >= this.limits.maxSocketsPerPrincipal)
      return this.refuseSocket(
        socket,
        429,
        'TOO_MANY_SOCKETS',
        `at most ${this.limits.maxSocketsPerPrincipal} live sockets per token subject; close one first`,
        CLOSE.tooManySockets,
      );
    this.socketsOf.set(principal.id, held + 1);
    const rate = this.limits.messagesPerSecond;
    const client: Client = {
      socket,
      principal,
      bucket: new TokenBucket(rate, 2 * rate),
      tableId: null,
      revision: -1n,
      ready: false,
      backlog: [],
      generation: 0,
      gone: false,
      toldLimitedAt: -Infinity,
    };
    this.clients.set(socket, client);
    socket.on('message', (data: RawData, isBinary: boolean) => this.receive(client, data, isBinary));
    this.send(client, {
      type: 'hello',
      role: principal.role,
      id: principal.id,
      limits: {
        maxFrameBytes: this.limits.maxFrameBytes,
        messagesPerSecond: rate,
        maxResumeEvents: this.limits.maxResumeEvents,
      },
    });
  }

  private refuseSocket(
    socket: WebSocket,
    statusCode: number,
    code: string,
    message: string,
    close: number,
  ): void {
    socket.send(JSON.stringify({ type: 'error', statusCode, code, message }));
    socket.close(close, code);
  }

  /** One message from a client: rate, schema, then the handler. Synchronous; never throws. */
  private receive(client: Client, data: RawData, isBinary: boolean): void {
    let message: ClientMessage | null = null;
    try {
      if (client.gone) return;
      if (!client.bucket.take(1)) return this.rateLimited(client, 1);
      if (isBinary) return this.error(client, 400, 'INVALID_MESSAGE', 'messages are JSON text frames');
      const parsed = parseClientMessage(data.toString());
      if (!parsed.ok) return this.error(client, 400, parsed.refusal.code, parsed.refusal.message);
      message = parsed.message;
      switch (message.type) {
        case 'ping':
          return this.send(
            client,
            message.id === undefined ? { type: 'pong' } : { type: 'pong', id: message.id },
          );
        case 'unsubscribe':
          this.leave(client);
          return;
        case 'subscribe': {
          if (!client.bucket.take(SUBSCRIBE_COST - 1)) return this.rateLimited(client, SUBSCRIBE_COST - 1);
          if (!mayUseTable(client.principal, message.tableId))
            return this.error(
              client,
              403,
              'FORBIDDEN',
              `this token is limited to tables ${client.principal.tables?.join(', ')}`,
            );
          const subscribe = message;
          const generation = this.leave(client);
          this.subscribe(client, subscribe, generation).catch((error: unknown) =>
            this.failed(client, error, subscribe, generation),
          );
          return;
        }
      }
    } catch (error) {
      this.failed(client, error, message, null);
    }
  }

  private rateLimited(client: Client, tokens: number): void {
    const now = performance.now();
    if (now - client.toldLimitedAt < 1000) return; // one notice a second; the rest are dropped unanswered
    client.toldLimitedAt = now;
    const retryAfterMs = client.bucket.waitMs(tokens);
    this.send(client, {
      type: 'error',
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `at most ${this.limits.messagesPerSecond} messages a second (a subscribe counts as ${SUBSCRIBE_COST}); messages are dropped until then`,
      retryAfterMs,
    });
  }

  /**
   * Subscribes the socket to a table: a fresh view, or the events since `fromRevision`; then every live event.
   * Nothing is loaded or kept for a table that does not exist.
   */
  private async subscribe(
    client: Client,
    message: Extract<ClientMessage, { type: 'subscribe' }>,
    generation: number,
  ): Promise<void> {
    const { tableId } = message;
    const current = () => client.generation === generation;
    // Registered first, so that every event appended from here on reaches the backlog; what was appended before
    // is in the store up to `head`.
    client.tableId = tableId;
    let set = this.byTable.get(tableId);
    if (!set) this.byTable.set(tableId, (set = new Set()));
    set.add(client);
    const head = await this.handle.store.streamHead(tableStream(tableId));
    if (!current()) return;
    if (head === null) {
      this.leave(client);
      return this.error(client, 404, 'UNKNOWN_TABLE', `there is no table '${tableId}'`);
    }
    const from = message.fromRevision;
    if (from !== undefined && from <= head.revision && head.revision - from <= this.limits.maxResumeEvents) {
      client.revision = from;
      if (!(await this.replay(client, tableId, generation, from + 1n, head.revision))) return;
      this.send(client, { type: 'resumed', tableId, revision: client.revision });
    } else {
      const { state, revision } = await this.tables.read(tableId);
      if (!current()) return;
      const view = tableView(state, { id: client.principal.id, role: client.principal.role });
      if (view.status === 'none') {
        this.leave(client);
        return this.error(client, 404, 'UNKNOWN_TABLE', `there is no table '${tableId}'`);
      }
      client.revision = revision;
      this.send(client, { type: 'view', tableId, revision, view });
      // The table's state may be behind the head it was read at: the events in between follow the view.
      if (!(await this.replay(client, tableId, generation, revision + 1n, head.revision))) return;
    }
    client.ready = true;
    for (const e of client.backlog.splice(0)) this.sendEvent(client, e);
  }

  /**
   * Sends the table's events `from`..`to` in pages, letting the event loop run between pages, so that one
   * client's resume never holds the others up. False when the subscribe was superseded meanwhile.
   */
  private async replay(
    client: Client,
    tableId: string,
    generation: number,
    from: bigint,
    to: bigint,
  ): Promise<boolean> {
    const stream = tableStream(tableId);
    let next = from;
    while (next <= to) {
      if (next > from) await nextTurn();
      if (client.generation !== generation) return false;
      const page = Number(to - next + 1n < BigInt(RESUME_PAGE) ? to - next + 1n : BigInt(RESUME_PAGE));
      const events: RecordedEvent[] = [];
      for await (const e of this.handle.store.readStream(stream, { fromRevision: next, maxCount: page }))
        events.push(e);
      if (client.generation !== generation) return false;
      for (const e of events) this.sendEvent(client, e);
      const last = events.at(-1);
      if (!last || events.length < page) break;
      next = last.streamRevision + 1n;
    }
    return client.generation === generation;
  }

  /** Stops following the socket's table (and any subscribe still reading). Returns the new generation. */
  private leave(client: Client): number {
    client.generation++;
    if (client.tableId !== null) {
      const set = this.byTable.get(client.tableId);
      set?.delete(client);
      if (set?.size === 0) this.byTable.delete(client.tableId);
    }
    client.tableId = null;
    client.ready = false;
    client.revision = -1n;
    client.backlog.length = 0;
    return client.generation;
  }

  private drop(client: Client): void {
    if (client.gone) return;
    client.gone = true;
    this.leave(client);
    this.clients.delete(client.socket);
    const held = (this.socketsOf.get(client.principal.id) ?? 1) - 1;
    if (held > 0) this.socketsOf.set(client.principal.id, held);
    else this.socketsOf.delete(client.principal.id);
  }

  private send(client: Client, message: unknown): void {
    if (client.socket.readyState !== 1) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) return this.tooSlow(client);
    client.socket.send(JSON.stringify(message, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
  }

  /** A slow client never slows the table: it is dropped and resumes from its last revision. */
  private tooSlow(client: Client): void {
    client.socket.close(CLOSE.tooSlow, 'too slow: reconnect and resume from your last revision');
    this.drop(client);
  }

  private error(client: Client, statusCode: number, code: string, message: string): void {
    this.send(client, { type: 'error', statusCode, code, message });
  }

  /**
   * A handler failed. A subscribe that is still the socket's current one is undone (the socket follows no table
   * rather than half of one), and the client gets the error's frame: a known error's status and code, else 500
   * INTERNAL_ERROR, logged with its context. A superseded subscribe's failure is only logged.
   */
  private failed(
    client: Client,
    error: unknown,
    message: ClientMessage | null,
    generation: number | null,
  ): void {
    try {
      const body = this.unexpected(error, {
        principal: client.principal.id,
        role: client.principal.role,
        messageType: message?.type,
        tableId: message?.type === 'subscribe' ? message.tableId : undefined,
      });
      if (generation !== null && client.generation !== generation) return;
      if (generation !== null) this.leave(client);
      this.error(client, body.statusCode, body.code, body.message);
    } catch (inner) {
      this.log.error({ msg: 'live error handling failed', error: String(inner) });
    }
  }

  /** The error's frame body; a server-side error (5xx) is logged with its context and stack. */
  private unexpected(
    error: unknown,
    context: Record<string, unknown>,
  ): { statusCode: number; code: string; message: string } {
    const body = toErrorBody(error);
    if (body.statusCode >= 500)
      this.log.error({
        msg: 'live push handler failed',
        ...context,
        code: body.code,
        error: String((error as Error)?.message ?? error),
        stack: (error as Error)?.stack,
      });
    return { statusCode: body.statusCode, code: body.code, message: body.message };
  }

  private sendEvent(client: Client, e: RecordedEvent): void {
    if (e.streamRevision <= client.revision) return;
    client.revision = e.streamRevision;
    const event = redactEvent({ type: e.type, data: e.data } as TableEvent, {
      id: client.principal.id,
      role: client.principal.role,
    });
    if (event)
      this.send(client, {
        type: 'event',
        tableId: client.tableId,
        revision: e.streamRevision,
        position: e.globalPosition,
        at: e.recordedAt,
        event,
      });
  }

  private dispatch(e: RecordedEvent): void {
    if (!e.streamName.startsWith('table-')) return;
    const set = this.byTable.get(e.streamName.slice('table-'.length));
    if (!set) return;
    for (const client of set) {
      try {
        if (client.ready) this.sendEvent(client, e);
        else if (client.backlog.push(e) > MAX_BACKLOG) this.tooSlow(client);
      } catch (error) {
        // One client's failure (e.g. its socket) never stops the feed of the others.
        this.unexpected(error, {
          during: 'dispatch',
          principal: client.principal.id,
          tableId: client.tableId,
        });
        this.tooSlow(client);
      }
    }
  }
}
