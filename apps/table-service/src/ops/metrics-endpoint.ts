import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual, createHash } from 'node:crypto';
import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { HttpEdgeConfig } from '../config/config';
import { SECURITY_HEADERS } from './security-headers';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read the Prometheus metrics, and where. With COUP_METRICS_TOKEN set, only `Authorization: Bearer
 * <token>` (compared in constant time); with COUP_METRICS_PORT set, the metrics are served on that port only (a
 * plain Node server on the service's HOST, which a firewall can keep apart) and the API's port answers 404.
 */
export class MetricsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('metrics');
  private readonly expected: Buffer | null;
  private server: Server | null = null;

  constructor(
    private readonly registry: Registry,
    private readonly config: Pick<HttpEdgeConfig, 'metricsToken' | 'metricsPort'>,
    private readonly host: string,
  ) {
    this.expected = config.metricsToken === null ? null : digest(`Bearer ${config.metricsToken}`);
  }

  /** Whether the API's own port serves /metrics. */
  get onApiPort(): boolean {
    return this.config.metricsPort === null;
  }

  /** Whether an Authorization header may read the metrics. */
  allows(authorization: string | undefined): boolean {
    if (this.expected === null) return true;
    return authorization !== undefined && timingSafeEqual(digest(authorization), this.expected);
  }

  /** The metrics port once listening (COUP_METRICS_PORT=0 takes a free one), else null. */
  get port(): number | null {
    return (this.server?.address() as AddressInfo | null)?.port ?? null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metricsPort;
    if (port === null) return;
    const server = createServer((request, response) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
      const send = (status: number, type: string, body: string) => {
        response.writeHead(status, { 'content-type': type }).end(body);
      };
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD'))
        return send(
          404,
          'application/json; charset=utf-8',
          '{"statusCode":404,"code":"NOT_FOUND","message":"only GET /metrics here"}',
        );
      if (!this.allows(request.headers.authorization))
        return send(
          401,
          'application/json; charset=utf-8',
          '{"statusCode":401,"code":"UNAUTHENTICATED","message":"the metrics need their bearer token"}',
        );
      this.registry.metrics().then(
        (text) => send(200, this.registry.contentType, text),
        (error: unknown) => {
          this.log.error({ msg: 'metrics could not be collected', error: String(error) });
          send(
            500,
            'application/json; charset=utf-8',
            '{"statusCode":500,"code":"INTERNAL_ERROR","message":"the metrics could not be collected"}',
          );
        },
      );
    });
    server.requestTimeout = 10_000;
    server.headersTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => {
        server.off('error', reject);
        // A server error after the start (e.g. too many open files on accept) is logged, never thrown at the process.
        server.on('error', (error) =>
          this.log.error({ msg: 'metrics server error', error: String(error.message) }),
        );
        resolve();
      });
    });
    this.server = server;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
