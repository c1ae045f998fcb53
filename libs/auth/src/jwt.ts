import { createHmac, timingSafeEqual } from 'node:crypto';
import { isRole, type Claims, type Principal, type Role } from './roles';

export type TokenErrorCode =
  | 'TOKEN_MALFORMED'
  | 'TOKEN_SIGNATURE'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_NOT_YET_VALID'
  | 'TOKEN_CLAIMS'
  | 'TOKEN_SECRET'
  | 'TOKEN_REVOKED';

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
  /** Unix seconds before which the token is not valid (`nbf`); omit for valid from `now`. */
  readonly notBefore?: number;
  /** Unix seconds; defaults to the current time (this library is at the edge and may read the clock). */
  readonly now?: number;
  /** A staff sign-in's token: the account's roles (`roles`) and token generation (`gen`). */
  readonly session?: { readonly roles: readonly Role[]; readonly generation: number };
}

const MIN_SECRET_LENGTH = 32;

/**
 * How far a token's `nbf` and `iat` may be ahead of this clock (seconds): the issuer's clock may run a little
 * ahead. `exp` gets no such leeway: a token expires on time by this clock.
 */
export const DEFAULT_CLOCK_SKEW_SECONDS = 30;

export interface VerifyOptions {
  /** Seconds `nbf` and `iat` may be ahead of `now`; default {@link DEFAULT_CLOCK_SKEW_SECONDS}. */
  readonly clockSkewSeconds?: number;
}

/**
 * Checks a staff sign-in's token (one with a `generation`) against its account on every use: throws a TokenError
 * (`TOKEN_REVOKED`) when the account has signed out, changed or been disabled since the token was issued.
 */
export type SessionCheck = (principal: Principal & { readonly generation: number }) => void;

function skewOf(options: VerifyOptions): number {
  const skew = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  if (!Number.isSafeInteger(skew) || skew < 0)
    throw new RangeError(`clockSkewSeconds must be a whole number >= 0, not ${skew}`);
  return skew;
}

/** A claim the token itself carries (never one inherited from Object.prototype). */
function own(claims: object, name: string): unknown {
  return Object.hasOwn(claims, name) ? (claims as Record<string, unknown>)[name] : undefined;
}

/** A NumericDate claim: absent, or a finite number of seconds (else TOKEN_CLAIMS). */
function secondsClaim(claims: object, name: 'exp' | 'nbf' | 'iat'): number | null {
  const value = own(claims, name);
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TokenError('TOKEN_CLAIMS', `${name} must be a number of seconds`);
  return value;
}

/** What a verified token says, and when it is valid: from `validFrom` (nbf or iat, the later) until `exp`. */
interface Verified {
  readonly principal: Principal;
  readonly validFrom: number | null;
  readonly exp: number | null;
}

/** The time checks, shared by a first verification and a remembered token's every use. */
function checkValidity(verified: Verified, nowSeconds: number, skew: number): void {
  if (verified.exp !== null && verified.exp <= nowSeconds)
    throw new TokenError('TOKEN_EXPIRED', 'the token has expired');
  if (verified.validFrom !== null && verified.validFrom > nowSeconds + skew)
    throw new TokenError('TOKEN_NOT_YET_VALID', 'the token is not valid yet (nbf or iat is in the future)');
}

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
    // An empty list is kept: it limits the token to no table (only an absent claim means every table).
    ...(options.tables !== undefined ? { tables: [...options.tables] } : {}),
    iat,
    ...(options.notBefore !== undefined ? { nbf: options.notBefore } : {}),
    ...(options.expiresInSeconds !== undefined ? { exp: iat + options.expiresInSeconds } : {}),
    ...(options.session ? { roles: [...options.session.roles], gen: options.session.generation } : {}),
  };
  const payload = b64url(JSON.stringify(claims));
  const signingInput = `${HEADER}.${payload}`;
  return `${signingInput}.${b64url(mac(secret, signingInput))}`;
}

/**
 * Verifies an HS256 JWT (constant-time signature check, `alg` pinned to HS256; `exp` honoured, `nbf` and `iat`
 * honoured with a small clock skew) and returns the caller. Throws TokenError with a precise code otherwise.
 * Only the token's own claims are read.
 */
export function verifyToken(
  secret: string,
  token: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  options: VerifyOptions = {},
): Principal {
  const skew = skewOf(options);
  checkSecret(secret);
  const verified = verifySignedClaims(secret, token);
  checkValidity(verified, nowSeconds, skew);
  return verified.principal;
}

/** The signature and the claims' shapes (no time checks). */
function verifySignedClaims(secret: string, token: string): Verified {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) {
    throw new TokenError('TOKEN_MALFORMED', 'a bearer token has three base64url parts');
  }
  const [header, payload, signature] = parts as [string, string, string];
  let parsedHeader: unknown;
  let claims: unknown;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new TokenError('TOKEN_MALFORMED', 'the token is not valid base64url JSON');
  }
  if (typeof parsedHeader !== 'object' || parsedHeader === null || own(parsedHeader, 'alg') !== 'HS256') {
    throw new TokenError('TOKEN_MALFORMED', 'only HS256 tokens are accepted');
  }
  const expected = mac(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new TokenError('TOKEN_SIGNATURE', 'the token signature does not match');
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims))
    throw new TokenError('TOKEN_CLAIMS', 'claims must be an object');
  const exp = secondsClaim(claims, 'exp');
  const nbf = secondsClaim(claims, 'nbf');
  const iat = secondsClaim(claims, 'iat');
  const sub = own(claims, 'sub');
  const role = own(claims, 'role');
  const tables = own(claims, 'tables');
  if (typeof sub !== 'string' || sub.length === 0)
    throw new TokenError('TOKEN_CLAIMS', 'the token has no sub');
  if (!isRole(role))
    throw new TokenError('TOKEN_CLAIMS', `the token's role '${String(role)}' is not a Coup role`);
  if (tables !== undefined && (!Array.isArray(tables) || tables.some((t) => typeof t !== 'string'))) {
    throw new TokenError('TOKEN_CLAIMS', 'tables must be a list of table ids');
  }
  const validFrom = nbf === null ? iat : iat === null ? nbf : Math.max(nbf, iat);
  return {
    principal: {
      id: sub,
      role,
      tables: tables === undefined ? null : [...(tables as string[])],
      ...sessionClaims(claims),
    },
    validFrom,
    exp,
  };
}

/** A staff sign-in's claims (`gen` and `roles`, both or neither), checked. */
function sessionClaims(claims: object): Pick<Principal, 'generation' | 'roles'> {
  const gen = own(claims, 'gen');
  const roles = own(claims, 'roles');
  if (gen === undefined && roles === undefined) return {};
  if (typeof gen !== 'number' || !Number.isSafeInteger(gen) || gen < 0)
    throw new TokenError('TOKEN_CLAIMS', 'gen must be a whole number >= 0');
  if (!Array.isArray(roles) || roles.length === 0 || !roles.every(isRole))
    throw new TokenError('TOKEN_CLAIMS', 'roles must be a list of Coup roles');
  return { generation: gen, roles: [...(roles as Role[])] };
}

/**
 * `verifyToken` with a memory of the tokens it has already verified: a player sends the same token with every bet,
 * and checking its HMAC each time is a measurable part of a bet's cost. A token is remembered only once its
 * signature and claims have passed, keyed by the whole token string (signature included), with its validity
 * window: `exp`, `nbf` and `iat` are checked again on every use (a remembered token expires on time, and is not
 * valid yet if the clock steps back before its `nbf`). Failures are never remembered. At most `maxEntries` tokens
 * are kept (oldest dropped first).
 */
export class TokenVerifier {
  private readonly verified = new Map<string, Verified>();
  private readonly maxEntries: number;
  private readonly skew: number;
  private readonly sessions: SessionCheck | null;

  /** `sessions`: checks a staff sign-in's token against its account on every use (remembered or not). */
  constructor(
    private readonly secret: string,
    options: VerifyOptions & { readonly maxEntries?: number; readonly sessions?: SessionCheck } = {},
  ) {
    checkSecret(secret);
    this.maxEntries = options.maxEntries ?? 10_000;
    this.skew = skewOf(options);
    this.sessions = options.sessions ?? null;
  }

  verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): Principal {
    return this.verifyWithExpiry(token, nowSeconds).principal;
  }

  /**
   * `verify`, with the token's `exp` (Unix seconds; null: it never expires), for a holder that keeps using the
   * token after this check (a live socket ends when it expires).
   */
  verifyWithExpiry(
    token: string,
    nowSeconds = Math.floor(Date.now() / 1000),
  ): { readonly principal: Principal; readonly expiresAt: number | null } {
    const known = this.verifyRemembered(token, nowSeconds);
    const principal = known.principal;
    if (this.sessions && principal.generation !== undefined)
      this.sessions(principal as Principal & { readonly generation: number });
    return { principal, expiresAt: known.exp };
  }

  private verifyRemembered(token: string, nowSeconds: number): Verified {
    let known = this.verified.get(token);
    if (!known) {
      known = verifySignedClaims(this.secret, token);
      checkValidity(known, nowSeconds, this.skew);
      if (this.verified.size >= this.maxEntries) {
        const oldest = this.verified.keys().next();
        if (!oldest.done) this.verified.delete(oldest.value);
      }
      this.verified.set(token, known);
      return known;
    }
    try {
      checkValidity(known, nowSeconds, this.skew);
    } catch (error) {
      if ((error as TokenError).code === 'TOKEN_EXPIRED') this.verified.delete(token);
      throw error;
    }
    return known;
  }
}
