/**
 * Every route with every role over HTTP, against the access matrix (src/common/access.ts, mirrored by the README's
 * API table): a `no` is 403 FORBIDDEN; a `yes` is never 401 or 403 (the state of the table may still refuse it,
 * 404 or 409); an `own` is never refused for the player's own bets, ledger or online table, and is 403 FORBIDDEN
 * for another's.
 */
import type { Role } from '@coup/auth';
import { ACCESS, ROLE_COLUMNS, type Access } from '../src/common/access';
import { startService, type Harness } from './harness';

jest.setTimeout(120_000);

const ME = 'p1';
const OTHER = 'p2';

interface Probe {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

let h: Harness;
let onlineRound = 0;
let made = 0;

/**
 * The request that exercises `route` as `role`: for the player's own things (`own`), or another player's (`other`).
 * Staff act on T1 and for the other player.
 */
function probe(route: string, role: Role, who: 'own' | 'other'): Probe {
  const player = who === 'own' && role === 'player' ? ME : OTHER;
  const online = role === 'player' ? `online-${player}` : 'T1';
  const [method, path] = route.split(' ') as [string, string];
  const on = (p: string, body?: unknown): Probe => ({ method, path: p, ...(body ? { body } : {}) });
  switch (route) {
    case 'POST /api/tables':
      return on('/api/tables', { tableId: `M${++made}` });
    case 'DELETE /api/tables/:tableId':
      return on(`/api/tables/D${++made}`);
    case 'POST /api/tables/:tableId/players/:playerId/buy-in':
      return on('/api/tables/T1/players/p3/buy-in', { amount: 10_000 });
    case 'POST /api/tables/:tableId/players/:playerId/cash-out':
      return on('/api/tables/T1/players/p9/cash-out');
    case 'POST /api/tables/:tableId/rounds/:roundNo/bets':
      return on('/api/tables/T1/rounds/1/bets', { playerId: player, spot: 'player', amount: 100 });
    case 'DELETE /api/tables/:tableId/rounds/:roundNo/bets/:playerId':
      return on(`/api/tables/T1/rounds/1/bets/${player}`);
    case 'POST /api/tables/:tableId/rounds/:roundNo/rebet':
      return on('/api/tables/T1/rounds/1/rebet', { playerId: player });
    case 'POST /api/tables/:tableId/rounds/:roundNo/deal':
      // a player deals its own online table; T1 is dealer-dealt
      return online === 'T1' || who === 'other'
        ? on('/api/tables/T1/rounds/1/deal')
        : on(`/api/tables/${online}/rounds/${onlineRound}/deal`);
    case 'POST /api/tables/:tableId/rounds/:roundNo/cards':
      return on('/api/tables/T1/rounds/1/cards', { card: 'Ah' });
    case 'PUT /api/tables/:tableId/rounds/:roundNo/cards/:index':
      return on('/api/tables/T1/rounds/1/cards/0', { card: 'Ah' });
    case 'POST /api/tables/:tableId/rounds/:roundNo/void':
      return on('/api/tables/T1/rounds/1/void', { reason: 'role matrix' });
    case 'GET /api/players/:playerId/ledger':
      return on(`/api/players/${player}/ledger`);
    case 'POST /api/online/tables/:tableId/buy-in':
      return on(`/api/online/tables/${online}/buy-in`, { amount: 10_000 });
    case 'POST /api/online/tables/:tableId/exit':
      return on(`/api/online/tables/${online}/exit`);
    default: {
      // the rest take no body: hands of the player's online table (own) or of T1, the others as they are
      const table = route.includes('/hands') && who === 'own' ? online : 'T1';
      return on(path.replace(':tableId', table).replace(':roundNo', '1'));
    }
  }
}

beforeAll(async () => {
  h = await startService();
  const dealer = h.token('dealer');
  expect((await h.api('POST', '/api/tables', { body: { tableId: 'T1' } })).status).toBe(201);
  for (const p of [ME, OTHER])
    await h.api('POST', `/api/tables/T1/players/${p}/buy-in`, { body: { amount: 100_000 } });
  expect((await h.api('POST', '/api/tables/T1/shoes', { token: dealer })).status).toBe(201);
  expect((await h.api('POST', '/api/tables/T1/rounds', { token: dealer })).status).toBe(201);
  for (const p of [ME, OTHER]) {
    const opened = await h.api('POST', '/api/online/tables', { token: h.token('player', p) });
    expect(opened.status).toBe(200);
    onlineRound = opened.body.view.round.roundNo;
  }
});
afterAll(async () => {
  await h.close();
});

const cases = ACCESS.flatMap(({ route, access }) =>
  ROLE_COLUMNS.map((role) => [route, role, access[role]] as [string, Role, Access]),
);

it.each(cases)('%s as %s: %s', async (route, role, access) => {
  const token = role === 'player' ? h.token('player', ME) : h.token(role);
  const send = async (p: Probe) => {
    const res = await h.api(p.method, p.path, { token, ...(p.body ? { body: p.body } : {}) });
    return { what: `${p.method} ${p.path}`, status: res.status, code: res.body?.code as unknown };
  };
  const mine = await send(probe(route, role, 'own'));
  if (access === 'no') {
    expect(mine).toEqual({ what: mine.what, status: 403, code: 'FORBIDDEN' });
    return;
  }
  expect([mine.what, mine.status === 401 || mine.status === 403, mine.code]).toEqual([
    mine.what,
    false,
    mine.code,
  ]);
  if (access === 'own') {
    const theirs = await send(probe(route, role, 'other'));
    expect(theirs).toEqual({ what: theirs.what, status: 403, code: 'FORBIDDEN' });
  }
});

it('covers every cell of the matrix', () => {
  expect(cases).toHaveLength(ACCESS.length * ROLE_COLUMNS.length);
  expect(cases.filter(([, , a]) => a === 'own').length).toBeGreaterThanOrEqual(9);
});
