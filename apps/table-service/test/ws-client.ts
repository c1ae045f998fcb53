/** A WebSocket test client for the live push: collects every frame and the close, and waits for what it needs. */
import WebSocket from 'ws';

export interface Frame {
  type: string;
  revision?: number;
  statusCode?: number;
  code?: string;
  message?: string;
  event?: { type: string; data: Record<string, unknown> };
  view?: Record<string, unknown>;
  [k: string]: unknown;
}

export class WsClient {
  readonly frames: Frame[] = [];
  /** When each frame arrived (ms since the epoch), by index in `frames`. */
  readonly arrivedAt: number[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      this.frames.push(JSON.parse(raw.toString()) as Frame);
      this.arrivedAt.push(Date.now());
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    // A refused upgrade or a reset connection is seen as the close; the test asserts on that.
    socket.on('error', () => undefined);
  }

  /** Opens a socket; resolves once it is open (or closed first, e.g. when the server refuses the upgrade). */
  static async open(url: string): Promise<WsClient> {
    const client = new WsClient(new WebSocket(url));
    await new Promise<void>((resolve) => {
      client.socket.once('open', () => resolve());
      client.socket.once('close', () => resolve());
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.socket.send(data, { binary });
  }

  /** Waits until the frames received satisfy `predicate`; fails if the socket closes first or after `timeoutMs`. */
  async until(predicate: (frames: Frame[]) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.frames)) {
      if (this.closed || Date.now() > deadline)
        throw new Error(
          `gave up waiting for ${what} (${this.closed ? `closed ${this.closed.code}` : 'timeout'}); last frames ${JSON.stringify(this.frames.slice(-5)).slice(0, 2000)}`,
        );
      await this.next(Math.max(1, deadline - Date.now()));
    }
  }

  /** Waits for the socket to close (by either side). */
  async untilClosed(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('the socket did not close');
      await this.next(deadline - Date.now());
    }
    return this.closed;
  }

  errors(): Frame[] {
    return this.frames.filter((f) => f.type === 'error');
  }

  events(): Frame[] {
    return this.frames.filter((f) => f.type === 'event');
  }

  close(): void {
    this.socket.close();
  }

  private next(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/** One REST call to a service at `base`; the body parsed when it is JSON. */
export async function rest(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (metrics)
  }
  return { status: res.status, body: parsed };
}

/**
 * Opens an rng table with one player bought in, a shoe and an open round; returns a function that places one bet
 * (one event) and the round's number.
 */
export async function openTableForBets(
  base: string,
  tokens: { admin: string; dealer: string; player: string },
  tableId: string,
  playerId: string,
  /** The table's rules, and the spots the bets take in turn (a side-bet table's side spots, say). */
  options: { rules?: Record<string, unknown>; spots?: readonly string[] } = {},
): Promise<{ roundNo: number; bet: () => Promise<number> }> {
  const ok = (r: { status: number; body: unknown }, what: string) => {
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  };
  const rules = options.rules ?? { dealing: 'rng' };
  const spots = options.spots ?? ['player'];
  let bets = 0;
  ok(await rest(base, tokens.admin, 'POST', '/api/tables', { tableId, rules }), 'open');
  ok(
    await rest(base, tokens.admin, 'POST', `/api/tables/${tableId}/players/${playerId}/buy-in`, {
      amount: 100_000_000,
    }),
    'buy-in',
  );
  ok(await rest(base, tokens.dealer, 'POST', `/api/tables/${tableId}/shoes`), 'shoe');
  const { roundNo } = ok(await rest(base, tokens.dealer, 'POST', `/api/tables/${tableId}/rounds`), 'round')
    .body as { roundNo: number };
  const bet = async () =>
    ok(
      await rest(base, tokens.player, 'POST', `/api/tables/${tableId}/rounds/${roundNo}/bets`, {
        playerId,
        spot: spots[bets++ % spots.length],
        amount: 100,
      }),
      'bet',
    ).status;
  return { roundNo, bet };
}
