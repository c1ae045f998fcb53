/**
 * The table service's REST API, as the console uses it: a bearer token on every request, and every refusal turned
 * into an {@link ApiError} with the service's stable `code` and `message` (never thrown strings).
 */
import type { TableView } from '@coup/table';

/** A refused or failed request: the service's `{ statusCode, code, message }`, or `NETWORK` when none came back. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** The refusal's details, e.g. `field` for INVALID_RULES. */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** One entry of `GET /api/tables`. */
export interface TableEntry {
  readonly tableId: string;
  readonly status: 'open' | 'closed';
  readonly dealing: string | null;
  readonly openedAt: string | null;
}

/** The fetch the client uses (injected in tests). */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

async function errorOf(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { code?: unknown; message?: unknown; details?: unknown };
    const details =
      typeof body.details === 'object' && body.details !== null
        ? (body.details as Record<string, unknown>)
        : undefined;
    if (typeof body.code === 'string' && typeof body.message === 'string')
      return new ApiError(res.status, body.code, body.message, details);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(res.status, `HTTP_${res.status}`, res.statusText || 'the service refused the request');
}

/** A request's extras: the fetch to use (tests inject one), and a command's Idempotency-Key. */
export interface RequestOptions {
  readonly fetchFn?: Fetch;
  readonly idempotencyKey?: string;
}

/**
 * One call of the REST API under `/api` as `token` (none: a route that takes no token) with a JSON body; the
 * answer parsed (null when empty), or an {@link ApiError}.
 */
export async function request<T>(
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  { fetchFn = (i, init) => fetch(i, init), idempotencyKey }: RequestOptions = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetchFn(`/api${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service cannot be reached (${(error as Error).message})`);
  }
  if (!res.ok) throw await errorOf(res);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** A fresh Idempotency-Key (a random UUID). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The keys of the commands sent and not answered yet, by command (caller, method, path and body). */
const unanswered = new Map<string, string>();
/** Unanswered commands remembered at most (the oldest is forgotten first). */
const MAX_UNANSWERED = 100;

/**
 * A command (POST, PUT, DELETE) with an Idempotency-Key for the user's action. The key is kept until the service
 * answers: the same command sent again after a lost answer (a second click, a retry) carries the same key, so the
 * service records it once and answers as it did the first time. An answer (accepted, or refused with a 4xx: never
 * recorded) ends the action, and the same command sent after it is a new action with a new key; no answer, or a
 * 5xx (the outcome may be unknown, STORE_OUTCOME_UNKNOWN), keeps the key for the retry.
 */
export async function command<T>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  options: Omit<RequestOptions, 'idempotencyKey'> = {},
): Promise<T> {
  const action = JSON.stringify([token, method, path, body ?? null]);
  let key = unanswered.get(action);
  if (key === undefined) {
    key = newIdempotencyKey();
    unanswered.set(action, key);
    if (unanswered.size > MAX_UNANSWERED) unanswered.delete(unanswered.keys().next().value as string);
  }
  try {
    const answer = await request<T>(token, method, path, body, { ...options, idempotencyKey: key });
    unanswered.delete(action);
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode >= 400 && error.statusCode < 500)
      unanswered.delete(action);
    throw error;
  }
}

/** A small client for the endpoints the console calls: every command with its action's Idempotency-Key. */
export function apiClient(token: string, fetchFn: Fetch = (i, init) => fetch(i, init)) {
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    method === 'GET'
      ? request<T>(token, method, path, body, { fetchFn })
      : command<T>(token, method, path, body, { fetchFn });
  const t = (tableId: string) => `/tables/${encodeURIComponent(tableId)}`;
  const r = (tableId: string, roundNo: number) => `${t(tableId)}/rounds/${roundNo}`;
  return {
    listTables: () => call<TableEntry[]>('GET', '/tables'),
    view: (tableId: string) => call<TableView>('GET', t(tableId)),
    startShoe: (tableId: string, firstCard?: string) =>
      call<unknown>('POST', `${t(tableId)}/shoes`, firstCard === undefined ? {} : { firstCard }),
    openBetting: (tableId: string) => call<unknown>('POST', `${t(tableId)}/rounds`, {}),
    closeBetting: (tableId: string, roundNo: number) =>
      call<unknown>('POST', `${r(tableId, roundNo)}/close`, {}),
    deal: (tableId: string, roundNo: number) => call<unknown>('POST', `${r(tableId, roundNo)}/deal`, {}),
    dealCard: (tableId: string, roundNo: number, card: string) =>
      call<unknown>('POST', `${r(tableId, roundNo)}/cards`, { card }),
    /** Settles a complete coup on a table whose rules ask the dealer to confirm each result. */
    confirmResult: (tableId: string, roundNo: number) =>
      call<unknown>('POST', `${r(tableId, roundNo)}/confirm`, {}),
    voidRound: (tableId: string, roundNo: number, reason: string) =>
      call<unknown>('POST', `${r(tableId, roundNo)}/void`, { reason }),
  };
}

/** The API client type. */
export type Api = ReturnType<typeof apiClient>;

/** What a bearer token says about its holder (read for display only: the service checks the signature). */
export interface TokenInfo {
  readonly sub: string;
  readonly role: string;
  readonly exp: number | null;
}

/** Reads a JWT's payload without verifying it, or null if it is not a JWT. */
export function readToken(token: string): TokenInfo | null {
  const part = token.trim().split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const payload = JSON.parse(json) as { sub?: unknown; role?: unknown; exp?: unknown };
    if (typeof payload.sub !== 'string' || typeof payload.role !== 'string') return null;
    return {
      sub: payload.sub,
      role: payload.role,
      exp: typeof payload.exp === 'number' ? payload.exp : null,
    };
  } catch {
    return null;
  }
}
