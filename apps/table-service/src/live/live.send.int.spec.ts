import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import type { Principal } from '@coup/auth';
import { Metrics } from '../common/metrics';
import { LiveClients, type Client } from './live.clients';
import { LiveSender } from './live.send';

/** A real socket pair on a random port: the server's end as a live client, and what the other end receives. */
async function pair(): Promise<{ client: Client; received: string[]; close: () => Promise<void> }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const peer = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const received: string[] = [];
  peer.on('message', (data) => received.push(String(data)));
  const [socket] = (await accepted) as [WebSocket];
  await once(peer, 'open');
  const clients = new LiveClients(10);
  const client = clients.admit(
    socket,
    { principal: { id: 'p1', role: 'player' } as Principal, token: '', expiresAt: null },
    100,
    '127.0.0.1',
  )!;
  const close = async () => {
    peer.terminate();
    server.close();
    await once(server, 'close');
  };
  return { client, received, close };
}

const tcpOf = (client: Client) => (client.socket as unknown as { _socket: Socket })._socket;
const bucketCount = async (metrics: Metrics, name: string) =>
  (await metrics.registry.getSingleMetric(name)!.get()).values.find(
    (v) => (v as { metricName?: string }).metricName === `${name}_count`,
  )?.value ?? 0;

describe('LiveSender', () => {
  it("writes a socket's frames of one turn together, in order, after the turn; then the timings", async () => {
    const { client, received, close } = await pair();
    try {
      const metrics = new Metrics(false);
      const sender = new LiveSender(new LiveClients(10), 1 << 20, metrics);
      const order: string[] = [];
      for (const n of [1, 2, 3]) sender.send(client, { n });
      sender.ackWritten(performance.now());
      sender.eventWritten('all', new Date().toISOString());
      sender.whenWritten(() => order.push('written'));
      // Held in the corked socket for the rest of the turn.
      expect(tcpOf(client).writableCorked).toBe(1);
      expect(tcpOf(client).writableLength).toBeGreaterThan(0);
      expect(order).toEqual([]);
      expect(await bucketCount(metrics, 'coup_live_ack_seconds')).toBe(0);

      await new Promise((resolve) => setImmediate(resolve));
      expect(tcpOf(client).writableCorked).toBe(0);
      expect(order).toEqual(['written']);
      expect(await bucketCount(metrics, 'coup_live_ack_seconds')).toBe(1);
      expect(await bucketCount(metrics, 'coup_live_frame_seconds')).toBe(1);
      for (let i = 0; i < 100 && received.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
      expect(received).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    } finally {
      await close();
    }
  });

  it('a fast client sent more than the limit in one turn is not dropped: its corked frames go to the kernel first', async () => {
    const { client, received, close } = await pair();
    try {
      const clients = new LiveClients(10);
      const dropped: Client[] = [];
      clients.drop = (c: Client) => void dropped.push(c);
      // 64 KiB: a catch-up page of 300 frames of ~300 bytes passes it within one turn, all of it corked.
      const sender = new LiveSender(clients, 64 * 1024);
      const frame = JSON.stringify({ pad: 'x'.repeat(290) });
      for (let n = 0; n < 300; n++) sender.frame(client, Buffer.from(frame));
      expect(dropped).toEqual([]);
      expect(client.socket.readyState).toBe(WebSocket.OPEN);
      await new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < 200 && received.length < 300; i++) await new Promise((r) => setTimeout(r, 10));
      expect(received).toHaveLength(300);
    } finally {
      await close();
    }
  });

  it('runs what waits for the frames at once when nothing is corked', () => {
    const sender = new LiveSender(new LiveClients(10), 1 << 20);
    const order: string[] = [];
    sender.whenWritten(() => order.push('written'));
    expect(order).toEqual(['written']);
  });
});
