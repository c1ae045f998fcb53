import { createHmac, timingSafeEqual } from 'node:crypto';
import { isRole, type Claims, type Principal, type Role } from './roles';

export type TokenErrorCode =
  'TOKEN_MALFORMED' | 'TOKEN_SIGNATURE' | 'TOKEN_EXPIRED' | 'TOKEN_CLAIMS' | 'TOKEN_SECRET';

/** A token that cannot be trusted. The message says why; the service answers 401 with it. */
export class TokenError extends Error {
  constructor(
    readonly code: TokenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

export interface SignOptions {
  readonly sub: string;
  readonly role: Role;
  readonly tables?: readonly string[];
  /** Seconds from `now` until the token expires; omit for a token without expiry. */
  readonly expiresInSeconds?: number;
  /** Unix seconds; defaults to the current time (this library is at the edge and may read the clock). */
  readonly now?: number;
}

const MIN_SECRET_LENGTH = 32;

const b64url = (input: Buffer | string): string => Buffer.from(input).toString('base64url');
const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function checkSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new TokenError(
      'TOKEN_SECRET',
      `the signing secret must be at least ${MIN_SECRET_LENGTH} characters`,
    );
  }
}

function mac(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

/** Signs an HS256 JWT with Coup's claims. */
export function signToken(secret: string, options: SignOptions): string {
  checkSecret(secret);
  if (!options.sub || typeof options.sub !== 'string')
    throw new TokenError('TOKEN_CLAIMS', 'sub is required');
  if (!isRole(options.role)) throw new TokenError('TOKEN_CLAIMS', `unknown role '${String(options.role)}'`);
  const iat = options.now ?? Math.floor(Date.now() / 1000);
  const claims: Claims = {
    sub: options.sub,
    role: options.role,
    ...(options.tables && options.tables.length > 0 ? { tables: [...options.tables] } : {}),
    iat,
    ...(options.expiresInSeconds !== undefined ? { exp: iat + options.expiresInSeconds } : {}),
  };
  const payload = b64url(JSON.stringify(claims));
  const signingInput = `${HEADER}.${payload}`;
  return `${signingInput}.${b64url(mac(secret, signingInput))}`;
}

/**
 * Verifies an HS256 JWT (constant-time signature check, `alg` pinned to HS256, `exp` honoured) and returns
 * the caller. Throws TokenError with a precise code otherwise.
 */
export function verifyToken(
  secret: string,
  token: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Principal {
  checkSecret(secret);
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) {
    throw new TokenError('TOKEN_MALFORMED', 'a bearer token has three base64url parts');
  }
  const [header, payload, signature] = parts as [string, string, string];
  let parsedHeader: unknown;
  let claims: Record<string, unknown>;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new TokenError('TOKEN_MALFORMED', 'the token is not valid base64url JSON');
  }
  if (
    typeof parsedHeader !== 'object' ||
    parsedHeader === null ||
    (parsedHeader as { alg?: unknown }).alg !== 'HS256'
  ) {
    throw new TokenError('TOKEN_MALFORMED', 'only HS256 tokens are accepted');
  }
  const expected = mac(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new TokenError('TOKEN_SIGNATURE', 'the token signature does not match');
  }
  if (typeof claims !== 'object' || claims === null)
    throw new TokenError('TOKEN_CLAIMS', 'claims must be an object');
  if (claims['exp'] !== undefined && (typeof claims['exp'] !== 'number' || claims['exp'] <= nowSeconds)) {
    throw new TokenError('TOKEN_EXPIRED', 'the token has expired');
  }
  const sub = claims['sub'];
  const role = claims['role'];
  const tables = claims['tables'];
  if (typeof sub !== 'string' || sub.length === 0)
    throw new TokenError('TOKEN_CLAIMS', 'the token has no sub');
  if (!isRole(role))
    throw new TokenError('TOKEN_CLAIMS', `the token's role '${String(role)}' is not a Coup role`);
  if (tables !== undefined && (!Array.isArray(tables) || tables.some((t) => typeof t !== 'string'))) {
    throw new TokenError('TOKEN_CLAIMS', 'tables must be a list of table ids');
  }
  return { id: sub, role, tables: tables === undefined ? null : (tables as string[]) };
}

/**
 * `verifyToken` with a memory of the tokens it has already verified: a player sends the same token with every bet,
 * and checking its HMAC each time is a measurable part of a bet's cost. A token is remembered only once its
 * signature and claims have passed, keyed by the whole token string (signature included), and its `exp` is still
 * checked on every use. Failures are never remembered. At most `maxEntries` tokens are kept (oldest dropped first).
 */
export class TokenVerifier {
  private readonly verified = new Map<string, { principal: Principal; exp: number | null }>();

  constructor(
    private readonly secret: string,
    private readonly maxEntries = 10_000,
  ) {
    checkSecret(secret);
  }

  verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): Principal {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp !== null && known.exp <= nowSeconds) {
        this.verified.delete(token);
        throw new TokenError('TOKEN_EXPIRED', 'the token has expired');
      }
      return known.principal;
    }
    const principal = verifyToken(this.secret, token, nowSeconds);
    const payload = token.split('.')[1]!;
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: number }).exp;
    if (this.verified.size >= this.maxEntries) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { principal, exp: exp ?? null });
    return principal;
  }
}
