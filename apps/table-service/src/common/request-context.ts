import type { FastifyRequest } from 'fastify';
import type { Principal } from '@coup/auth';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's correlation id: its valid `x-correlation-id` header, or a fresh UUID (set on request). */
    correlationId: string;
  }
}

/**
 * The authenticated caller of a request with the request's correlation id, so a handler passes both on
 * explicitly. (No AsyncLocalStorage: with Node 20 it installs promise hooks that cost every promise of every
 * request, about 6 % of the request thread under bet load; see docs/benchmarks.md.)
 */
export type Caller = Principal & { readonly correlationId?: string };

/** A valid `x-correlation-id` header is kept (1 to 128 visible ASCII characters); otherwise none. */
export function correlationIdFrom(header: unknown): string | undefined {
  return typeof header === 'string' && /^[\x21-\x7e]{1,128}$/.test(header) ? header : undefined;
}

/** The correlation id of a request (undefined before the service's onRequest hook ran). */
export function correlationIdOf(request: FastifyRequest | undefined): string | undefined {
  return request?.correlationId || undefined;
}
