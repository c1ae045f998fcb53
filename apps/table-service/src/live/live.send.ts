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

/**
 * What the server sends a client: JSON text frames, most of them made once and shared (live.frames.ts). A socket
 * whose unsent bytes pass `maxBufferedBytes` cannot keep up: it is dropped (4008) and resumes from its last
 * revision, so a slow client never slows the table nor holds more memory than that.
 */
export class LiveSender {
  constructor(
    private readonly clients: LiveClients,
    private readonly maxBufferedBytes: number,
  ) {}

  /** A frame made for this client alone. */
  send(client: Client, message: unknown): void {
    this.frame(client, serialize(message));
  }

  /** A frame already serialized (often shared by many sockets: it is not copied). */
  frame(client: Client, frame: Buffer): void {
    const socket = client.socket;
    if (socket.readyState !== 1) return;
    if (socket.bufferedAmount > this.maxBufferedBytes) return this.tooSlow(client);
    try {
      socket.send(frame, { binary: false });
    } catch {
      // A socket that cannot take a frame has missed it: it resumes rather than go on with a gap.
      this.tooSlow(client);
    }
  }

  error(client: Client, statusCode: number, code: string, message: string): void {
    this.send(client, { type: 'error', statusCode, code, message });
  }

  /** A slow client never slows the table: it is dropped and resumes from its last revision. */
  tooSlow(client: Client): void {
    client.socket.close(CLOSE.tooSlow, 'too slow: reconnect and resume from your last revision');
    this.clients.drop(client);
  }
}
