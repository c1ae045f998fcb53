import { ApiError } from '../api';
import { playerClient } from './playerApi';
import { PlayerSocket, SocketUnavailable, type PlayerSocketLike } from './playerSocket';

/** A scripted browser socket: records what is sent, lets the test play the service. */
class FakeSocket {
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  readyState = 0;
  readonly sent: Record<string, unknown>[] = [];
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  serve(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason: '' });
  }
}

function rig() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; done: boolean }[] = [];
  const socket = new PlayerSocket({
    url: 'ws://x/ws?token=t',
    connect: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s as unknown as PlayerSocketLike;
    },
    setTimer: (fn, ms) => {
      const t = { fn, ms, done: false };
      timers.push(t);
      return t;
    },
    clearTimer: (h) => {
      (h as { done: boolean }).done = true;
    },
  });
  const runTimers = () => {
    for (const t of timers.splice(0)) if (!t.done) t.fn();
  };
  return { socket, sockets, runTimers };
}

describe('PlayerSocket', () => {
  it('follows its table (again after a reconnect) and resolves a command with its ack', async () => {
    const { socket, sockets, runTimers } = rig();
    socket.follow('online-p1');
    const s = sockets[0]!;
    s.open();
    expect(s.sent).toEqual([{ type: 'subscribe', tableId: 'online-p1' }]);
    const acked = socket.command({ type: 'bet', key: 'k1', amount: 100 });
    expect(s.sent.at(-1)).toEqual({ type: 'bet', key: 'k1', amount: 100 });
    s.serve({ type: 'ack', key: 'other', status: 201, body: {} });
    s.serve({ type: 'ack', key: 'k1', status: 201, body: { spotTotal: 100 } });
    await expect(acked).resolves.toEqual({ status: 201, body: { spotTotal: 100 } });

    const lost = socket.command({ type: 'clear', key: 'k2' });
    s.drop();
    await expect(lost).rejects.toBeInstanceOf(SocketUnavailable);
    runTimers();
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([{ type: 'subscribe', tableId: 'online-p1' }]);
    socket.dispose();
  });

  it('refuses a command it cannot carry: not connected, or no ack in time', async () => {
    const { socket, sockets, runTimers } = rig();
    await expect(socket.command({ type: 'bet', key: 'k1' })).rejects.toBeInstanceOf(SocketUnavailable);
    sockets[0]!.open();
    const waiting = socket.command({ type: 'bet', key: 'k2' });
    runTimers();
    await expect(waiting).rejects.toThrow('no answer in time');
    socket.dispose();
  });
});

describe('playerClient events', () => {
  it("hands the followed table's pushed events to its listeners, until they unsubscribe", async () => {
    const { socket, sockets } = rig();
    const api = playerClient(
      'tok',
      async () =>
        ({
          ok: true,
          status: 201,
          text: async () => JSON.stringify({ tableId: 'online-p1', revision: 1, view: {} }),
        }) as unknown as Response,
      () => socket,
    );
    const seen: string[] = [];
    const stop = api.onEvent((e) => seen.push(e.type));
    await api.open();
    const s = sockets[0]!;
    s.open();
    const voided = { type: 'SettledCoupVoided', data: { roundNo: 4 } };
    s.serve({ type: 'event', tableId: 'online-p1', revision: 9, event: voided });
    s.serve({ type: 'ack', key: 'k', status: 201, body: {} });
    s.serve({ type: 'bets', tableId: 'online-p1', revision: 10 });
    expect(seen).toEqual(['SettledCoupVoided']);
    stop();
    s.serve({ type: 'event', tableId: 'online-p1', revision: 11, event: voided });
    expect(seen).toEqual(['SettledCoupVoided']);
    api.dispose();
  });
});

describe('playerClient with a socket', () => {
  it('bets over the socket; a refusal in the ack is thrown as the route would; a lost socket falls back to REST with the same key', async () => {
    const { socket, sockets } = rig();
    const requests: { path: string; key: string | undefined }[] = [];
    const api = playerClient(
      'tok',
      async (input, init) => {
        const path = String(input);
        requests.push({ path, key: (init?.headers as Record<string, string>)['idempotency-key'] });
        const body = path.endsWith('/online/tables')
          ? { tableId: 'online-p1', revision: 1, view: {} }
          : { spot: 'player', amount: 100, spotTotal: 100 };
        return { ok: true, status: 201, text: async () => JSON.stringify(body) } as unknown as Response;
      },
      () => socket,
    );
    await api.open();
    const s = sockets[0]!;
    s.open();
    expect(s.sent).toEqual([{ type: 'subscribe', tableId: 'online-p1' }]);

    const placed = api.bet('online-p1', 3, 'p1', 'player', 100);
    const sent = s.sent.at(-1)!;
    expect(sent).toMatchObject({
      type: 'bet',
      tableId: 'online-p1',
      roundNo: 3,
      playerId: 'p1',
      spot: 'player',
      amount: 100,
    });
    s.serve({ type: 'ack', key: sent['key'], status: 201, body: { spotTotal: 100 } });
    await expect(placed).resolves.toEqual({ spotTotal: 100 });

    const refused = api.clear('online-p1', 3, 'p1');
    s.serve({
      type: 'ack',
      key: s.sent.at(-1)!['key'],
      status: 409,
      body: { code: 'BETTING_CLOSED', message: 'no more bets' },
    });
    await expect(refused).rejects.toEqual(new ApiError(409, 'BETTING_CLOSED', 'no more bets'));

    const rebet = api.rebet('online-p1', 3, 'p1');
    const key = s.sent.at(-1)!['key'];
    s.drop();
    await expect(rebet).resolves.toEqual({ spot: 'player', amount: 100, spotTotal: 100 });
    expect(requests.at(-1)).toEqual({ path: '/api/tables/online-p1/rounds/3/rebet', key });
    api.dispose();
  });
});
