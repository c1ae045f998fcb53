/**
 * The JSON edge: a body's depth and size are checked before any validation (400 JSON_TOO_DEEP, 413
 * PAYLOAD_TOO_LARGE), prototype keys are refused, and a body of any other media type is 415. Whatever is refused
 * records nothing.
 */
import { eventRows, openRound } from './http-helpers';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startService({ COUP_JSON_MAX_DEPTH: '32' });
  await openRound(h, 'J1');
});
afterAll(async () => {
  await h.close();
});

const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);

describe('deeply nested JSON', () => {
  it('a bet whose field is an array nested 2,000 levels (4 kB) is 400 JSON_TOO_DEEP and records nothing', async () => {
    const before = await eventRows(h);
    const raw = `{"playerId":"p1","spot":"player","amount":${nested(2000)}}`;
    expect(raw.length).toBeGreaterThan(4000);
    const r = await h.api('POST', '/api/tables/J1/rounds/1/bets', { token: h.token('dealer'), raw });
    expect([r.status, r.body.code]).toEqual([400, 'JSON_TOO_DEEP']);
    expect(r.body.message).toMatch(/32/);
    expect(await eventRows(h)).toBe(before);
  });

  it('table rules nested 3,000 levels are 400 JSON_TOO_DEEP and open no table', async () => {
    const before = await eventRows(h);
    const raw = `{"tableId":"DEEP","rules":{"limits":${nested(3000, '{}')}}}`;
    const r = await h.api('POST', '/api/tables', { raw });
    expect([r.status, r.body.code]).toEqual([400, 'JSON_TOO_DEEP']);
    expect(await eventRows(h)).toBe(before);
    expect((await h.api('GET', '/api/tables/DEEP')).status).toBe(404);
  });

  it('objects nested too deep are refused as well, brackets inside strings do not count', async () => {
    const objects = '{"a":'.repeat(40) + '1' + '}'.repeat(40);
    const r = await h.api('POST', '/api/tables/J1/rounds/1/rebet', { raw: objects });
    expect([r.status, r.body.code]).toEqual([400, 'JSON_TOO_DEEP']);
    // 1,000 brackets in a string are one string, not depth: the body reaches validation.
    const inString = JSON.stringify({ playerId: '['.repeat(1000) });
    const s = await h.api('POST', '/api/tables/J1/rounds/1/rebet', { raw: inString });
    expect([s.status, s.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    // Escaped quotes do not end the string early.
    const escaped = JSON.stringify({ playerId: '\\"' + '['.repeat(100) });
    const e = await h.api('POST', '/api/tables/J1/rounds/1/rebet', { raw: escaped });
    expect([e.status, e.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('a body exactly at the depth limit reaches validation', async () => {
    // The body object is level 1, so 31 arrays inside it make 32 levels.
    const r = await h.api('POST', '/api/tables/J1/rounds/1/bets', {
      token: h.token('dealer'),
      raw: `{"playerId":"p1","spot":"player","amount":${nested(31)}}`,
    });
    expect([r.status, r.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const over = await h.api('POST', '/api/tables/J1/rounds/1/bets', {
      token: h.token('dealer'),
      raw: `{"playerId":"p1","spot":"player","amount":${nested(32)}}`,
    });
    expect([over.status, over.body.code]).toEqual([400, 'JSON_TOO_DEEP']);
  });
});

describe('prototype keys, sizes and media types', () => {
  it.each([
    ['__proto__', '{"playerId":"p1","spot":"player","amount":100,"__proto__":{"amount":1}}'],
    [
      'constructor.prototype',
      '{"playerId":"p1","spot":"player","amount":100,"constructor":{"prototype":{"x":1}}}',
    ],
    ['nested __proto__', '{"tableId":"PROTO","rules":{"limits":{"__proto__":{"polluted":true}}}}'],
  ])('a body with %s is 400 and records nothing', async (_, raw) => {
    const before = await eventRows(h);
    const r = await h.api('POST', raw.includes('tableId') ? '/api/tables' : '/api/tables/J1/rounds/1/bets', {
      token: raw.includes('tableId') ? h.token('admin') : h.token('dealer'),
      raw,
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('INVALID_JSON');
    expect(await eventRows(h)).toBe(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a body over COUP_BODY_LIMIT is 413 PAYLOAD_TOO_LARGE', async () => {
    const raw = JSON.stringify({ playerId: 'p1', spot: 'player', amount: 100, pad: 'x'.repeat(70_000) });
    const r = await h.api('POST', '/api/tables/J1/rounds/1/bets', { token: h.token('dealer'), raw });
    expect([r.status, r.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it.each([
    ['application/x-www-form-urlencoded', 'playerId=p1&spot=player&amount=100'],
    ['text/plain', '{"playerId":"p1","spot":"player","amount":100}'],
    ['application/xml', '<bet/>'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('a body of type %s is 415 UNSUPPORTED_MEDIA_TYPE and records nothing', async (type, raw) => {
    const before = await eventRows(h);
    const r = await h.api('POST', '/api/tables/J1/rounds/1/bets', {
      token: h.token('dealer'),
      raw,
      headers: { 'content-type': type },
    });
    expect([r.status, r.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(await eventRows(h)).toBe(before);
  });

  it('application/json with a charset is accepted', async () => {
    const r = await h.api('POST', '/api/tables/J1/rounds/1/bets', {
      token: h.token('dealer'),
      raw: JSON.stringify({ playerId: 'p1', spot: 'player', amount: 100 }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(201);
  });
});
