import type { WebSocket } from 'ws';
import type { Principal } from '@coup/auth';
import type { RecordedEvent } from '@coup/event-store';
import { TokenBucket } from './live.limits';

/** One live socket: who it is, what it follows and how far it has been sent. */
export interface Client {
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
 * The open live sockets: by socket, by the table each follows (the feed's fan-out), and how many each principal
 * holds (its cap).
 */
export class LiveClients {
  private readonly clients = new Map<WebSocket, Client>();
  private readonly byTable = new Map<string, Set<Client>>();
  private readonly socketsOf = new Map<string, number>();

  constructor(private readonly maxSocketsPerPrincipal: number) {}

  /**
   * Registers a socket of `principal`, its messages limited to `messagesPerSecond` (bursts of twice that); null
   * when the principal already holds its most sockets.
   */
  admit(socket: WebSocket, principal: Principal, messagesPerSecond: number): Client | null {
    const held = this.socketsOf.get(principal.id) ?? 0;
    if (held >= this.maxSocketsPerPrincipal) return null;
    this.socketsOf.set(principal.id, held + 1);
    const client: Client = {
      socket,
      principal,
      bucket: new TokenBucket(messagesPerSecond, 2 * messagesPerSecond),
      tableId: null,
      revision: -1n,
      ready: false,
      backlog: [],
      generation: 0,
      gone: false,
      toldLimitedAt: -Infinity,
    };
    this.clients.set(socket, client);
    return client;
  }

  of(socket: WebSocket): Client | undefined {
    return this.clients.get(socket);
  }

  all(): IterableIterator<Client> {
    return this.clients.values();
  }

  /** The clients following `tableId`, including those whose subscribe is still reading. */
  following(tableId: string): ReadonlySet<Client> | undefined {
    return this.byTable.get(tableId);
  }

  /** The client follows `tableId` from now on: every event appended from here reaches it (or its backlog). */
  follow(client: Client, tableId: string): void {
    client.tableId = tableId;
    let set = this.byTable.get(tableId);
    if (!set) this.byTable.set(tableId, (set = new Set()));
    set.add(client);
  }

  /** Stops following the socket's table (and any subscribe still reading). Returns the new generation. */
  leave(client: Client): number {
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

  /** Forgets a closed socket (once), giving its principal's slot back. */
  drop(client: Client): void {
    if (client.gone) return;
    client.gone = true;
    this.leave(client);
    this.clients.delete(client.socket);
    const held = (this.socketsOf.get(client.principal.id) ?? 1) - 1;
    if (held > 0) this.socketsOf.set(client.principal.id, held);
    else this.socketsOf.delete(client.principal.id);
  }
}
