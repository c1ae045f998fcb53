/**
 * `@IdempotencyKey()`: the request's `Idempotency-Key` header (the first one), or undefined. A parameter decorator
 * of its own rather than `@Headers('idempotency-key')`, which the OpenAPI document listed as a second, required
 * header beside the controllers' one optional `Idempotency-Key` (and "Try it out" could not send a request).
 */
import { type ExecutionContext, createParamDecorator } from '@nestjs/common';

export const IdempotencyKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined => {
    const headers = ctx
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | string[] | undefined> }>().headers;
    const value = headers['idempotency-key'];
    return Array.isArray(value) ? value[0] : value;
  },
);
