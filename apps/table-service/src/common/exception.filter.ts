import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, Optional } from '@nestjs/common';
import { TokenError } from '@coup/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorBody } from './api-error';
import { Metrics } from './metrics';
import { correlationIdOf } from './request-context';

const FASTIFY_CODES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_CONTENT_LENGTH',
  FST_ERR_BAD_URL: 'INVALID_URL',
  FST_ERR_MAX_PARAM_LENGTH: 'PARAMETER_TOO_LONG',
};

const HTTP_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** Turns anything thrown into `{ statusCode, code, message }`. Exported so fastify's own handler uses it too. */
export function toErrorBody(error: unknown, log?: Logger, correlationId?: string): ErrorBody {
  const body = (
    statusCode: number,
    code: string,
    message: string,
    details?: Readonly<Record<string, unknown>>,
  ): ErrorBody => ({
    statusCode,
    code,
    message,
    ...(details ? { details } : {}),
    ...(correlationId ? { correlationId } : {}),
  });
  if (error instanceof ApiError) return body(error.status, error.code, error.message, error.details);
  if (error instanceof TokenError)
    return body(401, 'UNAUTHENTICATED', `invalid bearer token: ${error.message}`);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const message =
      typeof response === 'object' && response !== null && 'message' in response
        ? [response.message].flat().join('; ')
        : error.message;
    // Fastify's body-parser errors reach us as HttpExceptions (Nest maps them), identified by their message.
    if (status === 400 && /\bJSON\b/.test(message))
      return body(400, 'INVALID_JSON', `the body is not valid JSON: ${message}`);
    return body(status, HTTP_CODES[status] ?? `HTTP_${status}`, message);
  }
  const e = error as { code?: unknown; statusCode?: unknown; message?: unknown; name?: unknown };
  if (typeof e?.code === 'string') {
    if (e.code in FASTIFY_CODES) {
      const status = typeof e.statusCode === 'number' ? e.statusCode : 400;
      return body(status, FASTIFY_CODES[e.code]!, String(e.message ?? e.code));
    }
    if (e.code === 'WRONG_EXPECTED_VERSION') {
      return body(409, 'CONCURRENCY_CONFLICT', 'the table changed while this command was decided; retry it');
    }
    const store = storeErrorBody(e.code, String(e.message ?? ''), body);
    if (store) {
      log?.error({ msg: 'event store unavailable', code: e.code, error: String(e.message), correlationId });
      return store;
    }
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return body(
      e.statusCode,
      HTTP_CODES[e.statusCode] ?? `HTTP_${e.statusCode}`,
      String(e.message ?? 'bad request'),
    );
  }
  log?.error({
    msg: 'unhandled error',
    error: String(e?.message ?? error),
    stack: (error as Error)?.stack,
    correlationId,
  });
  return body(500, 'INTERNAL_ERROR', 'an unexpected error occurred; it has been logged');
}

/** The event store's answers: unavailable (503), and those that tell the client more (issue 20). */
function storeErrorBody(
  code: string,
  message: string,
  body: (status: number, code: string, message: string) => ErrorBody,
): ErrorBody | null {
  if (code === 'STORE_OUTCOME_UNKNOWN')
    return body(
      503,
      code,
      'the event store did not confirm whether this command was recorded: retry it with the same Idempotency-Key ' +
        '(it is answered as recorded if it was); without a key, read the table before sending it again',
    );
  if (code === 'APPEND_TOO_LARGE' || code === 'EVENT_TOO_LARGE')
    return body(
      422,
      'APPEND_TOO_LARGE',
      `the events of this command are more than the event store takes at once; nothing was recorded (${message})`,
    );
  if (code === 'STREAM_DELETED')
    return body(
      410,
      code,
      `the table's stream was deleted in the event store; nothing was recorded (${message})`,
    );
  if (code.startsWith('STORE_'))
    return body(503, code, `the event store cannot take this command now: ${message}`);
  return null;
}

/** The one exception filter: domain and edge errors, with their stable codes, to HTTP. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly log = new Logger('errors');

  constructor(@Optional() private readonly metrics?: Metrics) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const body = toErrorBody(exception, this.log, correlationIdOf(http.getRequest<FastifyRequest>()));
    // A 500 is a defect (logged by toErrorBody with its stack): counted with the process's other unexpected errors.
    if (body.code === 'INTERNAL_ERROR') this.metrics?.unexpectedErrors.inc({ source: 'request' });
    const retryAfter = body.details?.['retryAfterSeconds'];
    if (body.statusCode === 429 && typeof retryAfter === 'number')
      void reply.header('retry-after', String(retryAfter));
    void reply.status(body.statusCode).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
