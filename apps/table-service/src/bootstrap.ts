import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { finishDocument } from './ops/openapi-document';
import { AppModule, type AppOverrides } from './app.module';
import { LiveWsAdapter } from './live/live.adapter';
import { LiveGateway } from './live/live.gateway';
import { liveLimitsOf } from './live/live.limits';
import { Logger } from '@nestjs/common';
import type { TokenVerifier } from '@coup/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JsonLogger } from './common/logger';
import { correlationIdFrom } from './common/request-context';
import { installLeanAsyncResourceBind } from './common/async-resource-bind';
import { TOKEN_VERIFIER } from './common/auth';
import { Metrics } from './common/metrics';
import { installJsonBodyParser } from './common/validation';
import { capConnectionsPerIp, clientErrorHandler, installRequestLimits } from './ops/request-limits';
import { installSecurityHeaders, SECURITY_HEADERS } from './ops/security-headers';
import { serveConsoleIndex } from './ops/console-index';
import { toErrorBody } from './common/exception.filter';
import { installStaffCatchUp, StaffAccounts } from './staff';
import type { ServiceConfig } from './config/config';

/**
 * Builds the service (not yet listening): Fastify with the HTTP edge's limits (JSON depth and size, timeouts,
 * connections, rate limits, security headers), validation, the one error format, OpenAPI at /docs.
 */
export async function createApp(
  config: ServiceConfig,
  overrides: AppOverrides = {},
): Promise<NestFastifyApplication> {
  installLeanAsyncResourceBind();
  const logger = new JsonLogger(config.logLevel);
  const metrics = overrides.metrics ?? new Metrics();
  const adapter = fastifyAdapter(config, metrics);
  const fastify = adapter.getInstance();
  capConnectionsPerIp(fastify.server, config.http.maxConnectionsPerIp, metrics);
  // First of all hooks: every answer, whichever hook or handler gives it, carries the security headers.
  installSecurityHeaders(fastify);
  installJsonBodyParser(fastify, config.http.jsonMaxDepth);
  installCorrelationIds(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config, { ...overrides, metrics }),
    adapter,
    {
      logger,
      abortOnError: false,
      // The service's own parser only (installJsonBodyParser): no form or text bodies.
      bodyParser: false,
    },
  );
  // Before the limits' hook verifies tokens: a staff token is checked against the staff stream as it is now.
  installStaffCatchUp(fastify, app.get<TokenVerifier>(TOKEN_VERIFIER), app.get(StaffAccounts));
  const commandLimit = await installRequestLimits(fastify, {
    config: config.http,
    tokens: app.get<TokenVerifier>(TOKEN_VERIFIER),
    metrics,
    log: new Logger('limits'),
  });
  // Bets over the live socket count against the same command limits as the REST routes.
  app.get(LiveGateway).useCommandLimit(commandLimit);
  app.useWebSocketAdapter(new LiveWsAdapter(app, liveLimitsOf(config)));
  serveDocs(app, config);
  if (config.consoleDir) {
    // The dealer console's built files at `/` (its routes are in the URL hash, so no fallback is needed); its page
    // carries the casino's time zone.
    serveConsoleIndex(app, config.consoleDir, config.analytics.gamingDay.timeZone);
    app.useStaticAssets({
      root: config.consoleDir,
      prefix: '/',
      index: false,
      decorateReply: false,
    });
  }
  return app;
}

/** Fastify with the edge's body limit, proxy trust and timeouts, and the error format for the router's refusals. */
function fastifyAdapter(config: ServiceConfig, metrics: Metrics): FastifyAdapter {
  const edge = config.http;
  // Node's HTTP server answers 408 when a request's headers (headersTimeout) or all of it (requestTimeout) take too
  // long; it looks for such connections every connectionsCheckingInterval (Node's default, 30 s, would let a slow
  // client hold its connection for up to that much longer).
  const checkEveryMs = Math.max(50, Math.min(1_000, Math.floor(edge.headersTimeoutMs / 4)));
  return new FastifyAdapter({
    bodyLimit: config.bodyLimit,
    trustProxy: edge.trustProxy as boolean | number | string[],
    forceCloseConnections: 'idle',
    requestTimeout: edge.requestTimeoutMs,
    http: {
      requestTimeout: edge.requestTimeoutMs,
      headersTimeout: edge.headersTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
    },
    clientErrorHandler: clientErrorHandler(metrics),
    // The router's own refusals (a malformed escape, a parameter over 100 characters) skip every hook: answered
    // here in the error format, with the security headers.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      const body = toErrorBody(error);
      void reply
        .code(body.statusCode)
        .headers({ ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' })
        .send(body);
    },
  });
}

/** Every request gets a correlation id (its valid `x-correlation-id`, else a fresh one), echoed on the answer (ADR-13). */
function installCorrelationIds(fastify: FastifyInstance): void {
  fastify.decorateRequest('correlationId', '');
  fastify.addHook('onRequest', (request, reply, done) => {
    const correlationId = correlationIdFrom(request.headers['x-correlation-id']) ?? randomUUID();
    request.correlationId = correlationId;
    void reply.header('x-correlation-id', correlationId);
    done();
  });
}

/** OpenAPI at /docs/openapi.json, and the interactive page at /docs when `docsUi`. */
function serveDocs(app: NestFastifyApplication, config: ServiceConfig): void {
  const doc = new DocumentBuilder()
    .setTitle('Coup table service')
    .setDescription(
      'Event-sourced baccarat (Punto Banco) tables. Money is in integer cents; cards are rank+suit strings like "Ah", ' +
        '"Td" (either case, "10" for the ten).',
    )
    .setVersion('1')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => finishDocument(SwaggerModule.createDocument(app, doc)), {
    jsonDocumentUrl: 'docs/openapi.json',
    // The interactive page needs @fastify/static, whose ESM-only dependency Jest's module system cannot load:
    // in-process tests serve the JSON document only (the real process serves both).
    swaggerUiEnabled: config.docsUi,
  });
}
