import { Inject, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayDisconnect } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import { staff, TokenError, type TokenVerifier } from '@coup/auth';
import {
  TOKEN_VERIFIER,
  isOthersPersonalTable,
  mayUseTable,
  othersPersonalTable,
  principalFromHeader,
} from '../common/auth';
import { toErrorBody } from '../common/exception.filter';
import { Metrics } from '../common/metrics';
import type { RecordedEvent } from '@coup/event-store';
import { StaffAccounts } from '../staff/staff-accounts';
import { EventStoreHandle } from '../store/event-store.provider';
import { type LogFollower, LogFollowers } from '../store/log-follower';
import type { CommandLimit } from '../ops/request-limits';
import { TableCommands } from '../tables/table-commands';
import { TableProcessor } from '../tables/table-processor';
import { clientAddressOf } from './live.address';
import { TableChannels } from './live.channels';
import { type Client, type Credentials, LiveClients } from './live.clients';
import { LiveCommands } from './live.commands';
import { DEFAULT_LIVE_LIMITS, LIVE_LIMITS, SUBSCRIBE_COST, type LiveLimits } from './live.limits';
import { parseClientMessage, type ClientMessage } from './live.protocol';
import { CLOSE, LiveSender } from './live.send';
import { LiveSessions, type StaffFolder } from './live.sessions';
import { LiveSubscriptions } from './live.subscribe';

export { RESUME_PAGE } from './live.subscribe';

/**
 * Live push over WebSocket at `/ws`. Authenticate with `?token=<bearer>` (or an `Authorization` header), then send
 * `{ "type": "subscribe", "tableId": "T1", "fromRevision"?: n, "every"?: true }`. The server answers with
 * `{ type: "view" }` (the table now, with its revision) or, when resuming, the missed events then
 * `{ type: "resumed" }`, and then the table's events in order as `{ type: "event", tableId, revision, event }`:
 * every event at once, but other players' bets, which come as `{ type: "bets", revision, roundNo, totals, bettors }`
 * at most once per `coalesceMs` (unless `every`: live.channel.ts). Events come from the store's `$all`
 * subscription, so commands handled by another service process reach every client too; when that subscription
 * fails, it is made again from the last event dispatched (LogFollowers), so clients get every event once. Bets,
 * clears and rebets may be sent over the socket too, each answered by an `ack` (live.commands.ts).
 *
 * A socket follows one table at a time: a subscribe replaces the socket's current one, including one still
 * reading (the later supersedes the earlier). Every message is checked against the protocol's schema
 * (live.protocol.ts) and refused with `{ type: "error", statusCode, code, message }`; nothing a client sends can
 * reject unhandled: every asynchronous path ends in an error frame (unexpected errors logged with their context).
 * The limits (LiveLimits) bound what one socket and one principal may cost. A socket holds only while its token
 * does: checked again before each subscribe and command, when its staff account changes, and at its expiry
 * (live.sessions.ts).
 */
@WebSocketGateway({ path: '/ws' })
export class LiveGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly log = new Logger('live');
  private readonly clients: LiveClients;
  private readonly sender: LiveSender;
  private readonly channels: TableChannels;
  private readonly subscriptions: LiveSubscriptions;
  private readonly commands: LiveCommands;
  private readonly sessions: LiveSessions;
  private readonly addressOf: (request: IncomingMessage) => string;
  private follower: LogFollower | null = null;

  constructor(
    @Inject(EventStoreHandle) private readonly handle: EventStoreHandle,
    @Inject(TableProcessor) tables: TableProcessor,
    @Inject(TOKEN_VERIFIER) private readonly tokens: TokenVerifier,
    @Optional() @Inject(LIVE_LIMITS) private readonly limits: LiveLimits = DEFAULT_LIVE_LIMITS,
    @Optional() @Inject(Metrics) private readonly metrics: Metrics | null = null,
    @Optional() @Inject(LogFollowers) private readonly followers: LogFollowers = new LogFollowers(),
    @Optional() @Inject(TableCommands) commands: TableCommands | null = null,
    @Optional() @Inject(StaffAccounts) private readonly staffAccounts: StaffFolder | null = null,
  ) {
    this.clients = new LiveClients(limits.maxSocketsPerPrincipal, (client) => this.channels.release(client));
    this.sender = new LiveSender(this.clients, limits.maxBufferedBytes, metrics);
    this.channels = new TableChannels({
      store: handle.store,
      load: (tableId) => tables.read(tableId),
      sender: this.sender,
      coalesceMs: limits.coalesceMs,
      failed: (tableId, error) => this.unexpected(error, { during: 'follow', tableId }),
    });
    this.subscriptions = new LiveSubscriptions(
      handle,
      this.channels,
      this.clients,
      this.sender,
      limits.maxResumeEvents,
    );
    this.sessions = new LiveSessions(tokens, staffAccounts, this.clients, this.sender);
    this.commands = new LiveCommands(commands, this.sender, (client) => this.sessions.current(client));
    this.addressOf = clientAddressOf(limits.trustProxy);
  }

  /** Follows the log from its current end; called once the app has started. */
  async start(): Promise<void> {
    const head = await this.handle.store.headPosition();
    this.follower = this.followers.follow('live-push', this.handle.store, head, (e) => this.dispatch(e));
  }

  /** One event of the log: to its table's channel; a staff account's change to the account's sockets. */
  private dispatch(e: RecordedEvent): void {
    if (e.streamName !== staff.STAFF_STREAM) return this.channels.dispatch(e);
    const username = (e.data as { username?: unknown } | null)?.username;
    if (typeof username === 'string') void this.sessions.accountChanged(username);
  }

  /** Socket commands count against the REST routes' command limits (installed with the HTTP edge). */
  useCommandLimit(limit: CommandLimit): void {
    this.commands.limit = limit;
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    this.tryConnect(socket, request, false);
  }

  /** `folded`: the staff stream was folded for this socket's token already. Never throws. */
  private tryConnect(socket: WebSocket, request: IncomingMessage, folded: boolean): void {
    try {
      this.connect(socket, request, folded);
    } catch (error) {
      this.unexpected(error, { during: 'connect' });
      socket.close(CLOSE.internal, 'INTERNAL_ERROR');
    }
  }

  handleDisconnect(socket: WebSocket): void {
    const client = this.clients.of(socket);
    if (client) this.clients.drop(client);
  }

  async onModuleDestroy(): Promise<void> {
    await this.follower?.stop();
    this.log.log({ msg: 'live feed stopped' });
    for (const c of this.clients.all()) c.socket.close(CLOSE.shuttingDown, 'server shutting down');
    this.channels.disposeAll();
  }

  private connect(socket: WebSocket, request: IncomingMessage, folded: boolean): void {
    let who: Credentials;
    try {
      who = this.credentials(request);
    } catch (error) {
      if (!folded && this.staffAccounts && error instanceof TokenError && error.code === 'TOKEN_REVOKED')
        return this.connectAfterFold(socket, request, this.staffAccounts);
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
    const { principal } = who;
    const rate = this.limits.messagesPerSecond;
    const client = this.clients.admit(socket, who, rate, this.addressOf(request));
    if (!client)
      return this.refuseSocket(
        socket,
        429,
        'TOO_MANY_SOCKETS',
        `at most ${this.limits.maxSocketsPerPrincipal} live sockets per token subject; close one first`,
        CLOSE.tooManySockets,
      );
    socket.on('message', (data: RawData, isBinary: boolean) => this.receive(client, data, isBinary));
    this.sessions.watch(client);
    this.sender.send(client, {
      type: 'hello',
      role: principal.role,
      id: principal.id,
      limits: {
        maxFrameBytes: this.limits.maxFrameBytes,
        messagesPerSecond: rate,
        maxResumeEvents: this.limits.maxResumeEvents,
        coalesceMs: this.limits.coalesceMs,
        maxBufferedBytes: this.limits.maxBufferedBytes,
      },
    });
  }

  /** The socket's token (`?token=`, else the Authorization header) and what it says; throws the 401 refusals. */
  private credentials(request: IncomingMessage): Credentials {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const query = url.searchParams.get('token');
    const header = query ? `Bearer ${query}` : request.headers.authorization;
    principalFromHeader(this.tokens, header); // the HTTP edge's refusals: no token, not a bearer, a bad token
    const token = (header ?? '').replace(/^Bearer\s+/i, '');
    return { token, ...this.tokens.verifyWithExpiry(token) };
  }

  /**
   * A staff token this process cannot place yet (its sign-in or the account's change was recorded by another
   * process): the socket waits, unread, while the staff stream is folded, then connects or is refused.
   */
  private connectAfterFold(socket: WebSocket, request: IncomingMessage, accounts: StaffFolder): void {
    socket.pause();
    accounts.fresh().then(
      () => {
        // A socket closed meanwhile is not admitted (its close has been handled already).
        if (socket.readyState !== 1) return;
        this.tryConnect(socket, request, true);
        socket.resume();
      },
      (error: unknown) => {
        const body = this.unexpected(error, { during: 'connect' });
        this.refuseSocket(socket, body.statusCode, body.code, body.message, CLOSE.internal);
      },
    );
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
      if (isBinary) return this.sender.error(client, 400, 'INVALID_MESSAGE', 'messages are JSON text frames');
      const parsed = parseClientMessage(data.toString());
      if (!parsed.ok) return this.sender.error(client, 400, parsed.refusal.code, parsed.refusal.message);
      message = parsed.message;
      switch (message.type) {
        case 'ping':
          return this.sender.send(
            client,
            message.id === undefined ? { type: 'pong' } : { type: 'pong', id: message.id },
          );
        case 'unsubscribe':
          this.clients.leave(client);
          return;
        case 'subscribe': {
          if (!client.bucket.take(SUBSCRIBE_COST - 1)) return this.rateLimited(client, SUBSCRIBE_COST - 1);
          if (!mayUseTable(client.principal, message.tableId))
            return this.sender.error(
              client,
              403,
              'FORBIDDEN',
              client.principal.tables?.length
                ? `this token is limited to tables ${client.principal.tables.join(', ')}`
                : 'this token may follow no table',
            );
          if (isOthersPersonalTable(client.principal, message.tableId)) {
            const refusal = othersPersonalTable(message.tableId);
            return this.sender.error(client, 403, refusal.code, refusal.message);
          }
          const subscribe = message;
          const generation = this.clients.leave(client);
          this.sessions
            .current(client)
            .then((holds) =>
              holds && client.generation === generation
                ? this.subscriptions.subscribe(client, subscribe, generation)
                : undefined,
            )
            .catch((error: unknown) => this.failed(client, error, subscribe, generation));
          return;
        }
        default:
          return this.commands.run(client, message);
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
    this.sender.send(client, {
      type: 'error',
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `at most ${this.limits.messagesPerSecond} messages a second (a subscribe counts as ${SUBSCRIBE_COST}); messages are dropped until then`,
      retryAfterMs,
    });
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
      if (generation !== null) this.clients.leave(client);
      this.sender.error(client, body.statusCode, body.code, body.message);
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
}
