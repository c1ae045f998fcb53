/**
 * The live gateway with a real (memory) store and table processor, and fake sockets: a stuck client whose send
 * buffer has filled is dropped (close 4008, resume later) while the others keep receiving every event; a resume
 * reads in pages and lets the event loop run between them; a later subscribe supersedes one still reading; a
 * subscribe to a table that does not exist keeps nothing; a failing store answers an error frame, never an
 * unhandled rejection.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { TokenVerifier, signToken, type Role } from '@coup/auth';
import { createEventStore, type EventStore } from '@coup/event-store';
import type { TableCommand } from '@coup/table';
import { Metrics } from '../common/metrics';
import { EventStoreHandle } from '../store/event-store.provider';
import { TableProcessor } from '../tables/table-processor';
import { LiveGateway, RESUME_PAGE } from './live.gateway';
import { DEFAULT_LIVE_LIMITS } from './live.limits';

const SECRET = 'g'.repeat(40);

interface Sent {
  type: string;
  revision?: number;
  code?: string;
  statusCode?: number;
  event?: { type: string };
}

class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Sent[] = [];
  closed: { code: number; reason: string } | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Sent);
  }
  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = 3;
  }
  message(value: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(value)), false);
  }
  after(type: string): Sent[] {
    return this.sent.slice(this.sent.findIndex((m) => m.type === type) + 1);
  }
}

const at = () => new Date().toISOString();
const cmd = (type: TableCommand['type'], data: object, role: 'admin' | 'dealer' = 'admin') =>
  ({ type, data, meta: { actor: { id: `${role}-1`, role }, at: at() } }) as TableCommand;

async function settle(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** A gateway on a memory store (optionally wrapped) with table S1 open for bets. */
async function setup(wrap: (store: EventStore) => EventStore = (s) => s) {
  const handle = new EventStoreHandle(wrap(createEventStore({ kind: 'memory' })), 'memory');
  const tables = new TableProcessor(handle.store, new Metrics(false), { snapshotEvery: 1000 });
  const gateway = new LiveGateway(handle, tables, new TokenVerifier(SECRET), {
    ...DEFAULT_LIVE_LIMITS,
    messagesPerSecond: 1000,
  });
  await tables.execute('S1', cmd('OpenTable', { tableId: 'S1', rules: { dealing: 'rng' } }));
  await tables.execute('S1', cmd('BuyIn', { playerId: 'p1', amount: 100_000_000 }));
  await tables.execute('S1', cmd('StartShoe', { seed: 'ab'.repeat(32) }, 'dealer'));
  await tables.execute('S1', cmd('OpenBetting', {}, 'dealer'));
  await gateway.start();
  const bet = () =>
    tables.execute(
      'S1',
      cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 100 }, 'dealer'),
    );
  const connect = (role: Role = 'dealer', sub = 'd1') => {
    const socket = new FakeSocket();
    const token = signToken(SECRET, { sub, role });
    gateway.handleConnection(
      socket as unknown as WebSocket,
      { url: `/ws?token=${token}`, headers: {} } as IncomingMessage,
    );
    return socket;
  };
  const close = async () => {
    await gateway.onModuleDestroy();
    await tables.shutdown();
    await handle.store.close();
  };
  return { handle, tables, gateway, bet, connect, close };
}

describe('slow and stuck live clients', () => {
  it('a client that cannot keep up is dropped; the others get every event and the table keeps deciding', async () => {
    const { bet, connect, close } = await setup();
    const subscribed = () => {
      const socket = connect();
      socket.message({ type: 'subscribe', tableId: 'S1', every: true });
      return socket;
    };
    const fast = subscribed();
    const stuck = subscribed();
    await settle(() => fast.sent.some((m) => m.type === 'view') && stuck.sent.some((m) => m.type === 'view'));

    stuck.bufferedAmount = 64 << 20; // its peer stopped reading: 64 MiB waiting
    const bets = await Promise.all(Array.from({ length: 200 }, bet));
    expect(bets).toHaveLength(200);
    await settle(() => fast.sent.filter((m) => m.event?.type === 'BetPlaced').length === 200);

    expect(fast.sent.filter((m) => m.event?.type === 'BetPlaced')).toHaveLength(200);
    expect(fast.closed).toBeNull();
    expect(stuck.closed).toEqual({ code: 4008, reason: expect.stringContaining('resume') });
    expect(stuck.sent.filter((m) => m.type === 'event')).toHaveLength(0);
    await close();
  });
});

describe('resumes', () => {
  it('a resume reads in pages and lets the event loop run between them', async () => {
    const { bet, connect, close } = await setup();
    for (let i = 0; i < 5 * RESUME_PAGE; i++) await bet();
    const socket = connect();
    socket.message({ type: 'subscribe', tableId: 'S1', fromRevision: 0, every: true });
    // The event loop's next turn comes while the resume is still reading (before, the whole resume ran first).
    const seenAtNextTurn = await new Promise<number>((resolve) =>
      setImmediate(() => resolve(socket.sent.filter((m) => m.type === 'event').length)),
    );
    await settle(() => socket.sent.some((m) => m.type === 'resumed'));
    const events = socket.sent.filter((m) => m.type === 'event');
    expect(seenAtNextTurn).toBeLessThan(events.length);
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i + 1));
    await close();
  });

  it('a later subscribe supersedes one still reading: only its answer is sent, and every event once', async () => {
    const { bet, connect, close } = await setup();
    for (let i = 0; i < 3 * RESUME_PAGE; i++) await bet();
    const socket = connect();
    socket.message({ type: 'subscribe', tableId: 'S1', fromRevision: 0 });
    socket.message({ type: 'subscribe', tableId: 'S1', every: true });
    await settle(() => socket.sent.some((m) => m.type === 'view'));
    await bet();
    await settle(() => socket.after('view').length > 0);
    expect(socket.sent.map((m) => m.type)).toEqual(['hello', 'view', 'event']);
    expect(socket.sent[2]!.revision).toBe(socket.sent[1]!.revision! + 1);
    await close();
  });

  it('a subscribe to a table that does not exist answers 404 and follows nothing, even once the table appears', async () => {
    const { tables, connect, close } = await setup();
    const sessions = tables.sessionCount;
    const socket = connect('admin', 'a1');
    socket.message({ type: 'subscribe', tableId: 'NEW' });
    await settle(() => socket.sent.some((m) => m.type === 'error'));
    expect(socket.sent.at(-1)).toMatchObject({ statusCode: 404, code: 'UNKNOWN_TABLE' });
    expect(tables.sessionCount).toBe(sessions);
    await tables.execute('NEW', cmd('OpenTable', { tableId: 'NEW', rules: { dealing: 'rng' } }));
    socket.message({ type: 'ping' });
    await settle(() => socket.sent.some((m) => m.type === 'pong'));
    expect(socket.sent.filter((m) => m.type === 'event')).toEqual([]);
    await close();
  });
});

describe('failures inside a handler', () => {
  it('a store that fails mid-subscribe answers an error frame and leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let failing = false;
      const { connect, close } = await setup(
        (store) =>
          new Proxy(store, {
            get(target, key, receiver) {
              if (key === 'streamHead' && failing) return () => Promise.reject(new Error('disk on fire'));
              const value = Reflect.get(target, key, receiver) as unknown;
              return typeof value === 'function'
                ? (value as (...a: unknown[]) => unknown).bind(target)
                : value;
            },
          }),
      );
      const socket = connect();
      failing = true;
      socket.message({ type: 'subscribe', tableId: 'S1' });
      await settle(() => socket.sent.some((m) => m.type === 'error'));
      failing = false;
      expect(socket.sent.at(-1)).toMatchObject({ type: 'error', statusCode: 500, code: 'INTERNAL_ERROR' });
      // The socket is whole: it subscribes again and is answered.
      socket.message({ type: 'subscribe', tableId: 'S1' });
      await settle(() => socket.sent.some((m) => m.type === 'view'));
      expect(socket.closed).toBeNull();
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      await close();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
