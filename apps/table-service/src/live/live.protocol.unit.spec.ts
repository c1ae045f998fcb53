import fc from 'fast-check';
import { parseClientMessage } from './live.protocol';
import { TokenBucket } from './live.limits';

const parse = (value: unknown) => parseClientMessage(JSON.stringify(value));

describe('the live protocol schema', () => {
  it.each([
    [{ type: 'ping' }, { type: 'ping' }],
    [
      { type: 'ping', id: 'a1' },
      { type: 'ping', id: 'a1' },
    ],
    [{ type: 'unsubscribe' }, { type: 'unsubscribe' }],
    [
      { type: 'subscribe', tableId: 'T1' },
      { type: 'subscribe', tableId: 'T1' },
    ],
    [
      { type: 'subscribe', tableId: 'T1', fromRevision: -1 },
      { type: 'subscribe', tableId: 'T1', fromRevision: -1n },
    ],
    [
      { type: 'subscribe', tableId: 'T1', fromRevision: 0 },
      { type: 'subscribe', tableId: 'T1', fromRevision: 0n },
    ],
    [
      { type: 'subscribe', tableId: 'T1', fromRevision: '42' },
      { type: 'subscribe', tableId: 'T1', fromRevision: 42n },
    ],
    [
      { type: 'subscribe', tableId: 'a_b-9', fromRevision: Number.MAX_SAFE_INTEGER },
      { type: 'subscribe', tableId: 'a_b-9', fromRevision: BigInt(Number.MAX_SAFE_INTEGER) },
    ],
  ])('accepts %j', (input, message) => {
    expect(parse(input)).toEqual({ ok: true, message });
  });

  it.each([
    ['-2', -2],
    ['a large negative', -1e9],
    ['huge', 1e300],
    ['past the safe integers', 2 ** 53],
    ['a fraction', 0.5],
    ['a negative string', '-2'],
    ['a string with a sign', '+3'],
    ['a string with leading zeros', '007'],
    ['a fractional string', '1.5'],
    ['an exponent string', '1e3'],
    ['a non-numeric string', 'abc'],
    ['an empty string', ''],
    ['an object', { n: 1 }],
    ['an array', [1]],
    ['null', null],
    ['true', true],
  ])('refuses fromRevision %s', (_name, fromRevision) => {
    expect(parse({ type: 'subscribe', tableId: 'T1', fromRevision })).toEqual({
      ok: false,
      refusal: { code: 'INVALID_MESSAGE', message: expect.stringContaining('fromRevision') },
    });
  });

  it.each([
    ['not JSON', 'nope', 'INVALID_JSON'],
    ['an empty frame', '', 'INVALID_JSON'],
    ['an array', '[{"type":"ping"}]', 'INVALID_MESSAGE'],
    ['null', 'null', 'INVALID_MESSAGE'],
    ['a number', '7', 'INVALID_MESSAGE'],
    ['an unknown type', '{"type":"shout"}', 'INVALID_MESSAGE'],
    ['a type that is not a string', '{"type":["ping"]}', 'INVALID_MESSAGE'],
    ['no type', '{"tableId":"T1"}', 'INVALID_MESSAGE'],
    ['a prototype key', '{"type":"ping","__proto__":{"x":1}}', 'INVALID_MESSAGE'],
    ['a constructor key', '{"type":"unsubscribe","constructor":{}}', 'INVALID_MESSAGE'],
    ['the type only in a prototype', '{"__proto__":{"type":"ping"}}', 'INVALID_MESSAGE'],
    ['an unknown field', '{"type":"subscribe","tableId":"T1","from":1}', 'INVALID_MESSAGE'],
    ['a table id with a path', '{"type":"subscribe","tableId":"../T1"}', 'INVALID_MESSAGE'],
    [
      'a table id too long',
      JSON.stringify({ type: 'subscribe', tableId: 'T'.repeat(65) }),
      'INVALID_MESSAGE',
    ],
    ['a table id that is an object', '{"type":"subscribe","tableId":{"toString":"T1"}}', 'INVALID_MESSAGE'],
    ['a ping id too long', JSON.stringify({ type: 'ping', id: 'x'.repeat(65) }), 'INVALID_MESSAGE'],
    ['a ping id that is an object', '{"type":"ping","id":{}}', 'INVALID_MESSAGE'],
  ])('refuses %s with %s', (_name, text, code) => {
    expect(parseClientMessage(text)).toMatchObject({ ok: false, refusal: { code } });
  });

  it('never throws, and accepts only what the schema names, for any JSON value or text', () => {
    const keys = fc.constantFrom(
      'type',
      'tableId',
      'fromRevision',
      'id',
      '__proto__',
      'constructor',
      'prototype',
      'x',
    );
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        fc.dictionary(keys, tie('any'), { maxKeys: 4 }),
        fc.record(
          {
            type: fc.constantFrom('subscribe', 'unsubscribe', 'ping', 'Subscribe', ''),
            tableId: fc.oneof(fc.string(), fc.constantFrom('T1', 'a'.repeat(64))),
            fromRevision: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.bigInt().map(String)),
          },
          { requiredKeys: ['type'] },
        ),
      ),
    })).any;
    fc.assert(
      fc.property(
        fc.oneof(
          value.map((v) => JSON.stringify(v) ?? 'null'),
          fc.string(),
        ),
        (text) => {
          const result = parseClientMessage(text);
          if (!result.ok) return;
          const m = result.message;
          const raw = JSON.parse(text) as Record<string, unknown>;
          expect(Object.keys(raw).every((k) => ['type', 'tableId', 'fromRevision', 'id'].includes(k))).toBe(
            true,
          );
          if (m.type === 'subscribe') {
            expect(m.tableId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
            if (m.fromRevision !== undefined) expect(m.fromRevision >= -1n).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a deeply nested or long frame without trouble', () => {
    expect(parseClientMessage('['.repeat(3000) + ']'.repeat(3000))).toMatchObject({ ok: false });
    expect(parseClientMessage(`{"type":"ping","id":"${'x'.repeat(4000)}"}`)).toMatchObject({ ok: false });
  });
});

describe('the rate of a socket', () => {
  it('gives a burst of its capacity, then refills at its rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 20, () => now);
    for (let i = 0; i < 20; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    expect(bucket.waitMs()).toBe(100);
    now += 99;
    expect(bucket.take()).toBe(false);
    now += 1;
    expect(bucket.take()).toBe(true);
    expect(bucket.take(5)).toBe(false);
    expect(bucket.waitMs(5)).toBe(500);
    now += 10_000;
    expect(bucket.take(20)).toBe(true);
    expect(bucket.take()).toBe(false);
  });
});
