/**
 * Whole sessions over real HTTP against the real service and the embedded SQLite store: a live shoe entered
 * card by card, an online single-player session, and a multi-player rng shoe with the betting timer.
 */
import {
  advanceShoe,
  burnCount,
  resolveCoup,
  seedFromHex,
  shuffleShoe,
  startShoeProgress,
  type Card,
} from '@coup/engine';
import { startService, type Harness } from './harness';

jest.setTimeout(120_000);

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.close();
});

const ok = (res: { status: number; body: any }, status = 200) => {
  if (res.status !== status)
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

describe('a full live shoe, entered card by card', () => {
  it('burns, deals coups by card, passes the cut card, plays one more coup, ends the shoe, and accounts every cent', async () => {
    const dealer = h.token('dealer', 'd1', ['L1']);
    ok(
      await h.api('POST', '/api/tables', {
        body: { tableId: 'L1', rules: { dealing: 'live', decks: 8, commission: 'box' } },
      }),
      201,
    );
    ok(await h.api('POST', '/api/tables/L1/players/p1/buy-in', { body: { amount: 1_000_000 } }));
    ok(await h.api('POST', '/api/tables/L1/players/p2/buy-in', { body: { amount: 1_000_000 } }));

    const shoe = shuffleShoe(8, seedFromHex('11'.repeat(32)));
    const started = ok(
      await h.api('POST', '/api/tables/L1/shoes', { token: dealer, body: { firstCard: shoe[0] } }),
      201,
    );
    expect(started.burnCount).toBe(burnCount(shoe[0]!));

    let progress = startShoeProgress(shoe.length, shoe[0]!, 16);
    let position = progress.position;
    const chips = { p1: 1_000_000, p2: 1_000_000 };
    let owed = 0;
    let coups = 0;
    let coupsAfterCut = 0;
    while (!progress.ended) {
      const { roundNo } = ok(await h.api('POST', '/api/tables/L1/rounds', { token: dealer }), 201);
      ok(
        await h.api('POST', `/api/tables/L1/rounds/${roundNo}/bets`, {
          token: h.token('player', 'p1'),
          body: { playerId: 'p1', spot: 'player', amount: 1000 },
        }),
        201,
      );
      ok(
        await h.api('POST', `/api/tables/L1/rounds/${roundNo}/bets`, {
          token: h.token('player', 'p2'),
          body: { playerId: 'p2', spot: 'banker', amount: 2000 },
        }),
        201,
      );
      chips.p1 -= 1000;
      chips.p2 -= 2000;
      ok(await h.api('POST', `/api/tables/L1/rounds/${roundNo}/close`, { token: dealer }));
      const expected = resolveCoup(shoe.slice(position));
      let answer: any;
      for (let i = 0; i < expected.cardsUsed; i++) {
        answer = ok(
          await h.api('POST', `/api/tables/L1/rounds/${roundNo}/cards`, {
            token: dealer,
            body: { card: shoe[position + i] },
          }),
        );
        if (i < expected.cardsUsed - 1) expect(answer.next.to).not.toBe('complete');
      }
      expect(answer).toMatchObject({
        roundNo,
        playerCards: expected.playerCards,
        bankerCards: expected.bankerCards,
        playerTotal: expected.playerTotal,
        bankerTotal: expected.bankerTotal,
        outcome: expected.outcome,
        natural: expected.natural,
      });
      for (const s of answer.settlements as { playerId: 'p1' | 'p2'; paid: number; commission: number }[]) {
        chips[s.playerId] += s.paid;
        if (s.playerId === 'p2') owed += s.commission;
      }
      position += expected.cardsUsed;
      const wasOut = progress.cutCardOut;
      progress = advanceShoe(progress, expected.cardsUsed);
      if (wasOut) coupsAfterCut++;
      coups++;
    }
    expect(coupsAfterCut).toBe(1);
    expect(coups).toBeGreaterThan(60);

    const view = ok(await h.api('GET', '/api/tables/L1'));
    expect(view.phase).toBe('idle');
    const players = Object.fromEntries(
      (view.players as { playerId: string; chips: number; commissionOwed: number }[]).map((p) => [
        p.playerId,
        p,
      ]),
    );
    expect(players['p1']!.chips).toBe(chips.p1);
    expect(players['p2']!.chips).toBe(chips.p2);
    expect(players['p2']!.commissionOwed).toBe(owed);
    expect(owed).toBeGreaterThan(0);

    // No card is due once the shoe has ended; a new shoe is needed.
    const refused = await h.api('POST', '/api/tables/L1/rounds/999/cards', {
      token: dealer,
      body: { card: 'Ah' },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);

    const cashOut = ok(await h.api('POST', '/api/tables/L1/players/p2/cash-out'));
    expect(cashOut).toEqual({
      playerId: 'p2',
      paid: chips.p2 - owed,
      commissionCollected: owed,
      commissionOwed: 0,
    });
  });
});

describe('the online single-player game', () => {
  it('buys in, bets, deals, rebets, clears, deals again and cashes out; every coup has its own revealed seed', async () => {
    const me = h.token('player', 'solo');
    ok(
      await h.api('POST', '/api/tables', {
        body: {
          tableId: 'ONLINE-solo',
          rules: {
            dealing: 'rng',
            shuffle: 'every-coup',
            dealtBy: 'player',
            limits: {
              player: { min: 500, max: 50000 },
              banker: { min: 500, max: 50000 },
              tie: { min: 100, max: 10000 },
            },
          },
        },
      }),
      201,
    );
    ok(await h.api('POST', '/api/tables/ONLINE-solo/players/solo/buy-in', { body: { amount: 100_000 } }));
    const first = ok(
      await h.api('POST', '/api/tables/ONLINE-solo/rounds', { token: h.token('dealer') }),
      201,
    );
    expect(first.roundNo).toBe(1);
    let view = ok(await h.api('GET', '/api/tables/ONLINE-solo', { token: me }));
    const commitment1 = view.shoe.commitment as string;
    expect(commitment1).toMatch(/^[0-9a-f]{64}$/);
    expect(view.shoe.seed ?? null).toBeNull();

    // DEAL needs the minimum first.
    ok(
      await h.api('POST', '/api/tables/ONLINE-solo/rounds/1/bets', {
        token: me,
        body: { playerId: 'solo', spot: 'banker', amount: 100 },
      }),
      201,
    );
    const early = await h.api('POST', '/api/tables/ONLINE-solo/rounds/1/deal', { token: me });
    expect(early.body.code).toBe('MINIMUM_BET_REQUIRED');
    ok(
      await h.api('POST', '/api/tables/ONLINE-solo/rounds/1/bets', {
        token: me,
        body: { playerId: 'solo', spot: 'banker', amount: 400 },
      }),
      201,
    );
    ok(
      await h.api('POST', '/api/tables/ONLINE-solo/rounds/1/bets', {
        token: me,
        body: { playerId: 'solo', spot: 'tie', amount: 100 },
      }),
      201,
    );
    const coup1 = ok(await h.api('POST', '/api/tables/ONLINE-solo/rounds/1/deal', { token: me }));
    expect(coup1.roundNo).toBe(1);
    expect(coup1.settlements).toHaveLength(2);

    // Betting reopened by itself, with a new commitment; the first coup's seed is now revealed and matches.
    view = ok(await h.api('GET', '/api/tables/ONLINE-solo', { token: me }));
    expect(view.phase).toBe('betting');
    expect(view.round.roundNo).toBe(2);
    expect(view.shoe.commitment).not.toBe(commitment1);

    ok(
      await h.api('POST', '/api/tables/ONLINE-solo/rounds/2/rebet', {
        token: me,
        body: { playerId: 'solo' },
      }),
      201,
    );
    ok(await h.api('DELETE', '/api/tables/ONLINE-solo/rounds/2/bets/solo', { token: me }));
    const noBets = await h.api('DELETE', '/api/tables/ONLINE-solo/rounds/2/bets/solo', { token: me });
    expect(noBets.body.code).toBe('NO_BETS');
    ok(
      await h.api('POST', '/api/tables/ONLINE-solo/rounds/2/rebet', {
        token: me,
        body: { playerId: 'solo' },
      }),
      201,
    );
    const coup2 = ok(await h.api('POST', '/api/tables/ONLINE-solo/rounds/2/deal', { token: me }));
    expect(coup2.settlements.map((s: { amount: number }) => s.amount).sort()).toEqual([100, 500]);

    // Another player cannot deal or bet here for this player.
    const intruder = await h.api('POST', '/api/tables/ONLINE-solo/rounds/3/bets', {
      token: h.token('player', 'other'),
      body: { playerId: 'solo', spot: 'player', amount: 500 },
    });
    expect(intruder.status).toBe(403);

    view = ok(await h.api('GET', '/api/tables/ONLINE-solo', { token: me }));
    const chips = (view.players as { playerId: string; chips: number }[]).find(
      (p) => p.playerId === 'solo',
    )!.chips;
    const expectedChips =
      100_000 -
      600 -
      600 +
      [...coup1.settlements, ...coup2.settlements].reduce((a: number, s: { paid: number }) => a + s.paid, 0);
    expect(chips).toBe(expectedChips);
    const out = ok(await h.api('POST', '/api/tables/ONLINE-solo/players/solo/cash-out'));
    expect(out).toEqual({ playerId: 'solo', paid: expectedChips, commissionCollected: 0, commissionOwed: 0 });
  });
});

describe('a multi-player rng shoe with the betting timer', () => {
  it('closes betting by itself at the deadline, deals and settles every coup of the shoe, and reveals the seed at the end', async () => {
    const dealer = h.token('dealer');
    ok(
      await h.api('POST', '/api/tables', {
        body: { tableId: 'R1', rules: { dealing: 'rng', decks: 8, bettingSeconds: 1, tiePays: 9 } },
      }),
      201,
    );
    const players = ['a', 'b', 'c'];
    for (const p of players)
      ok(await h.api('POST', `/api/tables/R1/players/${p}/buy-in`, { body: { amount: 5_000_000 } }));
    const shoe = ok(await h.api('POST', '/api/tables/R1/shoes', { token: dealer }), 201);
    expect(shoe.commitment).toMatch(/^[0-9a-f]{64}$/);

    let ended = false;
    let round = 0;
    const seen: Card[] = [];
    while (!ended) {
      const { roundNo, deadline } = ok(await h.api('POST', '/api/tables/R1/rounds', { token: dealer }), 201);
      round++;
      expect(typeof deadline).toBe('string');
      for (const [i, p] of players.entries()) {
        const spot = (['player', 'banker', 'tie'] as const)[(i + round) % 3];
        ok(
          await h.api('POST', `/api/tables/R1/rounds/${roundNo}/bets`, {
            token: h.token('player', p),
            body: { playerId: p, spot, amount: 500 * (i + 1) },
          }),
          201,
        );
      }
      if (round <= 2) {
        // Let the timer say "no more bets".
        let phase = 'betting';
        for (let i = 0; i < 60 && phase === 'betting'; i++) {
          await new Promise((r) => setTimeout(r, 50));
          phase = ok(await h.api('GET', '/api/tables/R1')).phase;
        }
        expect(phase).toBe('dealing');
        const late = await h.api('POST', `/api/tables/R1/rounds/${roundNo}/bets`, {
          token: h.token('player', 'a'),
          body: { playerId: 'a', spot: 'player', amount: 500 },
        });
        expect(late.body.code).toBe('BETTING_CLOSED');
      } else {
        ok(await h.api('POST', `/api/tables/R1/rounds/${roundNo}/close`, { token: dealer }));
      }
      const coup = ok(await h.api('POST', `/api/tables/R1/rounds/${roundNo}/deal`, { token: dealer }));
      expect(coup.settlements).toHaveLength(3);
      seen.push(...coup.playerCards, ...coup.bankerCards);
      ended = ok(await h.api('GET', '/api/tables/R1')).phase === 'idle';
    }
    expect(round).toBeGreaterThan(60);
    const view = ok(await h.api('GET', '/api/tables/R1'));
    expect(view.shoe.seed).toMatch(/^[0-9a-f]{64}$/);
    // The revealed seed reproduces the shoe: every dealt card is where the shuffle put it.
    const order = shuffleShoe(8, seedFromHex(view.shoe.seed));
    const counts = new Map<string, number>();
    for (const c of order) counts.set(c, (counts.get(c) ?? 0) + 1);
    for (const c of seen) counts.set(c, (counts.get(c) ?? 0) - 1);
    expect([...counts.values()].every((n) => n >= 0)).toBe(true);
  });
});
