/**
 * Parameters are checked before access: a malformed table id, round number or query is a 400 for every caller
 * (a player asking for someone else's table, a dealer limited to other tables, a role the route is not for), and
 * only a well-formed request the caller may not make is a 403.
 */
import type { Role } from '@coup/auth';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startService();
  expect(
    (await h.api('POST', '/api/tables', { body: { tableId: 'T1', rules: { dealing: 'live' } } })).status,
  ).toBe(201);
});
afterAll(async () => {
  await h.close();
});

const BAD_ID = 'bad!id';
const LONG_ID = 'x'.repeat(65);
const player = () => h.token('player', 'p1');

/** Ids (path or query) are INVALID_PARAMETER, a cursor INVALID_CURSOR; other query parameters and the round INVALID_QUERY. */
const codeFor = (field: string) =>
  ['tableId', 'playerId', 'player'].includes(field)
    ? 'INVALID_PARAMETER'
    : field === 'cursor'
      ? 'INVALID_CURSOR'
      : 'INVALID_QUERY';

async function expect400(method: string, path: string, token: string, field: string) {
  const res = await h.api(method, path, { token });
  expect([method, path, res.status, res.body.code, res.body.details?.field]).toEqual([
    method,
    path,
    400,
    codeFor(field),
    field,
  ]);
}

describe('hand history endpoints: a player on a table not its own', () => {
  const paths = ['hands', 'hands/1', 'hands/1/replay', 'hands/1/verify'];

  it.each(paths)('GET /api/tables/<malformed>/%s is 400 naming tableId, not 403', async (rest) => {
    for (const id of [BAD_ID, LONG_ID])
      await expect400('GET', `/api/tables/${id}/${rest}`, player(), 'tableId');
  });

  it.each(['hands/0', 'hands/abc/replay', 'hands/-1/verify'])(
    'GET /api/tables/T1/%s is 400 naming roundNo, not 403',
    async (rest) => {
      await expect400('GET', `/api/tables/T1/${rest}`, player(), 'roundNo');
    },
  );

  it.each([
    ['hands?colour=red', 'colour'],
    ['hands?shoe=0', 'shoe'],
    ['hands?limit=x', 'limit'],
    ['hands?player=bad%20id', 'player'],
    ['hands?cursor=not-a-cursor', 'cursor'],
    ['hands?outcome=dragon', 'outcome'],
    ['hands?order=sideways', 'order'],
    ['hands?from=yesterday', 'from'],
    ['hands?roundFrom=0', 'roundFrom'],
    ['hands/1?x=1', 'x'],
    ['hands/1/replay?x=1', 'x'],
    ['hands/1/verify?x=1', 'x'],
  ])('GET /api/tables/T1/%s is 400 naming %s, not 403', async (rest, field) => {
    await expect400('GET', `/api/tables/T1/${rest}`, player(), field);
  });

  it.each(paths)('a well-formed GET /api/tables/T1/%s is still 403', async (rest) => {
    const res = await h.api('GET', `/api/tables/T1/${rest}`, { token: player() });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe("a player's ledger: another player's", () => {
  it.each([
    ['/api/players/p2/ledger?limit=0', 'limit'],
    ['/api/players/p2/ledger?tableId=bad!id', 'tableId'],
    ['/api/players/p2/ledger?colour=red', 'colour'],
    ['/api/players/bad%20id/ledger', 'playerId'],
  ])('%s is 400 naming %s, not 403', async (path, field) => {
    await expect400('GET', path, player(), field);
  });

  it('a well-formed request is still 403', async () => {
    const res = await h.api('GET', '/api/players/p2/ledger?limit=5', { token: player() });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('a malformed table id is 400 before the role and table checks', () => {
  const limited = () => h.token('dealer', 'd9', ['T7']);
  it.each([
    ['GET', `/api/tables/${BAD_ID}/hands`],
    ['GET', `/api/tables/${BAD_ID}/roads`],
    ['GET', `/api/tables/${BAD_ID}`],
    ['POST', `/api/tables/${BAD_ID}/rounds/1/close`],
  ])('%s %s for a dealer limited to other tables', async (method, path) => {
    await expect400(method, path, limited(), 'tableId');
  });

  it.each([
    ['player', 'POST', `/api/tables/${BAD_ID}/shoes`],
    ['analyst', 'DELETE', `/api/tables/${BAD_ID}`],
    ['dealer', 'POST', `/api/online/tables/${BAD_ID}/buy-in`],
  ] as [Role, string, string][])('%s: %s %s', async (role, method, path) => {
    await expect400(method, path, h.token(role), 'tableId');
  });

  it('well-formed, they are still 403', async () => {
    for (const [method, path, token] of [
      ['GET', '/api/tables/T1/hands', limited()],
      ['POST', '/api/tables/T1/rounds/1/close', limited()],
      ['POST', '/api/tables/T1/shoes', player()],
      ['DELETE', '/api/tables/T1', h.token('analyst')],
    ] as const) {
      const res = await h.api(method, path, { token });
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'FORBIDDEN']);
    }
  });

  it('without a token it is still 401', async () => {
    const res = await h.api('GET', `/api/tables/${BAD_ID}/hands`, { token: null });
    expect(res.status).toBe(401);
  });
});
