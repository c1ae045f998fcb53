import { Inject, Logger, type OnModuleDestroy } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayDisconnect } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { Principal, TokenVerifier } from '@coup/auth';
import { redactEvent, tableView, type TableEvent } from '@coup/table';
import type { RecordedEvent, Subscription } from '@coup/event-store';
import { TOKEN_VERIFIER, mayUseTable, principalFromHeader } from '../common/auth';
import { toErrorBody } from '../common/exception.filter';
import { EventStoreHandle } from '../store/event-store.provider';
import { TableProcessor, tableStream } from '../tables/table-processor';

/** A socket's send buffer beyond this means the client cannot keep up: it is dropped and must resume. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** A resume further behind than this gets a fresh view instead of the missed events. */
const MAX_REPLAY_EVENTS = 2_000;

interface Client {
  readonly socket: WebSocket;
  readonly principal: Principal;
  tableId: string | null;
  /** Revision of the last event sent; live events at or below it are skipped (no duplicates). */
  revision: bigint;
  ready: boolean;
  readonly backlog: RecordedEvent[];
}

type ClientMessage =
  | { type: 'subscribe'; tableId: string; fromRevision?: number | string }
  | { type: 'unsubscribe' }
  | { type: 'ping' };

/**
 * Live push over WebSocket at `/ws`. Authenticate with `?token=<bearer>` (or an `Authorization` header), then send
 * `{ "type": "subscribe", "tableId": "T1", "fromRevision"?: n }`. The server answers with `{ type: "view" }` (the
 * table now, with its revision) or, when resuming, the missed events, and then every event in order as
 * `{ type: "event", tableId, revision, event }`. Events come from the store's `$all` subscription, so commands
 * handled by another service process reach every client too.
 */
@WebSocketGateway({ path: '/ws' })
export class LiveGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly log = new Logger('live');
  private readonly clients = new Set<Client>();
  private readonly byTable = new Map<string, Set<Client>>();
  private subscription: Subscription | null = null;

  constructor(
    @Inject(EventStoreHandle) private readonly handle: EventStoreHandle,
    @Inject(TableProcessor) private readonly tables: TableProcessor,
    @Inject(TOKEN_VERIFIER) private readonly tokens: TokenVerifier,
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
    let principal: Principal;
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const token = url.searchParams.get('token');
      principal = principalFromHeader(this.tokens, token ? `Bearer ${token}` : request.headers.authorization);
    } catch (error) {
      const body = toErrorBody(error);
      socket.send(
        JSON.stringify({
          type: 'error',
          code: body.code,
          message: body.message,
          statusCode: body.statusCode,
        }),
      );
      socket.close(4401, body.code);
      return;
    }
    const client: Client = { socket, principal, tableId: null, revision: -1n, ready: false, backlog: [] };
    this.clients.add(client);
    socket.on('message', (raw) => void this.onMessage(client, raw.toString()));
    socket.send(JSON.stringify({ type: 'hello', role: principal.role, id: principal.id }));
  }

  handleDisconnect(socket: WebSocket): void {
    for (const c of this.clients) if (c.socket === socket) this.drop(c);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
    this.log.log({ msg: 'live feed stopped' });
    for (const c of this.clients) c.socket.close(1001, 'server shutting down');
  }

  private drop(client: Client): void {
    this.clients.delete(client);
    if (client.tableId) this.byTable.get(client.tableId)?.delete(client);
  }

  private send(client: Client, message: unknown): void {
    if (client.socket.readyState !== 1) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A slow client never slows the table: drop it; it resumes from its last revision.
      client.socket.close(4008, 'too slow: reconnect and resume from your last revision');
      this.drop(client);
      return;
    }
    client.socket.send(JSON.stringify(message, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
  }

  private error(client: Client, statusCode: number, code: string, message: string): void {
    this.send(client, { type: 'error', statusCode, code, message });
  }

  private async onMessage(client: Client, raw: string): Promise<void> {
    let message: ClientMessage;
    try {
      message = JSON.parse(raw) as ClientMessage;
    } catch {
      return this.error(client, 400, 'INVALID_JSON', 'messages are JSON objects');
    }
    if (message?.type === 'ping') return this.send(client, { type: 'pong' });
    if (message?.type === 'unsubscribe') {
      if (client.tableId) this.byTable.get(client.tableId)?.delete(client);
      client.tableId = null;
      return;
    }
    if (
      message?.type !== 'subscribe' ||
      typeof message.tableId !== 'string' ||
      !/^[A-Za-z0-9_-]{1,64}$/.test(message.tableId)
    ) {
      return this.error(
        client,
        400,
        'INVALID_MESSAGE',
        'send { "type": "subscribe", "tableId": "...", "fromRevision"?: n }',
      );
    }
    const { tableId } = message;
    if (!mayUseTable(client.principal, tableId))
      return this.error(
        client,
        403,
        'FORBIDDEN',
        `this token is limited to tables ${client.principal.tables?.join(', ')}`,
      );
    let from: bigint | null = null;
    if (message.fromRevision !== undefined) {
      if (!/^-?\d{1,15}$/.test(String(message.fromRevision)))
        return this.error(client, 400, 'INVALID_MESSAGE', 'fromRevision must be a whole number');
      from = BigInt(message.fromRevision);
    }
    if (client.tableId) this.byTable.get(client.tableId)?.delete(client);
    client.tableId = tableId;
    client.ready = false;
    client.backlog.length = 0;
    let set = this.byTable.get(tableId);
    if (!set) this.byTable.set(tableId, (set = new Set()));
    set.add(client);
    // Live events that arrive while we read are kept in the backlog and sent after, skipping what was read.
    const viewer = { id: client.principal.id, role: client.principal.role };
    const state = await this.tables.refresh(tableId);
    const view = tableView(state, viewer);
    if (view.status === 'none') {
      set.delete(client);
      client.tableId = null;
      return this.error(client, 404, 'UNKNOWN_TABLE', `there is no table '${tableId}'`);
    }
    const head = await this.handle.store.streamHead(tableStream(tableId));
    const headRevision = head?.revision ?? -1n;
    if (from !== null && headRevision - from <= BigInt(MAX_REPLAY_EVENTS) && from <= headRevision) {
      client.revision = from;
      for await (const e of this.handle.store.readStream(tableStream(tableId), { fromRevision: from + 1n })) {
        if (e.streamRevision > headRevision) break;
        this.sendEvent(client, e);
      }
      this.send(client, { type: 'resumed', tableId, revision: client.revision });
    } else {
      client.revision = headRevision;
      this.send(client, { type: 'view', tableId, revision: headRevision, view });
    }
    client.ready = true;
    for (const e of client.backlog.splice(0)) this.sendEvent(client, e);
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
      if (client.ready) this.sendEvent(client, e);
      else client.backlog.push(e);
    }
  }
}
