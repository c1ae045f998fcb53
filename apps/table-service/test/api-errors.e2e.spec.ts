/**
 * Every refusal over real HTTP: 401 and 403 on every endpoint, each domain error code, malformed bodies,
 * and idempotent retries. Whatever is refused records nothing: the table's stream head must not move.
 */
import type { Role } from '@coup/auth';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
const head = async (tableId: string) =>
  (await h.app.get(EventStoreHandle).store.streamHead(`table-${tableId}`))?.revision ?? -1n;

beforeAll(async () => {
  h = await startService();
  const admin = { token: h.token('admin') };
  await h.api('POST', '/api/tables', {
    ...admin,
    body: {
      tableId: 'E1',
      rules: {
        dealing: 'live',
        limits: {
          player: { min: 500, max: 10000 },
          banker: { min: 500, max: 10000 },
          tie: { min: 100, max: 2000 },
        },
      },
    },
  });
  await h.api('POST', '/api/tables/E1/players/p1/buy-in', { ...admin, body: { amount: 20000 } });
  await h.api('POST', '/api/tables/E1/shoes', { token: h.token('dealer'), body: { firstCard: '5h' } });
  await h.api('POST', '/api/tables/E1/rounds', { token: h.token('dealer') });
});
afterAll(async () => {
  await h.close();
});

type Endpoint = { method: string; path: string; roles: Role[]; body?: unknown };
const endpoints: Endpoint[] = [
  { method: 'POST', path: '/api/tables', roles: ['admin'], body: { tableId: 'X9' } },
  {
    method: 'GET',
    path: '/api/tables',
    roles: ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'],
  },
  {
    method: 'GET',
    path: '/api/tables/E1',
    roles: ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'],
  },
  { method: 'DELETE', path: '/api/tables/E1', roles: ['admin'] },
  { method: 'POST', path: '/api/tables/E1/players/p1/buy-in', roles: ['admin'], body: { amount: 100 } },
  { method: 'POST', path: '/api/tables/E1/players/p1/cash-out', roles: ['admin'] },
  {
    method: 'POST',
    path: '/api/tables/E1/shoes',
    roles: ['dealer', 'supervisor'],
    body: { firstCard: 'Ah' },
  },
  { method: 'POST', path: '/api/tables/E1/rounds', roles: ['dealer', 'supervisor'] },
  {
    method: 'POST',
    path: '/api/tables/E1/rounds/1/bets',
    roles: ['player', 'dealer', 'supervisor', 'admin'],
    body: { playerId: 'p1', spot: 'player', amount: 500 },
  },
  {
    method: 'DELETE',
    path: '/api/tables/E1/rounds/1/bets/p1',
    roles: ['player', 'dealer', 'supervisor', 'admin'],
  },
  {
    method: 'POST',
    path: '/api/tables/E1/rounds/1/rebet',
    roles: ['player', 'dealer', 'supervisor', 'admin'],
    body: { playerId: 'p1' },
  },
  { method: 'POST', path: '/api/tables/E1/rounds/1/close', roles: ['dealer', 'supervisor'] },
  { method: 'POST', path: '/api/tables/E1/rounds/1/deal', roles: ['dealer', 'supervisor', 'player'] },
  {
    method: 'POST',
    path: '/api/tables/E1/rounds/1/cards',
    roles: ['dealer', 'supervisor'],
    body: { card: 'Ah' },
  },
  { method: 'PUT', path: '/api/tables/E1/rounds/1/cards/0', roles: ['supervisor'], body: { card: 'Ah' } },
  {
    method: 'POST',
    path: '/api/tables/E1/rounds/1/void',
    roles: ['supervisor'],
    body: { reason: 'test void' },
  },
];
const ALL: Role[] = ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'];

describe('authentication and authorization on every endpoint', () => {
  it.each(endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))(
    '%s: 401 without a token, 401 with a bad one',
    async (_name, e) => {
      const before = await head('E1');
      const none = await h.api(e.method, e.path, { token: null, body: e.body });
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('UNAUTHENTICATED');
      const bad = await h.api(e.method, e.path, { token: 'not.a.token', body: e.body });
      expect(bad.status).toBe(401);
      expect(await head('E1')).toBe(before);
    },
  );

  it.each(
    endpoints.filter((e) => e.roles.length < ALL.length).map((e) => [`${e.method} ${e.path}`, e] as const),
  )('%s: 403 for every role not allowed', async (_name, e) => {
    const before = await head('E1');
    for (const role of ALL.filter((r) => !e.roles.includes(r))) {
      const res = await h.api(e.method, e.path, { token: h.token(role), body: e.body });
      expect([role, res.status, res.body.code]).toEqual([role, 403, 'FORBIDDEN']);
    }
    expect(await head('E1')).toBe(before);
  });

  it('a dealer limited to other tables gets 403 here', async () => {
    const res = await h.api('POST', '/api/tables/E1/rounds/1/close', {
      token: h.token('dealer', 'd9', ['T7']),
    });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('a player may not bet for another player', async () => {
    const res = await h.api('POST', '/api/tables/E1/rounds/1/bets', {
      token: h.token('player', 'p2'),
      body: { playerId: 'p1', spot: 'player', amount: 500 },
    });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('malformed requests are 400 and record nothing', () => {
  const bet = '/api/tables/E1/rounds/1/bets';
  const cases: [string, { body?: unknown; raw?: string; headers?: Record<string, string> }, string][] = [
    ['amount as a string', { body: { playerId: 'p1', spot: 'player', amount: '500' } }, 'VALIDATION_FAILED'],
    ['negative amount', { body: { playerId: 'p1', spot: 'player', amount: -500 } }, 'VALIDATION_FAILED'],
    ['zero amount', { body: { playerId: 'p1', spot: 'player', amount: 0 } }, 'VALIDATION_FAILED'],
    ['fractional amount', { body: { playerId: 'p1', spot: 'player', amount: 500.5 } }, 'VALIDATION_FAILED'],
    ['huge amount', { body: { playerId: 'p1', spot: 'player', amount: 1e20 } }, 'VALIDATION_FAILED'],
    ['unknown spot', { body: { playerId: 'p1', spot: 'dragon', amount: 500 } }, 'VALIDATION_FAILED'],
    [
      'unknown field',
      { body: { playerId: 'p1', spot: 'player', amount: 500, bonus: true } },
      'VALIDATION_FAILED',
    ],
    ['missing field', { body: { playerId: 'p1', amount: 500 } }, 'VALIDATION_FAILED'],
    ['an array body', { body: [1, 2] }, 'VALIDATION_FAILED'],
    ['broken JSON', { raw: '{"playerId": "p1", "spot": ' }, 'INVALID_JSON'],
    ['bad player id', { body: { playerId: 'p 1!', spot: 'player', amount: 500 } }, 'VALIDATION_FAILED'],
  ];
  it.each(cases)('%s', async (_name, request, code) => {
    const before = await head('E1');
    const res = await h.api('POST', bet, { token: h.token('dealer'), ...request });
    expect([res.status, res.body.code]).toEqual([400, code]);
    expect(typeof res.body.message).toBe('string');
    expect(await head('E1')).toBe(before);
  });

  it('a body over the limit is 413', async () => {
    const res = await h.api('POST', bet, {
      token: h.token('dealer'),
      raw: JSON.stringify({ playerId: 'p1', spot: 'player', amount: 500, pad: 'x'.repeat(200_000) }),
    });
    expect([res.status, res.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('bad path parameters are 400', async () => {
    expect(
      (await h.api('POST', '/api/tables/E1/rounds/abc/close', { token: h.token('dealer') })).body.code,
    ).toBe('INVALID_PARAMETER');
    expect(
      (await h.api('POST', '/api/tables/E1/rounds/-1/close', { token: h.token('dealer') })).body.code,
    ).toBe('INVALID_PARAMETER');
    expect(
      (
        await h.api('PUT', '/api/tables/E1/rounds/1/cards/9', {
          token: h.token('supervisor'),
          body: { card: 'Ah' },
        })
      ).body.code,
    ).toBe('INVALID_PARAMETER');
  });

  it('bad rules are 400 INVALID_RULES and open nothing', async () => {
    const res = await h.api('POST', '/api/tables', { body: { tableId: 'BAD', rules: { decks: 9 } } });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_RULES']);
    const unknown = await h.api('POST', '/api/tables', {
      body: { tableId: 'BAD', rules: { speed: 'fast' } },
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'INVALID_RULES']);
    expect(await head('BAD')).toBe(-1n);
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await h.api('GET', '/api/nothing-here');
    expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('domain refusals carry stable codes and record nothing', () => {
  const dealer = () => ({ token: h.token('dealer') });
  const p1 = () => ({ token: h.token('player', 'p1') });
  const expectRefused = async (
    method: string,
    path: string,
    options: object,
    status: number,
    code: string,
  ) => {
    const before = await head('E1');
    const res = await h.api(method, path, options);
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(await head('E1')).toBe(before);
  };

  it('UNKNOWN_TABLE', async () => {
    await expect(h.api('GET', '/api/tables/NOPE')).resolves.toMatchObject({
      status: 404,
      body: { code: 'UNKNOWN_TABLE' },
    });
    await expect(h.api('POST', '/api/tables/NOPE/rounds', dealer())).resolves.toMatchObject({
      status: 404,
      body: { code: 'UNKNOWN_TABLE' },
    });
  });
  it('TABLE_EXISTS', () =>
    expectRefused('POST', '/api/tables', { body: { tableId: 'E1' } }, 409, 'TABLE_EXISTS'));
  it('BET_LIMIT above the max', () =>
    expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/bets',
      { ...p1(), body: { playerId: 'p1', spot: 'player', amount: 10100 } },
      400,
      'BET_LIMIT',
    ));
  it('BET_LIMIT below the min on a dealer table', () =>
    expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/bets',
      { ...p1(), body: { playerId: 'p1', spot: 'player', amount: 100 } },
      400,
      'BET_LIMIT',
    ));
  it('INVALID_AMOUNT when not made of the chips', async () => {
    const res = await h.api('POST', '/api/tables/E1/rounds/1/bets', {
      ...p1(),
      body: { playerId: 'p1', spot: 'player', amount: 550 },
    });
    expect(res.body.code).toBe('INVALID_AMOUNT');
  });
  it('UNKNOWN_PLAYER for a player not seated', () =>
    expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/bets',
      { token: h.token('player', 'ghost'), body: { playerId: 'ghost', spot: 'player', amount: 500 } },
      404,
      'UNKNOWN_PLAYER',
    ));
  it('WRONG_ROUND', () =>
    expectRefused(
      'POST',
      '/api/tables/E1/rounds/7/bets',
      { ...p1(), body: { playerId: 'p1', spot: 'player', amount: 500 } },
      409,
      'WRONG_ROUND',
    ));
  it('NO_PREVIOUS_BETS', () =>
    expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/rebet',
      { ...p1(), body: { playerId: 'p1' } },
      409,
      'NO_PREVIOUS_BETS',
    ));
  it('PLAYER_AND_BANKER, INSUFFICIENT_CHIPS, BETS_IN_PLAY', async () => {
    expect(
      (
        await h.api('POST', '/api/tables/E1/rounds/1/bets', {
          ...p1(),
          body: { playerId: 'p1', spot: 'player', amount: 10000 },
        })
      ).status,
    ).toBe(201);
    await expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/bets',
      { ...p1(), body: { playerId: 'p1', spot: 'banker', amount: 500 } },
      400,
      'PLAYER_AND_BANKER',
    );
    expect(
      (
        await h.api('POST', '/api/tables/E1/rounds/1/bets', {
          ...p1(),
          body: { playerId: 'p1', spot: 'tie', amount: 2000 },
        })
      ).status,
    ).toBe(201);
    await h.api('POST', '/api/tables/E1/players/p1/buy-in', { body: { amount: 100 } });
    // 20100 bought in, 12000 on the layout: 8100 left, tie max 2000 reached.
    expect(
      (
        await h.api('POST', '/api/tables/E1/rounds/1/bets', {
          ...p1(),
          body: { playerId: 'p1', spot: 'tie', amount: 100 },
        })
      ).body.code,
    ).toBe('BET_LIMIT');
    await expectRefused('POST', '/api/tables/E1/players/p1/cash-out', {}, 409, 'BETS_IN_PLAY');
  });
  it('INSUFFICIENT_CHIPS', async () => {
    await h.api('POST', '/api/tables/E1/players/p3/buy-in', { body: { amount: 600 } });
    await expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/bets',
      { token: h.token('player', 'p3'), body: { playerId: 'p3', spot: 'banker', amount: 1000 } },
      409,
      'INSUFFICIENT_CHIPS',
    );
  });
  it('CARD_NOT_DUE while betting; WRONG_DEALING_MODE for an rng deal on a live table', async () => {
    await expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/cards',
      { ...dealer(), body: { card: 'Ah' } },
      409,
      'CARD_NOT_DUE',
    );
    await expectRefused('POST', '/api/tables/E1/rounds/1/deal', dealer(), 400, 'WRONG_DEALING_MODE');
  });
  it('WRONG_PHASE: a new round while one is open', () =>
    expectRefused('POST', '/api/tables/E1/rounds', dealer(), 409, 'WRONG_PHASE'));
  it('BETTING_CLOSED after no more bets', async () => {
    await h.api('POST', '/api/tables', { body: { tableId: 'E2', rules: { dealing: 'rng' } } });
    await h.api('POST', '/api/tables/E2/players/p1/buy-in', { body: { amount: 5000 } });
    await h.api('POST', '/api/tables/E2/shoes', dealer());
    await h.api('POST', '/api/tables/E2/rounds', dealer());
    await h.api('POST', '/api/tables/E2/rounds/1/close', dealer());
    const before = await head('E2');
    const res = await h.api('POST', '/api/tables/E2/rounds/1/bets', {
      ...p1(),
      body: { playerId: 'p1', spot: 'player', amount: 500 },
    });
    expect([res.status, res.body.code]).toEqual([409, 'BETTING_CLOSED']);
    expect(await head('E2')).toBe(before);
  });
  it('INVALID_CARD and CARD_NOT_IN_SHOE (a ninth ace of spades)', async () => {
    expect((await h.api('POST', '/api/tables/E1/rounds/1/close', dealer())).status).toBe(200);
    await expectRefused(
      'POST',
      '/api/tables/E1/rounds/1/cards',
      { ...dealer(), body: { card: '1s' } },
      400,
      'INVALID_CARD',
    );
    // Alternate player/banker with small cards so the coup keeps needing cards: As As As As -> P 2, B 2: both draw.
    for (let i = 0; i < 4; i++)
      expect(
        (await h.api('POST', '/api/tables/E1/rounds/1/cards', { ...dealer(), body: { card: 'As' } })).status,
      ).toBe(200);
    expect(
      (await h.api('POST', '/api/tables/E1/rounds/1/cards', { ...dealer(), body: { card: 'As' } })).status,
    ).toBe(200);
    // Six aces of spades dealt here plus the turned 5h: an 8-deck shoe holds 8 aces of spades. Correct one to a 9th? Use the void path instead:
    const correction = await h.api('PUT', '/api/tables/E1/rounds/1/cards/4', {
      token: h.token('supervisor'),
      body: { card: 'Ks' },
    });
    expect(correction.status).toBe(200);
    // a reason is one line of visible text: a control, bidi or zero-width character is a 400 before the decider
    for (const reason of [
      'misdeal\r\nVOID APPROVED BY GAMING COMMISSION',
      'misdeal\u001b[2J',
      'misdeal \u202e',
      '\u200b\u200b\u200b',
      'mis\u0000deal',
    ]) {
      const before = await head('E1');
      const refused = await h.api('POST', '/api/tables/E1/rounds/1/void', {
        token: h.token('supervisor'),
        body: { reason },
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(JSON.stringify(refused.body)).toContain('reason must be one line of visible text');
      expect(await head('E1')).toBe(before);
    }
    const voided = await h.api('POST', '/api/tables/E1/rounds/1/void', {
      token: h.token('supervisor'),
      body: { reason: 'wrong card from the shoe' },
    });
    expect(voided.status).toBe(200);
    // Round 2: burn through the rest of the aces of spades: 4 were dealt in round 1 (one corrected away), 4 remain.
    const { roundNo } = (await h.api('POST', '/api/tables/E1/rounds', dealer())).body;
    await h.api('POST', `/api/tables/E1/rounds/${roundNo}/close`, dealer());
    for (let i = 0; i < 4; i++)
      expect(
        (await h.api('POST', `/api/tables/E1/rounds/${roundNo}/cards`, { ...dealer(), body: { card: 'As' } }))
          .status,
      ).toBe(200);
    await expectRefused(
      'POST',
      `/api/tables/E1/rounds/${roundNo}/cards`,
      { ...dealer(), body: { card: 'As' } },
      409,
      'CARD_NOT_IN_SHOE',
    );
  });
});

describe('idempotent retries', () => {
  it('the same key returns the first answer and records nothing new; another body with it is 422', async () => {
    await h.api('POST', '/api/tables', { body: { tableId: 'I1', rules: { dealing: 'rng' } } });
    const first = await h.api('POST', '/api/tables/I1/players/p1/buy-in', {
      body: { amount: 5000 },
      headers: { 'idempotency-key': 'buy-1' },
    });
    const revision = await head('I1');
    const again = await h.api('POST', '/api/tables/I1/players/p1/buy-in', {
      body: { amount: 5000 },
      headers: { 'idempotency-key': 'buy-1' },
    });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(await head('I1')).toBe(revision);
    const other = await h.api('POST', '/api/tables/I1/players/p1/buy-in', {
      body: { amount: 7000 },
      headers: { 'idempotency-key': 'buy-1' },
    });
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const view = await h.api('GET', '/api/tables/I1');
    expect(view.body.players).toEqual([expect.objectContaining({ playerId: 'p1', chips: 5000 })]);
  });

  it('concurrent retries with one key record once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.api('POST', '/api/tables/I1/players/p2/buy-in', {
          body: { amount: 100 },
          headers: { 'idempotency-key': 'buy-2' },
        }),
      ),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    const view = await h.api('GET', '/api/tables/I1');
    expect(view.body.players).toContainEqual(expect.objectContaining({ playerId: 'p2', chips: 100 }));
  });
});

describe('operations', () => {
  it('health says the store is reachable; metrics count commands', async () => {
    const health = await h.api('GET', '/health', { token: null });
    expect(health.status).toBe(200);
    expect(health.body.store).toMatchObject({ kind: h.config.eventStore.kind, reachable: true });
    const metrics = await h.api('GET', '/metrics', { token: null });
    expect(metrics.body).toContain('coup_commands_total');
    expect(metrics.body).toContain('coup_events_appended_total');
  });

  it('OpenAPI documents the API at /docs', async () => {
    const doc = await h.api('GET', '/docs/openapi.json', { token: null });
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toContain('/api/tables/{tableId}/rounds/{roundNo}/bets');
  });
});

describe('a retry that queues behind its first try', () => {
  it('gets the first answer, not a refusal of the duplicate', async () => {
    // Many concurrent commands on one table: the later tries of the same key queue while the first is appended.
    await h.api('POST', '/api/tables', { body: { tableId: 'Q1', rules: { dealing: 'rng' } } });
    const tries = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.api('POST', '/api/tables/Q1/players/q/buy-in', {
          body: { amount: 100 },
          headers: { 'idempotency-key': `q-${i % 3}` },
        }),
      ),
    );
    expect(tries.map((t) => t.status)).toEqual(tries.map(() => 200));
    const view = await h.api('GET', '/api/tables/Q1');
    expect(view.body.players).toEqual([expect.objectContaining({ playerId: 'q', chips: 300 })]);
  });
});
