import type { WebSocket } from 'ws';
import type { Principal } from '@coup/auth';
import { TokenBucket } from './live.limits';

/** One live socket: who it is, what it follows and how. */
export interface Client {
  readonly socket: WebSocket;
  readonly principal: Principal;
  /** The bearer token it connected with: checked again while the socket is open (live.sessions.ts). */
  readonly token: string;
  /** When the token expires (Unix seconds; null: never): the socket is closed then. */
  readonly expiresAt: number | null;
  /** The timer that closes the socket when its token expires (cleared when the socket goes). */
  expiryTimer: ReturnType<typeof setTimeout> | null;
  readonly bucket: TokenBucket;
  /** The client address its commands are counted under (as an HTTP request from it would be). */
  readonly address: string;
  /** The table it follows (or is subscribing to), or null. */
  tableId: string | null;
  /** It asked for every event (`every: true`): other players' bets one by one, and no totals frames. */
  every: boolean;
  /** Bumped by every subscribe, unsubscribe and the drop: an older subscribe still reading sees it and stops. */
  generation: number;
  gone: boolean;
  /** When the client was last told it is over the rate (at most one such frame a second). */
  toldLimitedAt: number;
  /** Socket commands sent and not yet answered. */
  commandsInFlight: number;
  /** The last totals frame (its send's number, live.channel.ts) the client was sent or needs no more. */
  totalsSeq: number;
}

/** Who a socket is: its token and what the token says (as the verifier read it at connect). */
export interface Credentials {
  readonly principal: Principal;
  readonly token: string;
  readonly expiresAt: number | null;
}

/**
 * The open live sockets: by socket, and by principal (each principal's cap, and its sockets to check again when
 * its account changes). What a socket follows is the table channels' (live.channels.ts): `leave` tells them
 * through `onLeave`.
 */
export class LiveClients {
  private readonly clients = new Map<WebSocket, Client>();
  private readonly socketsOf = new Map<string, Set<Client>>();

  constructor(
    private readonly maxSocketsPerPrincipal: number,
    private readonly onLeave: (client: Client) => void = () => undefined,
  ) {}

  /**
   * Registers a socket of `who`, its messages limited to `messagesPerSecond` (bursts of twice that); null when
   * the principal already holds its most sockets.
   */
  admit(socket: WebSocket, who: Credentials, messagesPerSecond: number, address: string): Client | null {
    const { principal, token, expiresAt } = who;
    let held = this.socketsOf.get(principal.id);
    if ((held?.size ?? 0) >= this.maxSocketsPerPrincipal) return null;
    if (!held) this.socketsOf.set(principal.id, (held = new Set()));
    const client: Client = {
      socket,
      principal,
      token,
      expiresAt,
      expiryTimer: null,
      bucket: new TokenBucket(messagesPerSecond, 2 * messagesPerSecond),
      address,
      tableId: null,
      every: false,
      generation: 0,
      gone: false,
      toldLimitedAt: -Infinity,
      commandsInFlight: 0,
      totalsSeq: 0,
    };
    this.clients.set(socket, client);
    held.add(client);
    return client;
  }

  /** The open sockets of a principal (a token subject). */
  ofPrincipal(id: string): readonly Client[] {
    return [...(this.socketsOf.get(id) ?? [])];
  }

  of(socket: WebSocket): Client | undefined {
    return this.clients.get(socket);
  }

  all(): IterableIterator<Client> {
    return this.clients.values();
  }

  get size(): number {
    return this.clients.size;
  }

  /** Stops following the socket's table (and any subscribe still reading). Returns the new generation. */
  leave(client: Client): number {
    client.generation++;
    if (client.tableId !== null) this.onLeave(client);
    client.tableId = null;
    return client.generation;
  }

  /** Forgets a closed socket (once), giving its principal's slot back. */
  drop(client: Client): void {
    if (client.gone) return;
    client.gone = true;
    this.leave(client);
    if (client.expiryTimer !== null) clearTimeout(client.expiryTimer);
    client.expiryTimer = null;
    this.clients.delete(client.socket);
    const held = this.socketsOf.get(client.principal.id);
    held?.delete(client);
    if (held?.size === 0) this.socketsOf.delete(client.principal.id);
  }
}
