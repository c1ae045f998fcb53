import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule, type AppOverrides } from './app.module';
import { LiveWsAdapter } from './live/live.adapter';
import { liveLimitsOf } from './live/live.limits';
import { JsonLogger } from './common/logger';
import { correlationIdFrom } from './common/request-context';
import { installLeanAsyncResourceBind } from './common/async-resource-bind';
import type { ServiceConfig } from './config/config';

/** Builds the service (not yet listening): Fastify, validation, the one error format, OpenAPI at /docs. */
export async function createApp(
  config: ServiceConfig,
  overrides: AppOverrides = {},
): Promise<NestFastifyApplication> {
  installLeanAsyncResourceBind();
  const logger = new JsonLogger(config.logLevel);
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimit,
    trustProxy: true,
    forceCloseConnections: 'idle',
  });
  const fastify = adapter.getInstance();
  fastify.decorateRequest('correlationId', '');
  fastify.addHook('onRequest', (request, reply, done) => {
    const correlationId = correlationIdFrom(request.headers['x-correlation-id']) ?? randomUUID();
    request.correlationId = correlationId;
    void reply.header('x-correlation-id', correlationId);
    done();
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config, overrides),
    adapter,
    {
      logger,
      abortOnError: false,
    },
  );
  app.useWebSocketAdapter(new LiveWsAdapter(app, liveLimitsOf(config)));
  const doc = new DocumentBuilder()
    .setTitle('Coup table service')
    .setDescription(
      'Event-sourced baccarat (Punto Banco) tables. Money is in integer cents; cards are rank+suit strings like "Ah", "Td". ' +
        'Errors are { statusCode, code, message } with stable codes.',
    )
    .setVersion('1')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, doc), {
    jsonDocumentUrl: 'docs/openapi.json',
    // The interactive page needs @fastify/static, whose ESM-only dependency Jest's module system cannot load:
    // in-process tests serve the JSON document only (the real process serves both).
    swaggerUiEnabled: config.docsUi,
  });
  if (config.consoleDir) {
    // The dealer console's built files at `/` (its routes are in the URL hash, so no fallback is needed).
    app.useStaticAssets({
      root: config.consoleDir,
      prefix: '/',
      index: ['index.html'],
      decorateReply: false,
    });
  }
  return app;
}
