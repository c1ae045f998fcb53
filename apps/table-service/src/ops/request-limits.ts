import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import rateLimit, { type CreateRateLimitOptions } from '@fastify/rate-limit';
import type { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal, TokenVerifier } from '@coup/auth';
import { ApiError } from '../common/api-error';
import { principalFromHeader } from '../common/auth';
import { toErrorBody } from '../common/exception.filter';
import type { Metrics } from '../common/metrics';
import type { HttpEdgeConfig } from '../config/config';
import { SECURITY_HEADERS } from './security-headers';
import { PUBLIC_API_ROUTE } from '../staff/public-route';

const MINUTE_MS = 60_000;
/** Keys each limiter remembers (least recently used forgotten first): a floor's players and addresses. */
const LIMITER_KEYS = 50_000;
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** `role:id` of the request's verified principal, for the per-principal command limit. */
    coupPrincipalKey: string;
  }
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Verdict = Awaited<ReturnType<Limiter>>;
type Exceeded = Extract<Verdict, { isAllowed: false }>;

function limiter(
  fastify: FastifyInstance,
  max: number,
  options: CreateRateLimitOptions = {},
): Limiter | null {
  if (max === 0) return null;
  // `cache` sizes the limiter's own LRU (the plugin reads it from the merged options).
  return fastify.createRateLimit({
    max,
    timeWindow: MINUTE_MS,
    ...options,
    cache: LIMITER_KEYS,
  } as CreateRateLimitOptions);
}

const exceeded = (v: Verdict | null): v is Exceeded => v !== null && !v.isAllowed && v.isExceeded;

/**
 * The command limits for a live socket's command (a bet, clear or rebet sent over the socket): the same counters as
 * the REST routes', for the socket's principal and client address. Answers the 429 the route would, or null.
 */
export type CommandLimit = (address: string, principal: Principal) => Promise<ApiError | null>;

/**
 * Per-client limits at the front of every API request, before its body is read (@fastify/rate-limit's counters, a
 * fixed one-minute window each):
 * - failed authentications per client address: every missing or bad token on an /api route is counted
 *   (`coup_auth_failures_total`) and logged without the token; past COUP_AUTH_FAILURES_PER_MINUTE the address's
 *   bad tokens get 429 TOO_MANY_AUTH_FAILURES instead of 401, logged once per window. A valid token still
 *   passes, so one sloppy client behind a shared address does not lock its neighbours out;
 * - commands (POST, PUT, DELETE under /api) per principal and per client address: 429 RATE_LIMITED beyond.
 * Each 429 carries Retry-After (seconds until the window ends). Every /api route needs a token (the guard's
 * rule; the OpenAPI fuzz test holds every operation to it) but the staff sign-in's, marked in their route config
 * (PUBLIC_API_ROUTE), so the hook knows a protected route by its path and that mark.
 */
export async function installRequestLimits(
  fastify: FastifyInstance,
  options: {
    readonly config: HttpEdgeConfig;
    readonly tokens: TokenVerifier;
    readonly metrics: Metrics;
    readonly log: Logger;
  },
): Promise<CommandLimit> {
  const { config, tokens } = options;
  await fastify.register(rateLimit, { global: false });
  fastify.decorateRequest('coupPrincipalKey', '');
  const limits: Limits = {
    ...options,
    authFailures: limiter(fastify, config.authFailuresPerMinute),
    byIp: limiter(fastify, config.commandsPerMinutePerIp),
    byPrincipal: limiter(fastify, config.commandsPerMinute, {
      keyGenerator: (request) => request.coupPrincipalKey,
    }),
    // At most one log line per key and window for a client that keeps hitting a limit.
    logOnce: limiter(fastify, 1, {
      keyGenerator: (request) => `${request.ip}|${request.coupPrincipalKey}`,
    }),
  };

  fastify.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith('/api/') || isPublicApiRoute(request)) return;
    let principal: Principal;
    try {
      principal = principalFromHeader(tokens, request.headers.authorization);
    } catch (error) {
      return authFailed(limits, request, reply, route, error);
    }
    if (READ_METHODS.has(request.method)) return;
    request.coupPrincipalKey = `${principal.role}:${principal.id}`;
    return limitCommand(limits, request, reply, route);
  });
  return async (address, principal) => {
    // What the limiters read of a request: its address, its principal's key, its route's (absent) config.
    const request = {
      ip: address,
      coupPrincipalKey: `${principal.role}:${principal.id}`,
      routeOptions: { config: {} },
    } as unknown as FastifyRequest;
    const hit = await overLimit(limits, request, 'websocket');
    return hit && limitError(hit.verdict, 'RATE_LIMITED', hit.what);
  };
}

/** A route under /api that takes no token (a sign-in): no token there is no failed authentication. */
function isPublicApiRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return config?.[PUBLIC_API_ROUTE] === true;
}

/** The limiters of one app (null: that limit is off), with what they report to. */
interface Limits {
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly authFailures: Limiter | null;
  readonly byIp: Limiter | null;
  readonly byPrincipal: Limiter | null;
  readonly logOnce: Limiter | null;
}

const shouldLog = async (limits: Limits, request: FastifyRequest) =>
  !limits.logOnce || !exceeded(await limits.logOnce(request));

/**
 * A missing or bad token: counted and logged (never the token). Under the limit the guard answers 401 with the
 * reason, as for any caller; over it, 429 here.
 */
async function authFailed(
  limits: Limits,
  request: FastifyRequest,
  reply: FastifyReply,
  route: string,
  error: unknown,
): Promise<FastifyReply | undefined> {
  const verdict = limits.authFailures ? await limits.authFailures(request) : null;
  const limited = exceeded(verdict);
  limits.metrics.authFailures.inc({ transport: 'http', outcome: limited ? 'limited' : 'refused' });
  if (!limited || (await shouldLog(limits, request))) {
    limits.log.warn({
      msg: limited ? 'authentication failures over the limit: refusing with 429' : 'authentication failed',
      reason: String((error as Error).message).slice(0, 200),
      code: (error as { code?: unknown }).code,
      ip: request.ip,
      method: request.method,
      route,
      correlationId: request.correlationId,
    });
  }
  if (limited)
    return tooMany(
      request,
      reply,
      verdict,
      'TOO_MANY_AUTH_FAILURES',
      'too many failed authentications from this address',
    );
  return undefined;
}

/** A command of an authenticated caller, counted per principal and per address: 429 past either. */
async function limitCommand(
  limits: Limits,
  request: FastifyRequest,
  reply: FastifyReply,
  route: string,
): Promise<FastifyReply | undefined> {
  const hit = await overLimit(limits, request, route);
  return hit ? tooMany(request, reply, hit.verdict, 'RATE_LIMITED', hit.what) : undefined;
}

/** Counts a command per principal and per address; the limit it is over (counted and logged), or null. */
async function overLimit(
  limits: Limits,
  request: FastifyRequest,
  route: string,
): Promise<{ readonly verdict: Exceeded; readonly what: string } | null> {
  const { byIp, byPrincipal } = limits;
  const [ip, own] = await Promise.all([byIp?.(request) ?? null, byPrincipal?.(request) ?? null]);
  const hit = exceeded(own) ? own : exceeded(ip) ? ip : null;
  if (!hit) return null;
  const limit = hit === own ? 'principal' : 'ip';
  limits.metrics.rateLimited.inc({ limit });
  if (await shouldLog(limits, request))
    limits.log.warn({
      msg: 'command rate limit reached',
      limit,
      ip: request.ip,
      principal: request.coupPrincipalKey,
      route,
    });
  return {
    verdict: hit,
    what:
      limit === 'principal' ? 'too many commands from this caller' : 'too many commands from this address',
  };
}

/** The 429 of a limit, with the seconds until its window ends. */
function limitError(verdict: Exceeded, code: string, what: string): ApiError {
  const seconds = Math.max(1, verdict.ttlInSeconds);
  return new ApiError(429, code, `${what}: at most ${verdict.max} a minute; retry in ${seconds} s`, {
    retryAfterSeconds: seconds,
  });
}

function tooMany(
  request: FastifyRequest,
  reply: FastifyReply,
  verdict: Exceeded,
  code: string,
  what: string,
): FastifyReply {
  const error = limitError(verdict, code, what);
  return reply
    .code(429)
    .header('retry-after', String(error.details?.['retryAfterSeconds']))
    .header('content-type', 'application/json; charset=utf-8')
    .send(toErrorBody(error, undefined, request.correlationId));
}

/** The normalized client address of a socket (an IPv4 peer seen through an IPv6 socket as its IPv4 form). */
const peerOf = (socket: Socket) =>
  (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * At most `max` open connections per client address (the TCP peer: behind a proxy, the proxy; size it for the
 * proxy's pool or turn it off with 0). One over is closed at once, before any byte is read, and counted in
 * `coup_connections_refused_total`. WebSocket connections count too: they are the same server's connections.
 */
export function capConnectionsPerIp(server: Server, max: number, metrics: Metrics): void {
  if (max === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = peerOf(socket);
    const count = (open.get(peer) ?? 0) + 1;
    if (count > max) {
      metrics.connectionsRefused.inc();
      socket.destroy();
      return;
    }
    open.set(peer, count);
    socket.once('close', () => {
      const left = (open.get(peer) ?? 1) - 1;
      if (left === 0) open.delete(peer);
      else open.set(peer, left);
    });
  });
}

const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string, string, string]>> = {
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'REQUEST_TIMEOUT',
    'the request (headers and body) did not arrive in time',
    'timeout',
  ],
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'the request headers are too large', 'header_overflow'],
};

/**
 * Fastify's `clientErrorHandler`: a request the HTTP server itself refuses before the app sees it (Node's
 * requestTimeout and headersTimeout, oversized headers, malformed HTTP) is answered in the service's error format
 * with the security headers, and the connection closed. Counted in `coup_http_client_errors_total`.
 */
export function clientErrorHandler(
  metrics: Metrics,
): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message, kind] = CLIENT_ERRORS[error.code ?? ''] ?? [
      400,
      'BAD_REQUEST',
      'the request is not valid HTTP',
      'malformed',
    ];
    metrics.clientErrors.inc({ kind });
    // A response already under way on this socket cannot be replaced: only close it.
    const busy = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent;
    if (socket.writable && !busy) {
      const body = JSON.stringify({ statusCode: status, code, message });
      const headers = Object.entries({
        ...SECURITY_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 ${status} ${httpStatusText(status)}\r\n${headers}\r\n${body}`);
    }
    socket.destroy(error);
  };
}

function httpStatusText(status: number): string {
  return status === 408
    ? 'Request Timeout'
    : status === 431
      ? 'Request Header Fields Too Large'
      : 'Bad Request';
}
