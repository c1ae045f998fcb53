/**
 * The live gateway in process, on a memory store and a real table processor, with fake sockets that record every
 * frame: for the live push's properties (coalescing, order, redaction, resumes) without a network.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { TokenVerifier, signToken, type Role } from '@coup/auth';
import { createEventStore, type RecordedEvent } from '@coup/event-store';
import { tableStream, type TableCommand, type TableEvent, type TableView } from '@coup/table';
import { Metrics } from '../src/common/metrics';
import { LiveGateway } from '../src/live/live.gateway';
import { DEFAULT_LIVE_LIMITS, type LiveLimits } from '../src/live/live.limits';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { TableProcessor } from '../src/tables/table-processor';

const SECRET = 'f'.repeat(40);

// A rig per property run: its start and stop lines are noise; warnings and errors stay.
Logger.overrideLogger(['error', 'warn']);

/** A frame as the server sent it (parsed). */
export interface Sent {
  type: string;
  tableId?: string;
  revision?: number;
  roundNo?: number;
  totals?: Record<string, number>;
  bettors?: number;
  key?: string;
  status?: number;
  body?: Record<string, unknown> | null;
  code?: string;
  statusCode?: number;
  view?: TableView;
  event?: TableEvent;
}

export class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Sent[] = [];
  /** The bytes of each frame, to tell a shared frame (one buffer) from frames made apiece. */
  readonly raw: unknown[] = [];
  closed: { code: number; reason: string } | null = null;
  send(data: Buffer | string): void {
    this.raw.push(data);
    this.sent.push(JSON.parse(String(data)) as Sent);
  }
  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = 3;
  }
  message(value: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(value)), false);
  }
}

const at = () => new Date().toISOString();

/** A command as the edge stamps it. */
export const cmd = (type: TableCommand['type'], data: object, actor: { id: string; role: Role }) =>
  ({ type, data, meta: { actor, at: at() } }) as TableCommand;

export async function settle(predicate: () => boolean, what = 'the condition', tries = 500): Promise<void> {
  for (let i = 0; i < tries && !predicate(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!predicate()) throw new Error(`gave up waiting for ${what}`);
}

export type LiveRig = Awaited<ReturnType<typeof liveRig>>;

/** A gateway on a fresh memory store, its processor and a way to connect fake sockets. */
export async function liveRig(limits: Partial<LiveLimits> = {}) {
  const handle = new EventStoreHandle(createEventStore({ kind: 'memory' }), 'memory');
  const tables = new TableProcessor(handle.store, new Metrics(false), { snapshotEvery: 1000 });
  const gateway = new LiveGateway(handle, tables, new TokenVerifier(SECRET), {
    ...DEFAULT_LIVE_LIMITS,
    messagesPerSecond: 10_000,
    ...limits,
  });
  await gateway.start();
  const connect = (role: Role, sub: string) => {
    const socket = new FakeSocket();
    gateway.handleConnection(
      socket as unknown as WebSocket,
      { url: `/ws?token=${signToken(SECRET, { sub, role })}`, headers: {} } as IncomingMessage,
    );
    return socket;
  };
  const disconnect = (socket: FakeSocket) => {
    socket.readyState = 3;
    gateway.handleDisconnect(socket as unknown as WebSocket);
  };
  const events = async (tableId: string): Promise<RecordedEvent[]> => {
    const out: RecordedEvent[] = [];
    for await (const e of handle.store.readStream(tableStream(tableId))) out.push(e);
    return out;
  };
  const close = async () => {
    await gateway.onModuleDestroy();
    await tables.shutdown();
    await handle.store.close();
  };
  return { handle, tables, gateway, connect, disconnect, events, close };
}
