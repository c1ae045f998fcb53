import { commitment, seedFromHex } from '@coup/engine';
import type { TableEvent } from '@coup/table';
import { ApiError } from '../api';
import { canDeal, chipStacks, dealHint, stopReason } from './betting';
import { dealingOrder, settlementLine } from './dealing';
import { historyOf, seedMatches } from './history';
import { loadEvents, playerClient } from './playerApi';
import { loadSoundOn, saveSoundOn, SOUND_KEY } from './sound';

const CHIPS = [100, 500, 2500, 10000, 50000];
const LIMITS = {
  limits: {
    player: { min: 1000, max: 100_000 },
    banker: { min: 1000, max: 100_000 },
    tie: { min: 500, max: 20_000 },
  },
};
const none = { player: 0, banker: 0, tie: 0 };

describe('betting', () => {
  it('stacks a balance by denomination, the fewest chips', () => {
    expect(chipStacks(63_100, CHIPS).stacks).toEqual([
      { chip: 50000, count: 1 },
      { chip: 10000, count: 1 },
      { chip: 2500, count: 1 },
      { chip: 500, count: 1 },
      { chip: 100, count: 1 },
    ]);
    expect(chipStacks(150_050, CHIPS)).toEqual({
      stacks: [
        { chip: 50000, count: 3 },
        { chip: 10000, count: 0 },
        { chip: 2500, count: 0 },
        { chip: 500, count: 0 },
        { chip: 100, count: 0 },
      ],
      rest: 50,
    });
  });

  it('stops a chip that would pass the spot maximum, or that the balance cannot cover', () => {
    expect(stopReason(LIMITS, { ...none, tie: 19_500 }, 10_000, 'tie', 500)).toBeNull();
    expect(stopReason(LIMITS, { ...none, tie: 19_500 }, 10_000, 'tie', 2500)).toBe(
      'Table maximum: the Tie bet would be $220, above the $200 maximum',
    );
    expect(stopReason(LIMITS, none, 400, 'player', 500)).toBe('Not enough chips: a $5 chip, $4 left');
  });

  it('allows DEAL once every staked spot reaches its minimum', () => {
    expect(canDeal(LIMITS, none)).toBe(false);
    expect(dealHint(LIMITS, none)).toBe('Place a bet to deal');
    expect(canDeal(LIMITS, { ...none, player: 500 })).toBe(false);
    expect(dealHint(LIMITS, { ...none, player: 500 })).toBe('The Player minimum is $10');
    expect(canDeal(LIMITS, { ...none, player: 1000 })).toBe(true);
    expect(canDeal(LIMITS, { ...none, player: 1000, tie: 100 })).toBe(false);
    expect(canDeal(LIMITS, { ...none, player: 1000, tie: 500 })).toBe(true);
  });
});

describe('dealing', () => {
  it('orders the cards player, banker, player, banker, then the third cards', () => {
    const order = dealingOrder({ playerCards: ['2c', '3d', '4h'], bankerCards: ['5s', '6c', '7d'] });
    expect(order.map((c) => `${c.order}${c.to[0]}${c.card}`)).toEqual([
      '1p2c',
      '2b5s',
      '3p3d',
      '4b6c',
      '5p4h',
      '6b7d',
    ]);
    const bankerOnly = dealingOrder({ playerCards: ['Tc', '7d'], bankerCards: ['Ac', 'Ad', '9h'] });
    expect(bankerOnly.map((c) => c.to)).toEqual(['player', 'banker', 'player', 'banker', 'banker']);
  });

  it('gives each settlement its net change, commission already out of the win', () => {
    const base = { playerId: 'a', spot: 'banker' as const, amount: 1000 };
    expect(settlementLine({ ...base, result: 'win', paid: 1950, commission: 50 }).net).toBe(950);
    expect(settlementLine({ ...base, result: 'lose', paid: 0, commission: 0 }).net).toBe(-1000);
    expect(settlementLine({ ...base, result: 'push', paid: 1000, commission: 0 }).net).toBe(0);
  });
});

describe('history', () => {
  const seed = 'ab'.repeat(32);
  const published = commitment(seedFromHex(seed));
  const at = '2026-01-01T00:00:00.000Z';
  const coup = (roundNo: number, shoeNo: number, playerId: string) =>
    ({
      type: 'CoupResolved',
      data: {
        roundNo,
        shoeNo,
        playerCards: ['Tc', '9d'],
        bankerCards: ['2c', '3d'],
        playerTotal: 9,
        bankerTotal: 5,
        outcome: 'player',
        natural: true,
        cardsUsed: 4,
        commissionMode: 'deducted',
        settlements: [{ playerId, spot: 'player', amount: 100, result: 'win', paid: 200, commission: 0 }],
        at,
      },
    }) as unknown as TableEvent;
  const shoe = (shoeNo: number, c: string) =>
    ({ type: 'ShoeStarted', data: { shoeNo, commitment: c, seed: null } }) as unknown as TableEvent;
  const ended = (shoeNo: number, s: string) =>
    ({ type: 'ShoeEnded', data: { shoeNo, seed: s } }) as unknown as TableEvent;

  it('checks sha256(seed) against the commitment, and a wrong or malformed seed fails', () => {
    expect(seedMatches(seed, published)).toBe(true);
    expect(seedMatches('cd'.repeat(32), published)).toBe(false);
    expect(seedMatches('nope', published)).toBe(false);
  });

  it("lists only the player's coups, newest first, each with its shoe's commitment and revealed seed", () => {
    const h = historyOf(
      [
        shoe(1, published),
        coup(1, 1, 'me'),
        ended(1, seed),
        shoe(2, published),
        coup(2, 2, 'other'),
        ended(2, seed),
        shoe(3, published),
        coup(3, 3, 'me'),
        ended(3, 'cd'.repeat(32)),
      ],
      'me',
    );
    expect(h.map((e) => [e.roundNo, e.verified])).toEqual([
      [3, false],
      [1, true],
    ]);
    expect(historyOf([shoe(1, published), coup(1, 1, 'me')], 'me')[0]?.verified).toBeNull();
  });

  const win = { playerId: 'me', spot: 'player', amount: 1000, result: 'win', paid: 2000, commission: 0 };
  it("follows a settled coup's correction: its cards, result and payout replaced, marked corrected", () => {
    const corrected = {
      type: 'SettledCoupCorrected',
      data: {
        roundNo: 1,
        shoeNo: 1,
        index: 0,
        oldCard: 'Tc',
        newCard: '5c',
        playerCards: ['5c', '9d'],
        bankerCards: ['2c', '2d'],
        playerTotal: 4,
        bankerTotal: 4,
        outcome: 'tie',
        natural: false,
        cardsUsed: 4,
        reason: 'first card misread',
        reversed: [win],
        commissionMode: 'deducted',
        settlements: [{ ...win, result: 'push', paid: 1000 }],
        at: '2026-01-01T00:01:00.000Z',
        by: 'sue',
        role: 'supervisor',
      },
    } as unknown as TableEvent;
    const before = coup(1, 1, 'me');
    (before.data as { settlements: unknown }).settlements = [win];
    const [h] = historyOf([shoe(1, published), before, corrected], 'me');
    expect(h).toMatchObject({
      roundNo: 1,
      playerCards: ['5c', '9d'],
      playerTotal: 4,
      bankerTotal: 4,
      outcome: 'tie',
      settlements: [{ spot: 'player', amount: 1000, result: 'push', paid: 1000 }],
      amended: { kind: 'corrected', reason: 'first card misread', at: '2026-01-01T00:01:00.000Z' },
    });
    expect(historyOf([shoe(1, published), before], 'me')[0]?.amended).toBeNull();
  });

  it('marks a coup voided after it settled, its stake returned, its payout undone', () => {
    const before = coup(1, 1, 'me');
    (before.data as { settlements: unknown }).settlements = [win];
    const voided = {
      type: 'SettledCoupVoided',
      data: {
        roundNo: 1,
        shoeNo: 1,
        reason: 'cards exposed',
        reversed: [win],
        returned: [{ playerId: 'me', amount: 1000 }],
        at: '2026-01-01T00:02:00.000Z',
        by: 'sue',
        role: 'supervisor',
      },
    } as unknown as TableEvent;
    const h = historyOf([shoe(1, published), before, coup(2, 1, 'me'), voided], 'me');
    expect(h.map((e) => e.roundNo)).toEqual([2, 1]);
    expect(h[1]).toMatchObject({
      roundNo: 1,
      outcome: 'player',
      amended: { kind: 'voided', reason: 'cards exposed', at: '2026-01-01T00:02:00.000Z', returned: 1000 },
    });
    expect(h[0]?.amended).toBeNull();
  });
});

/** A minimal fetch Response (jsdom has no global Response). */
const reply = (status: number, body: unknown) =>
  ({
    ok: status < 400,
    status,
    statusText: 'x',
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

describe('playerClient', () => {
  it('sends an Idempotency-Key per command and the same key on the retry after a lost answer', async () => {
    const seen: { path: string; key: string | null }[] = [];
    let fail = true;
    const fetchFn = async (path: string, init?: RequestInit) => {
      seen.push({ path, key: (init?.headers as Record<string, string>)['idempotency-key'] ?? null });
      if (fail) {
        fail = false;
        throw new Error('socket hang up');
      }
      return reply(200, { spotTotal: 100, chips: 900 });
    };
    const api = playerClient('tok', fetchFn);
    await api.bet('online-a', 3, 'a', 'player', 100);
    await api.bet('online-a', 3, 'a', 'player', 100);
    expect(seen.map((s) => s.path)).toEqual(Array(3).fill('/api/tables/online-a/rounds/3/bets'));
    expect(seen[0]?.key).toBeTruthy();
    expect(seen[1]?.key).toBe(seen[0]?.key); // the retry
    expect(seen[2]?.key).not.toBe(seen[0]?.key); // the next click
  });

  it("turns the service's refusal into an ApiError with its code", async () => {
    const api = playerClient('tok', async () =>
      reply(409, { statusCode: 409, code: 'COUP_INCOMPLETE', message: 'a coup is incomplete' }),
    );
    await expect(api.exit('online-a')).rejects.toEqual(
      new ApiError(409, 'COUP_INCOMPLETE', 'a coup is incomplete'),
    );
  });
});

describe('sound setting', () => {
  it('is on by default and remembers off', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(loadSoundOn(storage)).toBe(true);
    saveSoundOn(storage, false);
    expect(store.get(SOUND_KEY)).toBe('off');
    expect(loadSoundOn(storage)).toBe(false);
    saveSoundOn(storage, true);
    expect(loadSoundOn(storage)).toBe(true);
  });
});

describe('loadEvents', () => {
  /** A fake socket: records what the page sends; `serve` answers as the service would. */
  function fakeSocket(serve: (msg: { fromRevision: number }, push: (m: unknown) => void) => void) {
    const sent: { fromRevision: number }[] = [];
    let closed = false;
    const ws = {
      onopen: null as null | (() => void),
      onmessage: null as null | ((m: { data: string }) => void),
      onclose: null as null | (() => void),
      onerror: null as null | (() => void),
      send(text: string) {
        const msg = JSON.parse(text) as { fromRevision: number };
        sent.push(msg);
        serve(msg, (m) => ws.onmessage?.({ data: JSON.stringify(m) }));
      },
      close() {
        closed = true;
      },
    };
    return { ws, sent, closed: () => closed };
  }
  const ev = (n: number) => ({ type: 'BettingOpened', data: { roundNo: n } });

  it('subscribes from the start and collects the events until the service says resumed', async () => {
    const f = fakeSocket((_m, push) => {
      push({ type: 'event', revision: 0, event: ev(1) });
      push({ type: 'event', revision: 1, event: ev(2) });
      push({ type: 'resumed', revision: 1 });
    });
    const p = loadEvents('online-a', 'tok', () => f.ws as unknown as WebSocket);
    f.ws.onopen?.();
    expect((await p).map((e) => (e.data as { roundNo: number }).roundNo)).toEqual([1, 2]);
    expect(f.sent).toEqual([{ type: 'subscribe', tableId: 'online-a', fromRevision: -1 }]);
    expect(f.closed()).toBe(true);
  });

  it('on a long table (the service answers with the view) reads the last 2000 events', async () => {
    const f = fakeSocket((m, push) => {
      if (m.fromRevision === -1) push({ type: 'view', revision: 4999 });
      else push({ type: 'resumed', revision: 4999 });
    });
    const p = loadEvents('online-a', 'tok', () => f.ws as unknown as WebSocket);
    f.ws.onopen?.();
    await p;
    expect(f.sent.map((m) => m.fromRevision)).toEqual([-1, 3000]);
  });

  it("rejects with the service's refusal", async () => {
    const f = fakeSocket((_m, push) => push({ type: 'error', code: 'FORBIDDEN', message: 'not your table' }));
    const p = loadEvents('online-a', 'tok', () => f.ws as unknown as WebSocket);
    f.ws.onopen?.();
    await expect(p).rejects.toThrow('not your table');
  });
});
