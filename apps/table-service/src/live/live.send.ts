import type { Socket } from 'node:net';
import type { Metrics } from '../common/metrics';
import type { Client, LiveClients } from './live.clients';
import { serialize } from './live.frames';

/** Close codes of the live push (1009, a message over the size limit, is the `ws` server's own). */
export const CLOSE = {
  shuttingDown: 1001,
  internal: 1011,
  tooSlow: 4008,
  unauthenticated: 4401,
  tooManySockets: 4429,
} as const;

/** The TCP socket under a `ws` WebSocket (its `_socket`: `ws` has no public accessor), if any. */
function tcpOf(client: Client): Socket | undefined {
  return (client.socket as unknown as { _socket?: Socket })._socket;
}

/**
 * What the server sends a client: JSON text frames, most of them made once and shared (live.frames.ts). A socket
 * whose unsent bytes pass `maxBufferedBytes` cannot keep up: it is dropped (4008) and resumes from its last
 * revision, so a slow client never slows the table nor holds more memory than that.
 *
 * Frames sent in one turn of the event loop are written together: a socket's first frame of the turn corks its TCP
 * socket, and every corked socket is uncorked once the turn's I/O has run (setImmediate), each with one system
 * call for all its frames (a deal's cards and result, the totals before an event) instead of one per frame. The
 * order of a socket's frames is kept. Corked frames count in `bufferedAmount`, so a socket past the limit is uncorked
 * (its frames handed to the kernel) before it is judged: only what the kernel could not take counts as the client's.
 */
export class LiveSender {
  private readonly corked: Socket[] = [];
  /** Called once the turn's frames are written (handed to the kernel): the server-side timings. */
  private afterWrite: (() => void)[] = [];
  private uncorkScheduled = false;

  constructor(
    private readonly clients: LiveClients,
    private readonly maxBufferedBytes: number,
    private readonly metrics: Metrics | null = null,
  ) {}

  /** Observes, once written, a command's ack: from `readAt` (performance.now() when its message was read). */
  ackWritten(readAt: number): void {
    const m = this.metrics;
    if (m) this.whenWritten(() => m.liveAckSeconds.observe((performance.now() - readAt) / 1000));
  }

  /** Observes, once written, an event's frames to every socket of an audience: from its append. */
  eventWritten(audience: 'every' | 'all', recordedAt: string): void {
    const m = this.metrics;
    if (m)
      this.whenWritten(() =>
        m.liveFrameSeconds.observe({ audience }, Math.max(0, Date.now() - Date.parse(recordedAt)) / 1000),
      );
  }

  /** A frame made for this client alone. */
  send(client: Client, message: unknown): void {
    this.frame(client, serialize(message));
  }

  /** A frame already serialized (often shared by many sockets: it is not copied). */
  frame(client: Client, frame: Buffer): void {
    const socket = client.socket;
    if (socket.readyState !== 1) return;
    const tcp = tcpOf(client);
    if (socket.bufferedAmount > this.maxBufferedBytes) {
      // Corked bytes are not the client's backlog: write them out first, then judge what the kernel did not take.
      if (tcp && tcp.writableCorked > 0) tcp.uncork();
      if (socket.bufferedAmount > this.maxBufferedBytes) return this.tooSlow(client);
    }
    if (tcp && tcp.writableCorked === 0) {
      tcp.cork();
      this.corked.push(tcp);
      this.scheduleUncork();
    }
    try {
      socket.send(frame, { binary: false });
    } catch {
      // A socket that cannot take a frame has missed it: it resumes rather than go on with a gap.
      this.tooSlow(client);
    }
  }

  /** Runs `done` once the frames sent so far are written (at once when nothing waits corked). */
  whenWritten(done: () => void): void {
    if (!this.uncorkScheduled) return done();
    this.afterWrite.push(done);
  }

  error(client: Client, statusCode: number, code: string, message: string): void {
    this.send(client, { type: 'error', statusCode, code, message });
  }

  /** A slow client never slows the table: it is dropped and resumes from its last revision. */
  tooSlow(client: Client): void {
    client.socket.close(CLOSE.tooSlow, 'too slow: reconnect and resume from your last revision');
    this.clients.drop(client);
  }

  private scheduleUncork(): void {
    if (this.uncorkScheduled) return;
    this.uncorkScheduled = true;
    setImmediate(() => this.uncorkAll());
  }

  /** Writes every corked socket's frames (one system call each), then runs what waited for them. */
  private uncorkAll(): void {
    this.uncorkScheduled = false;
    const corked = this.corked.splice(0);
    for (const tcp of corked) {
      try {
        tcp.uncork();
      } catch {
        // a socket destroyed meanwhile: its close is handled by its own events
      }
    }
    const done = this.afterWrite;
    this.afterWrite = [];
    for (const f of done) f();
  }
}
