/**
 * Staff passwords: scrypt (node:crypto, run in libuv's thread pool, off the event loop) with a random salt, the
 * parameters kept in the hash so they can be raised later without breaking older hashes, and a constant-time
 * comparison. Format: `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<key, base64url>`.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  readonly log2N: number;
  /** Block size. */
  readonly r: number;
  /** Parallelization. */
  readonly p: number;
}

/**
 * N = 2^15, r = 8, p = 3: one of OWASP's equivalent scrypt settings (as costly as N = 2^17, p = 1), 32 MiB of
 * memory per hash instead of 128, so four sign-ins hashing at once (the thread pool) hold 128 MiB.
 */
export const DEFAULT_SCRYPT: ScryptParams = Object.freeze({ log2N: 15, r: 8, p: 3 });

/** Passwords staff choose: at least this many characters (and at most PASSWORD_MAX_LENGTH). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Bounds a stored hash's parameters must keep to (a tampered hash must not make us allocate gigabytes). */
const BOUNDS = { log2N: [10, 20], r: [1, 32], p: [1, 16] } as const;

function inBounds(params: ScryptParams): boolean {
  return (Object.keys(BOUNDS) as (keyof ScryptParams)[]).every(
    (k) => Number.isSafeInteger(params[k]) && params[k] >= BOUNDS[k][0] && params[k] <= BOUNDS[k][1],
  );
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.log2N;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** A new hash of `password` with a fresh salt. */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  if (!inBounds(params)) throw new RangeError(`scrypt parameters out of bounds: ${JSON.stringify(params)}`);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return [
    'scrypt',
    params.log2N,
    params.r,
    params.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

interface Parsed {
  readonly params: ScryptParams;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function parse(hash: string): Parsed | null {
  const parts = typeof hash === 'string' ? hash.split('$') : [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const params = { log2N: Number(n), r: Number(r), p: Number(p) };
  if (![n, r, p].every((x) => /^\d{1,2}$/.test(x)) || !inBounds(params)) return null;
  const saltBytes = Buffer.from(salt, 'base64url');
  const keyBytes = Buffer.from(key, 'base64url');
  if (saltBytes.length < 8 || keyBytes.length !== KEY_BYTES) return null;
  return { params, salt: saltBytes, key: keyBytes };
}

/** Whether `hash` is one this module can check. */
export function isPasswordHash(hash: string): boolean {
  return parse(hash) !== null;
}

/**
 * Does `password` match `hash`? Constant-time comparison of the derived keys; a hash that is not one of ours is
 * false, never an exception.
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parse(hash);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

/**
 * Spends what checking a password costs, for a sign-in whose user does not exist or has no password: the answer
 * then takes as long as a wrong password's, so timing does not tell which user names exist.
 */
export async function spendPasswordCheck(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<false> {
  await derive(password, Buffer.alloc(SALT_BYTES), params);
  return false;
}
