import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { WsAdapter } from '@nestjs/platform-ws';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule, type AppOverrides } from './app.module';
import { ApiError } from './common/api-error';
import { JsonLogger } from './common/logger';
import { requestContext } from './common/request-context';
import type { ServiceConfig } from './config/config';

function describeValidation(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) =>
      m.startsWith('property ') && m.endsWith('should not exist')
        ? `unknown field '${path}'`
        : m.replace(e.property, path),
    );
    return [...own, ...describeValidation(e.children ?? [], path)];
  });
}

/** Builds the service (not yet listening): Fastify, validation, the one error format, OpenAPI at /docs. */
export async function createApp(
  config: ServiceConfig,
  overrides: AppOverrides = {},
): Promise<NestFastifyApplication> {
  const logger = new JsonLogger(config.logLevel);
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimit,
    trustProxy: true,
    forceCloseConnections: 'idle',
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    const header = request.headers['x-correlation-id'];
    const correlationId =
      typeof header === 'string' && /^[\x21-\x7e]{1,128}$/.test(header) ? header : randomUUID();
    void reply.header('x-correlation-id', correlationId);
    requestContext.run({ correlationId }, done);
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config, overrides),
    adapter,
    {
      logger,
      abortOnError: false,
    },
  );
  app.useWebSocketAdapter(new WsAdapter(app));
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: true,
      exceptionFactory: (errors) =>
        new ApiError(
          400,
          'VALIDATION_FAILED',
          describeValidation(errors).join('; ') || 'the request body is not valid',
        ),
    }),
  );
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
