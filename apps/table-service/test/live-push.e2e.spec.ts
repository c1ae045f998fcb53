/**
 * Live push over a real WebSocket: authentication, the view then every event in order, a resume without gap
 * or duplicate, what a player may see, and the timer's "no more bets" reaching every client.
 */
import WebSocket from 'ws';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startService();
  await h.api('POST', '/api/tables', { body: { tableId: 'W1', rules: { dealing: 'rng' } } });
  for (const p of ['p1', 'p2'])
    await h.api('POST', `/api/tables/W1/players/${p}/buy-in`, { body: { amount: 100_000 } });
  await h.api('POST', '/api/tables/W1/shoes', { token: h.token('dealer') });
});
afterAll(async () => {
  await h.close();
});

interface Message {
  type: string;
  revision?: number;
  event?: { type: string; data: Record<string, unknown> };
  view?: Record<string, any>;
  code?: string;
  [k: string]: unknown;
}

/** A test client: collects messages and waits for the ones it needs. */
class Client {
  readonly messages: Message[] = [];
  private waiters: (() => void)[] = [];
  closed: { code: number; reason: string } | null = null;
  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      this.messages.push(JSON.parse(raw.toString()) as Message);
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.waiters.splice(0)) w();
    });
  }
  static async open(url: string): Promise<Client> {
    const socket = new WebSocket(url);
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }
  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }
  async until(predicate: (messages: Message[]) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!predicate(this.messages)) {
      if (this.closed || Date.now() > deadline)
        throw new Error(`gave up waiting for ${what}; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
  events(): Message[] {
    return this.messages.filter((m) => m.type === 'event');
  }
  close(): void {
    this.socket.close();
  }
}

const wsUrl = (token: string) => `${h.url.replace('http', 'ws')}/ws?token=${token}`;

describe('live push', () => {
  it('refuses a socket without a valid token (401) and a subscription to a table the token may not use (403)', async () => {
    const anonymous = await Client.open(`${h.url.replace('http', 'ws')}/ws`);
    await anonymous.until(() => anonymous.closed !== null, 'close');
    expect(anonymous.messages[0]).toMatchObject({ type: 'error', statusCode: 401, code: 'UNAUTHENTICATED' });
    expect(anonymous.closed!.code).toBe(4401);

    const forged = await Client.open(wsUrl('x.y.z'));
    await forged.until(() => forged.closed !== null, 'close');
    expect(forged.messages[0]).toMatchObject({ statusCode: 401 });

    const limited = await Client.open(wsUrl(h.token('dealer', 'd2', ['OTHER'])));
    limited.send({ type: 'subscribe', tableId: 'W1' });
    await limited.until((m) => m.some((x) => x.type === 'error'), 'error');
    expect(limited.messages.find((x) => x.type === 'error')).toMatchObject({
      statusCode: 403,
      code: 'FORBIDDEN',
    });
    limited.close();
  });

  it('sends the view, then every event in order; a reconnect resumes from the last revision with no gap and no duplicate', async () => {
    const dealer = await Client.open(wsUrl(h.token('dealer')));
    dealer.send({ type: 'subscribe', tableId: 'W1', every: true });
    await dealer.until((m) => m.some((x) => x.type === 'view'), 'view');
    const view = dealer.messages.find((x) => x.type === 'view')!;
    expect(view.view!['tableId']).toBe('W1');
    expect(view.view!['shoe']['seed']).toBeNull();

    const { roundNo } = (await h.api('POST', '/api/tables/W1/rounds', { token: h.token('dealer') })).body;
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/bets`, {
      token: h.token('player', 'p1'),
      body: { playerId: 'p1', spot: 'player', amount: 1000 },
    });
    await dealer.until((m) => m.some((x) => x.event?.type === 'BetPlaced'), 'BetPlaced');
    const lastSeen = dealer.events().at(-1)!.revision!;
    dealer.close();

    // While disconnected, the table moves on.
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/bets`, {
      token: h.token('player', 'p2'),
      body: { playerId: 'p2', spot: 'banker', amount: 2000 },
    });
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/close`, { token: h.token('dealer') });
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/deal`, { token: h.token('dealer') });

    const again = await Client.open(wsUrl(h.token('dealer')));
    again.send({ type: 'subscribe', tableId: 'W1', fromRevision: lastSeen, every: true });
    await again.until((m) => m.some((x) => x.event?.type === 'CoupResolved'), 'CoupResolved');
    const revisions = again.events().map((e) => e.revision!);
    expect(revisions[0]).toBe(lastSeen + 1);
    revisions.forEach((r, i) => i > 0 && expect(r).toBe(revisions[i - 1]! + 1));
    expect(again.events().map((e) => e.event!.type)).toEqual(
      expect.arrayContaining(['BetPlaced', 'BettingClosed', 'CardDealt', 'CoupResolved']),
    );
    again.close();
  });

  it("a player sees its own bets and settlements, not other players'", async () => {
    const p1 = await Client.open(wsUrl(h.token('player', 'p1')));
    p1.send({ type: 'subscribe', tableId: 'W1' });
    await p1.until((m) => m.some((x) => x.type === 'view'), 'view');
    const { roundNo } = (await h.api('POST', '/api/tables/W1/rounds', { token: h.token('dealer') })).body;
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/bets`, {
      token: h.token('player', 'p2'),
      body: { playerId: 'p2', spot: 'banker', amount: 2000 },
    });
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/bets`, {
      token: h.token('player', 'p1'),
      body: { playerId: 'p1', spot: 'player', amount: 1000 },
    });
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/close`, { token: h.token('dealer') });
    await h.api('POST', `/api/tables/W1/rounds/${roundNo}/deal`, { token: h.token('dealer') });
    await p1.until((m) => m.some((x) => x.event?.type === 'CoupResolved'), 'CoupResolved');
    const bets = p1.events().filter((e) => e.event!.type === 'BetPlaced');
    expect(bets.map((b) => b.event!.data['playerId'])).toEqual(['p1']);
    const resolved = p1.events().find((e) => e.event!.type === 'CoupResolved')!;
    expect((resolved.event!.data['settlements'] as { playerId: string }[]).map((s) => s.playerId)).toEqual([
      'p1',
    ]);
    const view = p1.messages.find((x) => x.type === 'view')!.view!;
    expect((view['players'] as { playerId: string }[]).map((p) => p.playerId)).toEqual(['p1']);
    p1.close();
  });

  it("the betting timer's deadline and its automatic no-more-bets reach every client", async () => {
    await h.api('POST', '/api/tables', {
      body: { tableId: 'W2', rules: { dealing: 'rng', bettingSeconds: 1 } },
    });
    await h.api('POST', '/api/tables/W2/shoes', { token: h.token('dealer') });
    const clients = await Promise.all(
      [h.token('dealer'), h.token('analyst'), h.token('player', 'p9')].map((t) => Client.open(wsUrl(t))),
    );
    for (const c of clients) c.send({ type: 'subscribe', tableId: 'W2' });
    for (const c of clients) await c.until((m) => m.some((x) => x.type === 'view'), 'view');
    const opened = (await h.api('POST', '/api/tables/W2/rounds', { token: h.token('dealer') })).body;
    for (const c of clients) {
      await c.until((m) => m.some((x) => x.event?.type === 'BettingClosed'), 'BettingClosed');
      expect(c.events().find((e) => e.event!.type === 'BettingOpened')!.event!.data['deadline']).toBe(
        opened.deadline,
      );
      expect(c.events().find((e) => e.event!.type === 'BettingClosed')!.event!.data['by']).toBe('timer');
      c.close();
    }
  });

  it('answers bad messages with an error and keeps the socket', async () => {
    const c = await Client.open(wsUrl(h.token('analyst')));
    c.socket.send('not json');
    c.send({ type: 'subscribe', tableId: '../etc' });
    c.send({ type: 'subscribe', tableId: 'NOPE' });
    c.send({ type: 'ping' });
    await c.until((m) => m.some((x) => x.type === 'pong'), 'pong');
    expect(c.messages.filter((x) => x.type === 'error').map((x) => x.code)).toEqual([
      'INVALID_JSON',
      'INVALID_MESSAGE',
      'UNKNOWN_TABLE',
    ]);
    c.close();
  });
});
