import { Logger, type INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { MessageMappingProperties } from '@nestjs/websockets/gateway-metadata-explorer';
import type { Observable } from 'rxjs';
import type { WebSocket, WebSocketServer } from 'ws';
import type { LiveLimits } from './live.limits';

/**
 * Nest's `ws` adapter with the live push's limits: the `ws` server reads no message over `maxFrameBytes` (it
 * closes the socket with 1009 instead; the library default is 100 MiB). A socket's protocol errors (too large,
 * invalid UTF-8, bad frames) are the client's: they are logged as warnings with their `ws` code, not as errors.
 * The gateway reads its sockets' messages itself, so Nest's own message routing is not bound for it.
 */
export class LiveWsAdapter extends WsAdapter {
  private readonly warn = new Logger('live');

  constructor(
    app: INestApplicationContext,
    private readonly limits: Pick<LiveLimits, 'maxFrameBytes'>,
  ) {
    super(app);
  }

  override create(
    port: number,
    options: Record<string, unknown> & { namespace?: string; server?: unknown; path?: string } = {},
  ): WebSocketServer {
    return super.create(port, { ...options, maxPayload: this.limits.maxFrameBytes }) as WebSocketServer;
  }

  override bindErrorHandler(server: WebSocketServer): WebSocketServer {
    server.on('connection', (socket: WebSocket) =>
      socket.on('error', (error: Error & { code?: string }) =>
        this.warn.warn({ msg: 'websocket protocol error', code: error.code, error: error.message }),
      ),
    );
    server.on('error', (error: Error) =>
      this.warn.error({ msg: 'websocket server error', error: error.message }),
    );
    return server;
  }

  override bindMessageHandlers(
    client: WebSocket,
    handlers: MessageMappingProperties[],
    transform: (data: unknown) => Observable<unknown>,
  ): void {
    // No @SubscribeMessage handlers: without this, Nest would parse every message a second time to route it.
    if (handlers.length > 0) super.bindMessageHandlers(client, handlers, transform);
  }
}
