/**
 * Game modes and side bets over HTTP (issue 15): the OpenAPI document lists every bet and mode; a live table per
 * mode offers every side bet its mode allows, takes a bet on each offered spot and settles a known coup in exact
 * cents (the answer, the events, the view and the WebSocket push agree); refusals keep their stable codes; a retry
 * with an Idempotency-Key gets the first answer.
 */
import { ALL_SPOTS, GAME_MODES, SIDE_BETS, SIDE_SPOTS, type SideSpot } from '@coup/engine';
import type { CoupReply, PlayerView, Settlement, TableView } from '@coup/table';
import { startService, type Harness } from './harness';
import { eventRows } from './http-helpers';
import { WsClient } from './ws-client';

jest.setTimeout(60_000);

/** Chips in 25 cents, so that a fractional payout (0.54:1, 1.5:1, 1:2) is rounded down to the cent. */
const CHIPS = [25, 100, 500, 2500];
const ALL_SIDE_BETS = Object.fromEntries(SIDE_SPOTS.map((s) => [s, {}]));

/** The side bets a mode's table may offer (every one of the catalogue its mode allows on a shoe game). */
function sideBetsOf(game: string): Record<string, object> {
  return Object.fromEntries(
    SIDE_SPOTS.filter((s) => !SIDE_BETS[s].modes || SIDE_BETS[s].modes.includes(game as never)).map((s) => [
      s,
      s === 'super6' ? { paytable: '15-to-1' } : s === 'perfectPair' ? { paytable: '25-or-200-to-1' } : {},
    ]),
  );
}

/** One coup per mode, its cards (dealing order P B P B [P3] [B3]) and, for each spot, what a stake of `amount` gets back. */
const COUPS: Record<
  string,
  { cards: string[]; outcome: string; paid: Record<string, [amount: number, result: string, paid: number]> }
> = {
  // Player 5c 4c = 9 natural; banker 3d 3d = 6, a perfect pair. Player wins, four cards.
  commission: {
    cards: ['5c', '3d', '4c', '3d'],
    outcome: 'player',
    paid: {
      player: [1000, 'win', 2000],
      banker: [1000, 'lose', 0],
      tie: [500, 'lose', 0],
      playerPair: [100, 'lose', 0],
      bankerPair: [100, 'win', 1200],
      eitherPair: [125, 'win', 750],
      perfectPair: [100, 'win', 2600],
      big: [125, 'lose', 0],
      small: [125, 'win', 312], // 1.5 x 125 = 187.5, rounded down
      playerDragon: [300, 'win', 600], // natural win 1:1
      bankerDragon: [300, 'lose', 0],
    },
  },
  // Player 2c 3c = 5 draws Kc (5); banker 3d 3h = 6 stands: a banker win with 6, five cards.
  'no-commission': {
    cards: ['2c', '3d', '3c', '3h', 'Kc'],
    outcome: 'banker',
    paid: {
      player: [1000, 'lose', 0],
      banker: [1125, 'win', 1687], // 1:2 on a banker 6: 562.5 rounded down
      tie: [500, 'lose', 0],
      playerPair: [100, 'lose', 0],
      bankerPair: [100, 'win', 1200],
      eitherPair: [100, 'win', 600],
      perfectPair: [100, 'lose', 0],
      big: [125, 'win', 192], // 0.54 x 125 = 67.5, rounded down
      small: [125, 'lose', 0],
      playerDragon: [300, 'lose', 0],
      bankerDragon: [300, 'lose', 0], // a non-natural win by 1
      super6: [200, 'win', 3200], // the 15-to-1 paytable
    },
  },
  // Player 2c 3c = 5 draws Kc (5); banker 3d Td = 3 draws 4h: a three-card banker 7 (Dragon 7), six cards.
  ez: {
    cards: ['2c', '3d', '3c', 'Td', 'Kc', '4h'],
    outcome: 'banker',
    paid: {
      player: [1000, 'lose', 0],
      banker: [1000, 'push', 1000],
      tie: [500, 'lose', 0],
      playerPair: [100, 'lose', 0],
      bankerPair: [100, 'lose', 0],
      eitherPair: [100, 'lose', 0],
      perfectPair: [100, 'lose', 0],
      big: [100, 'win', 154],
      small: [100, 'lose', 0],
      playerDragon: [300, 'lose', 0],
      bankerDragon: [300, 'lose', 0], // a non-natural win by 2
      dragon7: [500, 'win', 20_500],
      panda8: [500, 'lose', 0],
    },
  },
};

let h: Harness;
const dealer = () => ({ token: h.token('dealer') });

async function ok(method: string, path: string, options: Parameters<Harness['api']>[2] = {}) {
  const r = await h.api(method, path, options);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Opens a live table of `game` with every side bet its mode allows, p1 and p2 seated, a shoe and round 1 open. */
async function openSideBetTable(tableId: string, game: string): Promise<void> {
  await ok('POST', '/api/tables', {
    body: {
      tableId,
      rules: { dealing: 'live', game, chips: CHIPS, allowPlayerAndBanker: true, sideBets: sideBetsOf(game) },
    },
  });
  for (const p of ['p1', 'p2'])
    await ok('POST', `/api/tables/${tableId}/players/${p}/buy-in`, { body: { amount: 100_000 } });
  await ok('POST', `/api/tables/${tableId}/shoes`, { ...dealer(), body: { firstCard: '5h' } });
  await ok('POST', `/api/tables/${tableId}/rounds`, dealer());
}

const bet = (tableId: string, playerId: string, spot: string, amount: number, key?: string) =>
  h.api('POST', `/api/tables/${tableId}/rounds/1/bets`, {
    token: h.token('player', playerId),
    body: { playerId, spot, amount },
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h?.close();
});

describe('the OpenAPI document', () => {
  it('lists every spot, every game mode, every side bet with its paytables, and SPOT_NOT_OFFERED', async () => {
    const doc = (await h.api('GET', '/docs/openapi.json', { token: null })).body;
    const schemas = doc.components.schemas;
    expect(schemas.PlaceBetDto.properties.spot.enum).toEqual(ALL_SPOTS);
    const rules = schemas.TableRulesDto.properties;
    expect(rules.game.enum).toEqual(GAME_MODES);
    expect(Object.keys(rules.sideBets.properties)).toEqual(SIDE_SPOTS);
    for (const spot of SIDE_SPOTS) {
      const schema = rules.sideBets.properties[spot];
      expect(schema.properties.paytable.enum).toEqual(Object.keys(SIDE_BETS[spot].paytables));
      expect(schema.description).toContain(SIDE_BETS[spot].label);
    }
    expect(rules.sideBets.properties.dragon7.description).toContain('ez tables');
    expect(rules.sideBets.properties.big.description).toContain('shoe games only');
    expect(rules.sideBets.properties.perfectPair.description).toContain('at least 2 decks');
    const betRoute = doc.paths['/api/tables/{tableId}/rounds/{roundNo}/bets'].post;
    expect(betRoute.responses['400'].description).toContain('SPOT_NOT_OFFERED');
    expect(doc.paths['/api/tables'].post.responses['400'].description).toContain('INVALID_RULES');
  });
});

describe.each(GAME_MODES)('a %s table with side bets', (game) => {
  const tableId = `SB-${game}`;
  const coup = COUPS[game]!;

  it('offers every side bet its mode allows, takes a bet on each spot and settles the coup in exact cents', async () => {
    await openSideBetTable(tableId, game);
    const view = (await ok('GET', `/api/tables/${tableId}`, dealer())) as TableView;
    const offered = ['player', 'banker', 'tie', ...Object.keys(sideBetsOf(game))];
    expect(Object.keys(coup.paid).sort()).toEqual([...offered].sort());
    expect(view.rules?.game ?? 'commission').toBe(game);
    expect(Object.keys(view.rules?.sideBets ?? {})).toEqual(Object.keys(sideBetsOf(game)));

    // A player watches its own settlement arrive on the live push.
    const socket = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${h.token('player', 'p1')}`);
    socket.send({ type: 'subscribe', tableId });
    await socket.until((f) => f.some((x) => x.type === 'view'), 'the view');

    for (const [spot, [amount]] of Object.entries(coup.paid)) {
      const r = await bet(tableId, 'p1', spot, amount);
      expect({ spot, status: r.status, body: r.body }).toMatchObject({
        status: 201,
        body: { spot, amount, spotTotal: amount },
      });
    }
    // a side bet goes with a main bet (MAIN_BET_REQUIRED otherwise)
    expect((await bet(tableId, 'p2', 'playerPair', 100)).body.code).toBe('MAIN_BET_REQUIRED');
    expect((await bet(tableId, 'p2', 'tie', 100)).status).toBe(201);
    expect((await bet(tableId, 'p2', 'playerPair', 100)).status).toBe(201);
    const staked = Object.values(coup.paid).reduce((sum, [amount]) => sum + amount, 0);
    await ok('POST', `/api/tables/${tableId}/rounds/1/close`, dealer());
    let answer: CoupReply | undefined;
    for (const card of coup.cards)
      answer = await ok('POST', `/api/tables/${tableId}/rounds/1/cards`, { ...dealer(), body: { card } });

    const expected = Object.fromEntries(
      Object.entries(coup.paid).map(([spot, [amount, result, paid]]) => [spot, { amount, result, paid }]),
    );
    const bySpot = (settlements: readonly Settlement[]) =>
      Object.fromEntries(
        settlements
          .filter((s) => s.playerId === 'p1')
          .map((s) => [s.spot, { amount: s.amount, result: s.result, paid: s.paid }]),
      );
    expect(answer?.outcome).toBe(coup.outcome);
    expect(bySpot(answer!.settlements)).toEqual(expected);
    // Each side bet's settlement names the paytable it was paid by (the table's choice, else the default).
    for (const s of answer!.settlements.filter((x) => (SIDE_SPOTS as readonly string[]).includes(x.spot)))
      expect(s.paytable).toBe(view.rules!.sideBets![s.spot as SideSpot]!.paytable);

    const returned = Object.values(coup.paid).reduce((sum, [, , paid]) => sum + paid, 0);
    const after = (await ok('GET', `/api/tables/${tableId}`, dealer())) as TableView;
    const chipsOf = (id: string) => after.players.find((p: PlayerView) => p.playerId === id)?.chips;
    expect(chipsOf('p1')).toBe(100_000 - staked + returned);
    // p2's 100 on tie and on Player Pair end as p1's stakes on those spots did, scaled
    const per100 = (spot: string) => (coup.paid[spot]![2] / coup.paid[spot]![0]) * 100;
    expect(chipsOf('p2')).toBe(100_000 - 200 + per100('tie') + per100('playerPair'));

    await socket.until((f) => f.some((x) => x.event?.type === 'CoupResolved'), 'the coup on the live push');
    const pushed = socket.frames.find((x) => x.event?.type === 'CoupResolved')!.event!.data as unknown as {
      settlements: Settlement[];
    };
    expect(bySpot(pushed.settlements)).toEqual(expected);
    // A player sees only its own settlements.
    expect(pushed.settlements.every((s) => s.playerId === 'p1')).toBe(true);
    socket.close();
  });
});

describe('refusals', () => {
  beforeAll(async () => {
    await ok('POST', '/api/tables', {
      body: { tableId: 'SB-R', rules: { sideBets: { playerPair: { min: 100, max: 1000 } } } },
    });
    await ok('POST', '/api/tables/SB-R/players/p1/buy-in', { body: { amount: 100_000 } });
    await ok('POST', '/api/tables/SB-R/shoes', dealer());
    await ok('POST', '/api/tables/SB-R/rounds', dealer());
  });

  it('SPOT_NOT_OFFERED: a side bet of the catalogue the table does not offer; nothing recorded', async () => {
    const before = await eventRows(h);
    for (const spot of SIDE_SPOTS.filter((s) => s !== 'playerPair')) {
      const r = await bet('SB-R', 'p1', spot, 100);
      expect({ spot, status: r.status, code: r.body.code }).toEqual({
        spot,
        status: 400,
        code: 'SPOT_NOT_OFFERED',
      });
    }
    expect(await eventRows(h)).toBe(before);
  });

  it('VALIDATION_FAILED: a spot outside the catalogue', async () => {
    const r = await bet('SB-R', 'p1', 'dragon', 100);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_FAILED');
  });

  it('MAIN_BET_REQUIRED: a side bet with no bet on player, banker or tie; nothing recorded', async () => {
    const before = await eventRows(h);
    const r = await bet('SB-R', 'p1', 'playerPair', 100);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'MAIN_BET_REQUIRED', details: { playerId: 'p1' } });
    expect(await eventRows(h)).toBe(before);
  });

  it('BET_LIMIT: a side bet past its own limits (details name the spot and its limits)', async () => {
    expect((await bet('SB-R', 'p1', 'player', 1000)).status).toBe(201);
    expect((await bet('SB-R', 'p1', 'playerPair', 1000)).status).toBe(201);
    const r = await bet('SB-R', 'p1', 'playerPair', 100);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BET_LIMIT', details: { spot: 'playerPair', max: 1000 } });
  });

  it.each([
    [{ sideBets: { dragon7: {} } }, 'sideBets.dragon7'],
    [{ game: 'ez', sideBets: { super6: {} } }, 'sideBets.super6'],
    [{ shuffle: 'every-coup', sideBets: { small: {} } }, 'sideBets.small'],
    [{ sideBets: { bankerPair: { paytable: '12-to-1' } } }, 'sideBets.bankerPair'],
    [{ sideBets: { bankerPair: { max: 600_000 } } }, 'sideBets.bankerPair.max'],
    [{ sideBets: { pairs: {} } }, 'sideBets.pairs'],
    [{ game: 'no-commission', commission: 'box' }, 'commission'],
    [{ game: 'baccarat' }, 'game'],
  ])('INVALID_RULES naming the field: %j', async (rules, field) => {
    const r = await h.api('POST', '/api/tables', { body: { tableId: 'SB-BAD', rules } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_RULES', details: { field } });
  });

  it('opens a table with every side bet only where each is allowed (all of them together are refused)', async () => {
    const r = await h.api('POST', '/api/tables', {
      body: { tableId: 'SB-ALL', rules: { sideBets: ALL_SIDE_BETS } },
    });
    expect(r.body).toMatchObject({ code: 'INVALID_RULES', details: { field: 'sideBets.dragon7' } });
  });
});

describe('a retry with an Idempotency-Key', () => {
  it('gets the first answer to a side bet and records it once; the key with another body is refused', async () => {
    await openSideBetTable('SB-KEY', 'ez');
    expect((await bet('SB-KEY', 'p1', 'banker', 1000)).status).toBe(201);
    const first = await bet('SB-KEY', 'p1', 'dragon7', 500, 'dragon-1');
    const rows = await eventRows(h);
    const retry = await bet('SB-KEY', 'p1', 'dragon7', 500, 'dragon-1');
    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(await eventRows(h)).toBe(rows);
    const other = await bet('SB-KEY', 'p1', 'panda8', 500, 'dragon-1');
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const view = await ok('GET', '/api/tables/SB-KEY', dealer());
    expect(view.round.bets.totals).toMatchObject({ dragon7: 500 });
    expect(view.round.bets.totals.panda8).toBeUndefined();
  });
});
