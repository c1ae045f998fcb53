/**
 * The calls the player page makes: the online endpoints (open or resume the personal table, buy in, exit), the
 * betting commands (each with an Idempotency-Key, so a retry after a lost answer never doubles a bet), the table
 * view, and the table's past events over the WebSocket (for the history: the `player` role reads no hand records,
 * but receives its own table's events, seeds included once revealed). Bets, clears and rebets go over the socket
 * the page holds (playerSocket.ts) when it is connected, else over REST with the same key.
 */
import type { LedgerAccount as WireLedgerAccount } from '@coup/projections/wire';
import type { CoupSummary, Spot, TableEvent, TableView } from '@coup/table';
import { ApiError, type Fetch, newIdempotencyKey as newKey, request } from '../api';
import { type PlayerSocket, SocketUnavailable } from './playerSocket';

export interface OpenAnswer {
  readonly tableId: string;
  readonly revision: number;
  readonly view: TableView;
}

export interface BetAnswer {
  readonly roundNo: number;
  readonly spot: Spot;
  readonly amount: number;
  readonly spotTotal: number;
  readonly chips: number;
}

/** The answer to DEAL: the coup, and the seed of its shuffle revealed. */
export interface DealAnswer extends Omit<CoupSummary, 'at' | 'shoeNo'> {
  readonly shoeEnded?: { readonly shoeNo: number; readonly seed: string | null } | null;
}

/** One table's account in `GET /api/players/:playerId/ledger` (the read model: it may lag a coup behind). */
export type LedgerAccount = Pick<
  WireLedgerAccount,
  | 'tableId'
  | 'boughtIn'
  | 'bets'
  | 'staked'
  | 'wins'
  | 'losses'
  | 'pushes'
  | 'netResult'
  | 'commissionDeducted'
  | 'cashedOut'
  | 'chips'
>;

/** REST calls as a token: `once` (no retry) and `command` (retried once, with the same key, when no answer came back). */
function restCalls(token: string, fetchFn: Fetch) {
  const once = <T>(method: string, path: string, body: unknown, key: string | undefined): Promise<T> =>
    request<T>(token, method, path, body, { fetchFn, idempotencyKey: key });
  async function command<T>(method: string, path: string, body?: unknown, key = newKey()): Promise<T> {
    try {
      return await once<T>(method, path, body, key);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NETWORK') return once<T>(method, path, body, key);
      throw error;
    }
  }
  return { once, command };
}

/**
 * A command over the socket: its ack's body, or the route's refusal thrown as an ApiError; `null` when the socket
 * cannot carry it (the caller sends it over REST with the same key).
 */
async function overSocket<T>(
  socket: PlayerSocket | null,
  message: Record<string, unknown> & { readonly type: string; readonly key: string },
): Promise<{ readonly value: T } | null> {
  if (!socket) return null;
  try {
    const ack = await socket.command(message);
    if (ack.status < 300) return { value: ack.body as T };
    const error = (ack.body ?? {}) as { code?: unknown; message?: unknown };
    throw new ApiError(ack.status, String(error.code ?? `HTTP_${ack.status}`), String(error.message ?? ''));
  } catch (error) {
    if (error instanceof SocketUnavailable) return null;
    throw error;
  }
}

type Send = <T>(
  message: { readonly type: string } & Record<string, unknown>,
  method: string,
  path: string,
  body?: unknown,
) => Promise<T>;

/** Bet, clear and rebet: each a socket message and, should the socket not carry it, its REST route. */
function bettingCalls(send: Send) {
  const r = (tableId: string, roundNo: number) => `/tables/${encodeURIComponent(tableId)}/rounds/${roundNo}`;
  return {
    bet: (tableId: string, roundNo: number, playerId: string, spot: Spot, amount: number) =>
      send<BetAnswer>(
        { type: 'bet', tableId, roundNo, playerId, spot, amount },
        'POST',
        `${r(tableId, roundNo)}/bets`,
        {
          playerId,
          spot,
          amount,
        },
      ),
    clear: (tableId: string, roundNo: number, playerId: string) =>
      send<unknown>(
        { type: 'clear', tableId, roundNo, playerId },
        'DELETE',
        `${r(tableId, roundNo)}/bets/${encodeURIComponent(playerId)}`,
      ),
    rebet: (tableId: string, roundNo: number, playerId: string) =>
      send<unknown>({ type: 'rebet', tableId, roundNo, playerId }, 'POST', `${r(tableId, roundNo)}/rebet`, {
        playerId,
      }),
  };
}

/**
 * The player page's client. A command is retried once, with the same key, when no answer came back. With a socket
 * (`live`, made when the table is opened and again after `dispose`), bets, clears and rebets go over it first.
 */
export function playerClient(
  token: string,
  fetchFn: Fetch = (i, init) => fetch(i, init),
  live?: () => PlayerSocket,
) {
  const { once, command } = restCalls(token, fetchFn);
  let socket: PlayerSocket | null = null;
  const listeners = new Set<(event: TableEvent) => void>();
  /** A bet, clear or rebet: over the socket when it can carry it (its ack is the route's answer), else over REST. */
  const betting: Send = async <T>(
    message: { readonly type: string } & Record<string, unknown>,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> => {
    const key = newKey();
    const sent = await overSocket<T>(socket, { ...message, key });
    return sent ? sent.value : command<T>(method, path, body, key);
  };
  const t = (tableId: string) => `/tables/${encodeURIComponent(tableId)}`;
  const r = (tableId: string, roundNo: number) => `${t(tableId)}/rounds/${roundNo}`;
  const online = (tableId: string) => `/online/tables/${encodeURIComponent(tableId)}`;
  return {
    open: async () => {
      const answer = await command<OpenAnswer>('POST', '/online/tables');
      if (live && socket === null) {
        socket = live();
        socket.onEvent((e) => listeners.forEach((l) => l(e)));
      }
      socket?.follow(answer.tableId);
      return answer;
    },
    /** The followed table's events as the socket receives them (none without one); returns the unsubscribe. */
    onEvent: (listener: (event: TableEvent) => void): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Closes the socket (a later open makes a new one). */
    dispose: () => {
      socket?.dispose();
      socket = null;
    },
    view: (tableId: string) => once<TableView>('GET', t(tableId), undefined, undefined),
    buyIn: (tableId: string, amount: number) =>
      command<unknown>('POST', `${online(tableId)}/buy-in`, { amount }),
    exit: (tableId: string) => command<{ paid?: number }>('POST', `${online(tableId)}/exit`),
    ...bettingCalls(betting),
    deal: (tableId: string, roundNo: number) => command<DealAnswer>('POST', `${r(tableId, roundNo)}/deal`),
    ledger: (playerId: string, tableId: string) =>
      once<{ accounts: LedgerAccount[] }>(
        'GET',
        `/players/${encodeURIComponent(playerId)}/ledger?tableId=${encodeURIComponent(tableId)}&limit=1`,
        undefined,
        undefined,
      ),
  };
}

/** What the page calls (the route closes the client's socket: `dispose`); a client without a socket pushes no events. */
export type PlayerApi = Omit<ReturnType<typeof playerClient>, 'dispose' | 'onEvent'> &
  Partial<Pick<ReturnType<typeof playerClient>, 'onEvent'>>;

/** The service keeps at most this many events for a resume; older history is cut there. */
const MAX_REPLAY = 2000;

/**
 * The table's events (as this player may see them), read over the WebSocket: subscribe from the start, collect
 * until the service says `resumed`, close. A long table is read from its last {@link MAX_REPLAY} events.
 */
export function loadEvents(
  tableId: string,
  token: string,
  connect: (url: string) => WebSocket = (u) => new WebSocket(u),
  timeoutMs = 10_000,
): Promise<TableEvent[]> {
  const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = connect(`${proto}://${window.location.host}/ws?token=${encodeURIComponent(token)}`);
  const events: TableEvent[] = [];
  return new Promise<TableEvent[]>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('the history did not arrive in time')), timeoutMs);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      ws.onmessage = null;
      ws.onclose = null;
      ws.close();
      if (error) reject(error);
      else resolve(events);
    };
    const subscribe = (fromRevision: number) =>
      ws.send(JSON.stringify({ type: 'subscribe', tableId, fromRevision }));
    ws.onopen = () => subscribe(-1);
    ws.onerror = () => finish(new Error('the live connection failed'));
    ws.onclose = () => finish(new Error('the live connection closed'));
    ws.onmessage = (m: MessageEvent) => {
      const msg = JSON.parse(String(m.data)) as {
        type: string;
        revision?: number | string;
        event?: TableEvent;
        message?: string;
      };
      if (msg.type === 'event' && msg.event) events.push(msg.event);
      else if (msg.type === 'resumed') finish();
      else if (msg.type === 'view') subscribe(Math.max(-1, Number(msg.revision) - MAX_REPLAY + 1));
      else if (msg.type === 'error') finish(new Error(msg.message ?? 'the service refused the history'));
    };
  });
}
