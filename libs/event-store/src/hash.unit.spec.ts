import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { EventStoreInputError } from './errors';
import { canonicalJson, computeEventHash, GENESIS_HASH, hashCanonical } from './hash';
import type { JsonValue } from './types';

const json = fc.jsonValue() as fc.Arbitrary<JsonValue>;

/** The same value with every object's keys inserted in reverse order. */
function reversedKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a '__proto__' key stays a key.
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reversedKeys(value[key]!)]),
  );
}

describe('canonicalJson', () => {
  it('given any JSON value, when encoded, then it parses back to an equal value', () => {
    fc.assert(
      fc.property(json, (value) =>
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value))),
      ),
    );
  });

  it('given the same value with keys in another order, then the encoding is identical', () => {
    fc.assert(
      fc.property(json, (value) => expect(canonicalJson(reversedKeys(value))).toBe(canonicalJson(value))),
    );
  });

  it('sorts keys by UTF-16 code units and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], B: { z: -0, y: 1.5e-7 }, é: '' })).toBe(
      '{"B":{"y":1.5e-7,"z":0},"a":[true,null,"x"],"b":1,"é":""}',
    );
  });

  it.each([
    ['undefined', { a: undefined }, '$.a is a undefined'],
    ['a function', [() => 1], '$[0] is a function'],
    ['NaN', { n: Number.NaN }, '$.n is NaN'],
    ['-Infinity', { n: Number.NEGATIVE_INFINITY }, '$.n is -Infinity'],
    ['a bigint', { n: 1n }, '$.n is a bigint'],
    ['a symbol', { s: Symbol('x') }, '$.s is a symbol'],
    ['a Date', { d: new Date(0) }, '$.d is a Date object'],
    ['a Map', new Map(), '$ is a Map object'],
    ['a sparse array', new Array(3).fill(1, 0, 1), '$[1] is a hole'],
  ])('refuses %s, naming where it is', (_what, value, message) => {
    expect(() => canonicalJson(value as unknown as JsonValue)).toThrow(EventStoreInputError);
    expect(() => canonicalJson(value as unknown as JsonValue)).toThrow(message);
  });

  it('refuses cycles and absurd nesting', () => {
    const cycle: { [k: string]: JsonValue } = {};
    cycle['me'] = [cycle];
    expect(() => canonicalJson(cycle)).toThrow('$.me[0] is a cycle');
    let deep: JsonValue = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/nests deeper/);
  });

  it('accepts a shared (non-cyclic) object twice', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});

describe('computeEventHash', () => {
  const input = {
    streamName: 'table-T1',
    streamRevision: 0n,
    type: 'BetPlaced',
    data: { spot: 'banker', amount: 2500 },
    metadata: { schemaVersion: 1, actor: 'player:p1' },
    prevHash: GENESIS_HASH,
  };

  it('is the SHA-256 of the canonical JSON of stream, revision (as a string), type, data, metadata and prevHash', () => {
    const text =
      '{"data":{"amount":2500,"spot":"banker"},"metadata":{"actor":"player:p1","schemaVersion":1},' +
      `"prevHash":"${GENESIS_HASH}","revision":"0","stream":"table-T1","type":"BetPlaced"}`;
    expect(computeEventHash(input)).toBe(createHash('sha256').update(text).digest('hex'));
    // Known answer, for other implementations of the verifier:
    expect(computeEventHash(input)).toBe('c0d5c593345ff89deb3e599e0e8168b7efa9c9aa122155c1d2a202c9757a260f');
  });

  it('agrees with the stored-form shortcut and changes with every covered field', () => {
    const base = computeEventHash(input);
    expect(
      hashCanonical(
        'table-T1',
        0n,
        'BetPlaced',
        canonicalJson(input.data),
        canonicalJson(input.metadata),
        GENESIS_HASH,
      ),
    ).toBe(base);
    const variants = [
      { ...input, streamName: 'table-T2' },
      { ...input, streamRevision: 1n },
      { ...input, type: 'BetCleared' },
      { ...input, data: { spot: 'banker', amount: 2501 } },
      { ...input, metadata: { schemaVersion: 2, actor: 'player:p1' } },
      { ...input, prevHash: 'a'.repeat(64) },
    ];
    for (const variant of variants) expect(computeEventHash(variant)).not.toBe(base);
  });

  it('keeps revisions beyond 2^53 exact', () => {
    const a = computeEventHash({ ...input, streamRevision: 2n ** 53n + 1n });
    const b = computeEventHash({ ...input, streamRevision: 2n ** 53n + 2n });
    expect(a).not.toBe(b);
  });
});
