/**
 * Shoes and the deterministic shuffle. The same 32-byte seed gives the same order in Node and in a browser, so
 * a table can publish `commitment(seed) = sha256(seed)` before play and reveal the seed after, and anyone can
 * re-shuffle and check every card.
 *
 * The algorithm, exactly (a reimplementation must follow it to the byte):
 * 1. Random words. Block `k` (k = 0, 1, 2, ...) is `HMAC-SHA256(key = seed, message = k as an 8-byte unsigned
 *    big-endian integer)`. Each 32-byte block is read as eight unsigned 32-bit big-endian words, in order; when
 *    all eight are used, the next block is computed (k += 1).
 * 2. Uniform integers. An integer in `[0, n)` (1 <= n <= 2^32) takes the next word `w`; if
 *    `w >= 2^32 - (2^32 mod n)` the word is rejected and the next one is taken, otherwise the result is `w mod n`
 *    (rejection sampling: no modulo bias).
 * 3. Fisher-Yates from the end: for `i` from `length - 1` down to 1, draw `j` uniform in `[0, i]` (n = i + 1) and
 *    swap the items at `i` and `j`.
 * The shoe shuffled is {@link orderedShoe}: `decks` copies of {@link DECK} (clubs A-K, diamonds, hearts, spades).
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { bytesToHex, isBytes, utf8ToBytes } from '@noble/hashes/utils';
import { type Card, DECK, checkDecks } from './cards';
import { EngineError, describeInput } from './errors';

/** The length of a shuffle seed in bytes. */
export const SEED_BYTES = 32;
const TWO_32 = 0x1_0000_0000;

/**
 * A shoe in deck order: `decks` copies of {@link DECK} one after another (`decks * 52` cards).
 * @throws EngineError `INVALID_DECKS` unless `decks` is an integer 1-8.
 */
export function orderedShoe(decks: number): Card[] {
  const n = checkDecks(decks);
  const shoe: Card[] = [];
  for (let d = 0; d < n; d++) shoe.push(...DECK);
  return shoe;
}

function checkSeed(seed: unknown): Uint8Array {
  if (!isBytes(seed) || seed.length !== SEED_BYTES) {
    const got = isBytes(seed) ? `${seed.length} bytes` : describeInput(seed);
    throw new EngineError(
      'INVALID_SEED',
      `A seed must be exactly ${SEED_BYTES} bytes (a Uint8Array), got ${got}`,
      {
        length: isBytes(seed) ? seed.length : undefined,
      },
    );
  }
  return seed;
}

/**
 * The stream of random 32-bit words of a seed (step 1 of the algorithm above): each call returns the next
 * word, an unsigned integer in `[0, 2^32)`.
 * @throws EngineError `INVALID_SEED` unless `seed` is exactly 32 bytes.
 */
export function hmacWordStream(seed: Uint8Array): () => number {
  const keyed = hmac.create(sha256, checkSeed(seed));
  const message = new Uint8Array(8);
  const view = new DataView(message.buffer);
  let counter = 0;
  let block: DataView = new DataView(new ArrayBuffer(32));
  let offset = 32;
  return () => {
    if (offset === 32) {
      view.setUint32(0, Math.floor(counter / TWO_32));
      view.setUint32(4, counter >>> 0);
      const digest = keyed.clone().update(message).digest();
      block = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
      counter += 1;
      offset = 0;
    }
    const word = block.getUint32(offset); // big-endian
    offset += 4;
    return word;
  };
}

/**
 * A uniform integer in `[0, n)` from a stream of 32-bit words, by rejection sampling (step 2 above).
 * @throws EngineError `INVALID_ARGUMENT` unless `n` is an integer from 1 to 2^32.
 */
export function uniformInt(n: number, nextWord: () => number): number {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `uniformInt needs an integer n from 1 to 2^32, got ${String(n)}`,
      { n },
    );
  }
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const word = nextWord();
    if (word < limit) return word % n;
  }
}

/**
 * A shuffled copy of `items` (the input is not changed): Fisher-Yates from the end, driven by the seed's
 * HMAC-SHA256 word stream with rejection sampling (see the algorithm at the top of this module).
 * @throws EngineError `INVALID_SEED` unless `seed` is exactly 32 bytes.
 */
export function shuffle<T>(items: readonly T[], seed: Uint8Array): T[] {
  const next = hmacWordStream(seed);
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformInt(i + 1, next);
    const t = out[i] as T;
    out[i] = out[j] as T;
    out[j] = t;
  }
  return out;
}

/**
 * A shuffled shoe: `shuffle(orderedShoe(decks), seed)`.
 * @throws EngineError `INVALID_DECKS` or `INVALID_SEED`.
 */
export function shuffleShoe(decks: number, seed: Uint8Array): Card[] {
  const shoe = orderedShoe(decks);
  return shuffle(shoe, seed);
}

/**
 * The commitment to publish before play: lowercase hex SHA-256 of the seed.
 * @throws EngineError `INVALID_SEED` unless `seed` is exactly 32 bytes.
 */
export function commitment(seed: Uint8Array): string {
  return sha256Hex(checkSeed(seed));
}

/**
 * A seed from 64 hex characters (either case).
 * @throws EngineError `INVALID_SEED` otherwise.
 */
export function seedFromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new EngineError(
      'INVALID_SEED',
      `A seed in hex must be exactly 64 hex characters, got ${describeInput(hex)}`,
      {
        input: hex,
      },
    );
  }
  const seed = new Uint8Array(SEED_BYTES);
  for (let i = 0; i < SEED_BYTES; i++) seed[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return seed;
}

/**
 * A seed as 64 lowercase hex characters.
 * @throws EngineError `INVALID_SEED` unless `seed` is exactly 32 bytes.
 */
export function seedToHex(seed: Uint8Array): string {
  return bytesToHex(checkSeed(seed));
}

/**
 * Lowercase hex SHA-256 of bytes, or of a string encoded as UTF-8.
 * @throws EngineError `INVALID_ARGUMENT` for anything else.
 */
export function sha256Hex(bytes: Uint8Array | string): string {
  if (typeof bytes !== 'string' && !isBytes(bytes)) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `sha256Hex takes bytes or a string, got ${describeInput(bytes)}`,
    );
  }
  return bytesToHex(sha256(typeof bytes === 'string' ? utf8ToBytes(bytes) : bytes));
}
