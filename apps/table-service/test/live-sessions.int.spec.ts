/**
 * The live socket's token is checked again on each subscribe and command, not only when it connects: a staff
 * token whose account moved on since (a change no staff event has brought to the live feed yet, as when another
 * process made it) is found by folding the staff stream before the check, and its socket is closed. A staff token
 * this process cannot place yet at connect waits for the fold instead of being refused. Fake sockets, a memory
 * store, a stand-in staff directory.
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { signToken, TokenError, TokenVerifier } from '@coup/auth';
import { createEventStore } from '@coup/event-store';
import { Metrics } from '../src/common/metrics';
import { LiveGateway } from '../src/live/live.gateway';
import { DEFAULT_LIVE_LIMITS } from '../src/live/live.limits';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { LogFollowers } from '../src/store/log-follower';
import { TableProcessor } from '../src/tables/table-processor';
import { FakeSocket, cmd, settle } from './live-fake';

const SECRET = 'h'.repeat(40);

/** The staff directory as the process has folded it (`folded`), and as the stream holds it (`stored`). */
class StandInStaff {
  folded = new Map<string, number>();
  stored = new Map<string, number>();
  folds = 0;
  async fresh(): Promise<void> {
    this.folds++;
    await Promise.resolve();
    this.folded = new Map(this.stored);
  }
  readonly check = (principal: { id: string; generation: number }) => {
    if (this.folded.get(principal.id) !== principal.generation)
      throw new TokenError('TOKEN_REVOKED', 'this sign-in has ended: sign in again');
  };
}

async function rig() {
  const handle = new EventStoreHandle(createEventStore({ kind: 'memory' }), 'memory');
  const tables = new TableProcessor(handle.store, new Metrics(false), { snapshotEvery: 1000 });
  const staff = new StandInStaff();
  const gateway = new LiveGateway(
    handle,
    tables,
    new TokenVerifier(SECRET, { sessions: staff.check }),
    { ...DEFAULT_LIVE_LIMITS, messagesPerSecond: 1000 },
    null,
    new LogFollowers(),
    null,
    staff,
  );
  const admin = { id: 'admin-1', role: 'admin' as const };
  await tables.execute('S1', cmd('OpenTable', { tableId: 'S1', rules: { dealing: 'rng' } }, admin));
  await gateway.start();
  const connect = (sub: string, generation: number) => {
    const socket = Object.assign(new FakeSocket(), { pause: jest.fn(), resume: jest.fn() });
    const token = signToken(SECRET, {
      sub,
      role: 'supervisor',
      session: { roles: ['supervisor'], generation },
    });
    gateway.handleConnection(
      socket as unknown as WebSocket,
      {
        url: `/ws?token=${token}`,
        headers: {},
        socket: { remoteAddress: '127.0.0.1' },
      } as unknown as IncomingMessage,
    );
    return socket;
  };
  const close = async () => {
    await gateway.onModuleDestroy();
    await tables.shutdown();
    await handle.store.close();
  };
  return { staff, connect, close };
}

const ended = (socket: FakeSocket) => {
  expect(socket.closed).toEqual({ code: 4401, reason: 'TOKEN_REVOKED' });
  expect(socket.sent.at(-1)).toMatchObject({ type: 'error', statusCode: 401, code: 'UNAUTHENTICATED' });
};

it('a subscribe folds the staff stream and checks the token again: an account moved on ends the socket', async () => {
  const { staff, connect, close } = await rig();
  staff.stored.set('sue', 0);
  await staff.fresh();
  const socket = connect('sue', 0);
  expect(socket.sent[0]).toMatchObject({ type: 'hello', id: 'sue' });
  socket.message({ type: 'subscribe', tableId: 'S1', every: true });
  await settle(() => socket.sent.some((f) => f.type === 'view'), 'the view');

  staff.stored.set('sue', 1); // signed out elsewhere: nothing has told this process
  const folds = staff.folds;
  socket.message({ type: 'subscribe', tableId: 'S1', every: true });
  await settle(() => socket.closed !== null, 'the close');
  ended(socket);
  expect(staff.folds).toBe(folds + 1);
  expect(socket.sent.filter((f) => f.type === 'view')).toHaveLength(1);
  await close();
});

it('a command checks the token again before anything else: no ack, the socket ended', async () => {
  const { staff, connect, close } = await rig();
  staff.stored.set('sue', 0);
  await staff.fresh();
  const kept = connect('sue', 0);
  const bet = {
    type: 'bet',
    key: 'k1',
    tableId: 'S1',
    roundNo: 1,
    playerId: 'p1',
    spot: 'player',
    amount: 100,
  };
  kept.message(bet);
  // This gateway takes no commands: with a token that holds, the ack says so.
  await settle(() => kept.sent.some((f) => f.type === 'ack'), 'the ack');
  expect(kept.sent.find((f) => f.type === 'ack')).toMatchObject({ status: 503 });

  staff.stored.set('sue', 1);
  kept.message({ ...bet, key: 'k2' });
  await settle(() => kept.closed !== null, 'the close');
  ended(kept);
  expect(kept.sent.filter((f) => f.type === 'ack')).toHaveLength(1);
  await close();
});

it('a staff token from a sign-in this process has not folded yet connects once the stream is folded', async () => {
  const { staff, connect, close } = await rig();
  staff.stored.set('ann', 2); // signed in on another process
  const socket = connect('ann', 2);
  expect(socket.pause).toHaveBeenCalled();
  await settle(() => socket.sent.length > 0, 'the hello');
  expect(socket.sent[0]).toMatchObject({ type: 'hello', id: 'ann' });
  expect(socket.resume).toHaveBeenCalled();
  expect(socket.closed).toBeNull();
  // A token the stream does not hold is refused after the fold, as at once.
  const stale = connect('ann', 1);
  await settle(() => stale.closed !== null, 'the refusal');
  expect(stale.closed).toEqual({ code: 4401, reason: 'UNAUTHENTICATED' });
  await close();
});
