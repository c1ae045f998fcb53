/**
 * The live gateway with a real (memory) store and table processor, and fake sockets: a stuck client whose send
 * buffer has filled is dropped (close 4008, resume later) while the others keep receiving every event.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { TokenVerifier, signToken } from '@coup/auth';
import { createEventStore } from '@coup/event-store';
import type { TableCommand } from '@coup/table';
import { Metrics } from '../common/metrics';
import { EventStoreHandle } from '../store/event-store.provider';
import { TableProcessor } from '../tables/table-processor';
import { LiveGateway } from './live.gateway';

const SECRET = 'g'.repeat(40);

class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: { type: string; event?: { type: string } }[] = [];
  closed: { code: number; reason: string } | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { type: string });
  }
  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = 3;
  }
}

const at = () => new Date().toISOString();
const cmd = (type: TableCommand['type'], data: object, role: 'admin' | 'dealer' = 'admin') =>
  ({ type, data, meta: { actor: { id: `${role}-1`, role }, at: at() } }) as TableCommand;

async function settle(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('slow and stuck live clients', () => {
  it('a client that cannot keep up is dropped; the others get every event and the table keeps deciding', async () => {
    const handle = new EventStoreHandle(createEventStore({ kind: 'memory' }), 'memory');
    const tables = new TableProcessor(handle.store, new Metrics(false), { snapshotEvery: 1000 });
    const gateway = new LiveGateway(handle, tables, new TokenVerifier(SECRET));
    await tables.execute('S1', cmd('OpenTable', { tableId: 'S1', rules: { dealing: 'rng' } }));
    await tables.execute('S1', cmd('BuyIn', { playerId: 'p1', amount: 1_000_000 }));
    await tables.execute('S1', cmd('StartShoe', { seed: 'ab'.repeat(32) }, 'dealer'));
    await tables.execute('S1', cmd('OpenBetting', {}, 'dealer'));
    await gateway.start();

    const token = signToken(SECRET, { sub: 'd1', role: 'dealer' });
    const connect = () => {
      const socket = new FakeSocket();
      gateway.handleConnection(
        socket as unknown as WebSocket,
        { url: `/ws?token=${token}`, headers: {} } as IncomingMessage,
      );
      socket.emit('message', Buffer.from(JSON.stringify({ type: 'subscribe', tableId: 'S1' })));
      return socket;
    };
    const fast = connect();
    const stuck = connect();
    await settle(() => fast.sent.some((m) => m.type === 'view') && stuck.sent.some((m) => m.type === 'view'));

    stuck.bufferedAmount = 64 << 20; // its peer stopped reading: 64 MiB waiting
    const bets = await Promise.all(
      Array.from({ length: 200 }, () =>
        tables.execute(
          'S1',
          cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 100 }, 'dealer'),
        ),
      ),
    );
    expect(bets).toHaveLength(200);
    await settle(() => fast.sent.filter((m) => m.event?.type === 'BetPlaced').length === 200);

    expect(fast.sent.filter((m) => m.event?.type === 'BetPlaced')).toHaveLength(200);
    expect(fast.closed).toBeNull();
    expect(stuck.closed).toEqual({ code: 4008, reason: expect.stringContaining('resume') });
    expect(stuck.sent.filter((m) => m.type === 'event')).toHaveLength(0);

    await gateway.onModuleDestroy();
    await tables.shutdown();
    await handle.store.close();
  });
});
