import type { RecordedEvent } from '@coup/event-store';
import { redactEvent, type TableEvent } from '@coup/table';
import type { Client, LiveClients } from './live.clients';

/** A socket's send buffer beyond this means the client cannot keep up: it is dropped and must resume. */
const MAX_BUFFERED_BYTES = 1 << 20;

/** Close codes of the live push (1009, a message over the size limit, is the `ws` server's own). */
export const CLOSE = {
  shuttingDown: 1001,
  internal: 1011,
  tooSlow: 4008,
  unauthenticated: 4401,
  tooManySockets: 4429,
} as const;

/** What the server sends a client: JSON frames (bigints as numbers), each event once and redacted for it. */
export class LiveSender {
  constructor(private readonly clients: LiveClients) {}

  send(client: Client, message: unknown): void {
    if (client.socket.readyState !== 1) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) return this.tooSlow(client);
    client.socket.send(JSON.stringify(message, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
  }

  error(client: Client, statusCode: number, code: string, message: string): void {
    this.send(client, { type: 'error', statusCode, code, message });
  }

  /** A table event past the client's revision, as the client's principal may see it (or nothing). */
  event(client: Client, e: RecordedEvent): void {
    if (e.streamRevision <= client.revision) return;
    client.revision = e.streamRevision;
    const event = redactEvent({ type: e.type, data: e.data } as TableEvent, {
      id: client.principal.id,
      role: client.principal.role,
    });
    if (event)
      this.send(client, {
        type: 'event',
        tableId: client.tableId,
        revision: e.streamRevision,
        position: e.globalPosition,
        at: e.recordedAt,
        event,
      });
  }

  /** A slow client never slows the table: it is dropped and resumes from its last revision. */
  tooSlow(client: Client): void {
    client.socket.close(CLOSE.tooSlow, 'too slow: reconnect and resume from your last revision');
    this.clients.drop(client);
  }
}
