/**
 * Property: whatever the chips (up to the largest buy-in), the stakes (up to the largest limits, side bets of every
 * game mode and paytable) and the coup, the chips and box commission owed after settlement, and after a correction
 * or void of the settled coup, are safe integers equal to the exact sum of what the events moved, computed with
 * BigInt. The decider keeps them so by refusing the bets and buy-ins that could pass Number.MAX_SAFE_INTEGER
 * (see exact-chips.unit.spec.ts); the property also checks that both sides of the boundary are reached.
 */
import { type Card, GAME_MODES, RANKS, SIDE_BETS, SIDE_SPOTS, SUITS, sideBetRefusal } from '@coup/engine';
import fc from 'fast-check';
import {
  type Actor,
  type TableCommand,
  type TableEvent,
  type TableState,
  decide,
  evolve,
  initialState,
  offeredSpots,
} from '../src';
import { T0, admin, dealer, player, supervisor } from './support';

const RUNS = Number(process.env['TABLE_PROPERTY_RUNS'] ?? 400);
const MAX = Number.MAX_SAFE_INTEGER;
const BIG = 1_000_000_000_000; // the largest limit
const PLAYERS = ['p1', 'p2'];
const ALL_CARDS: Card[] = SUITS.flatMap((s) => RANKS.map((r): Card => `${r}${s}`));
/** Coups that pay the most: a tie of naturals with a perfect pair in each hand; a tie of naturals; pairs. */
const RICH_COUPS: Card[][] = [
  ['4s', '4h', '4s', '4h'],
  ['4s', '6s', '4h', '2s'],
  ['Ks', 'Kh', 'Kd', 'Kc', '9s', '9h'],
  ['2h', '3h', '2d', '3d', '3s'],
];

const rulesArb = fc
  .record({
    game: fc.constantFrom(...GAME_MODES),
    tiePays: fc.constantFrom(8, 9),
    box: fc.boolean(),
    offers: fc.array(fc.nat(3), { minLength: SIDE_SPOTS.length, maxLength: SIDE_SPOTS.length }),
  })
  .map(({ game, tiePays, box, offers }) => {
    const sideBets: Record<string, unknown> = {};
    SIDE_SPOTS.forEach((spot, i) => {
      const pick = offers[i] ?? 0;
      if (pick === 0 || sideBetRefusal(spot, { game, shuffle: 'shoe', decks: 8 }) !== null) return;
      const names = Object.keys(SIDE_BETS[spot].paytables);
      sideBets[spot] = { paytable: names[pick % names.length], min: 100, max: BIG };
    });
    const limit = { min: 100, max: BIG };
    return {
      dealing: 'live',
      game,
      tiePays,
      commission: box && game === 'commission' ? 'box' : 'deducted',
      limits: { player: limit, banker: limit, tie: limit },
      chips: [100],
      allowPlayerAndBanker: true,
      sideBets,
    };
  });

/** Cents made of the table's chips: mostly large, up to the largest limit. */
const amountArb = fc
  .oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: BIG / 100 }))
  .map((n) => n * 100);
/** A first buy-in: the largest, or a little (up to some $4 trillion) under it, or anything. */
const chipsArb = fc.oneof(
  fc.integer({ min: 0, max: 20 * BIG }).map((off) => MAX - off),
  fc.integer({ min: 0, max: 400 * BIG }).map((off) => MAX - off),
  fc.integer({ min: 1, max: MAX }),
);
const who = fc.nat(PLAYERS.length - 1);
const actionArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('bet' as const), who, spot: fc.nat(20), amount: amountArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('buyIn' as const), who, amount: fc.oneof(amountArb, chipsArb) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), who }) },
);
const cardsArb = fc.oneof(
  fc.constantFrom(...RICH_COUPS),
  fc.array(fc.constantFrom(...ALL_CARDS), { minLength: 6, maxLength: 6 }),
);
const afterArb = fc.record({
  buyIns: fc.array(fc.record({ who, amount: fc.oneof(amountArb, chipsArb) }), { maxLength: 2 }),
  change: fc.oneof(
    fc.constant(null),
    fc.record({
      kind: fc.constant('correct' as const),
      index: fc.nat(5),
      card: fc.constantFrom(...ALL_CARDS),
    }),
    fc.constant({ kind: 'void' as const }),
  ),
});

/** Each player's chips and commission owed, summed exactly from the events. */
class Ledger {
  readonly chips = new Map<string, bigint>();
  readonly owed = new Map<string, bigint>();
  private add(map: Map<string, bigint>, playerId: string, cents: number): void {
    map.set(playerId, (map.get(playerId) ?? 0n) + BigInt(cents));
  }
  apply(e: TableEvent, box: boolean): void {
    const d = e.data as never;
    switch (e.type) {
      case 'PlayerBoughtIn':
        return this.add(this.chips, e.data.playerId, e.data.amount);
      case 'BetPlaced':
        return this.add(this.chips, e.data.playerId, -e.data.amount);
      case 'BetsCleared':
        return this.add(this.chips, e.data.playerId, e.data.returned);
      case 'CoupResolved':
      case 'SettledCoupCorrected':
        for (const s of (d as { reversed?: typeof e.data.settlements }).reversed ?? []) {
          this.add(this.chips, s.playerId, -s.paid);
          if (box) this.add(this.owed, s.playerId, -s.commission);
        }
        for (const s of e.data.settlements) {
          this.add(this.chips, s.playerId, s.paid);
          if (box) this.add(this.owed, s.playerId, s.commission);
        }
        return;
      case 'SettledCoupVoided':
        for (const s of e.data.reversed) {
          this.add(this.chips, s.playerId, -s.paid);
          if (box) this.add(this.owed, s.playerId, -s.commission);
        }
        for (const r of e.data.returned) this.add(this.chips, r.playerId, r.amount);
        return;
      default:
        return;
    }
  }
}

describe('chips stay exact whatever the chips, stakes and coup', () => {
  const seen = { refusedAtBoundary: 0, settledNearMax: 0, corrected: 0 };

  it('settlement (and a correction or void after it) leaves safe integers equal to the exact BigInt sums', () => {
    fc.assert(
      fc.property(
        rulesArb,
        fc.array(chipsArb, { minLength: PLAYERS.length, maxLength: PLAYERS.length }),
        fc.array(actionArb, { minLength: 1, maxLength: 12 }),
        cardsArb,
        afterArb,
        (rules, chips, actions, cards, after) => {
          const box = rules.commission === 'box';
          const ledger = new Ledger();
          let state: TableState = initialState;
          const send = (type: TableCommand['type'], data: object, actor: Actor): boolean => {
            const decision = decide({ type, data, meta: { actor, at: T0 } } as TableCommand, state);
            if (!decision.ok) {
              if (decision.error.code === 'INVALID_AMOUNT' && type !== 'BuyIn') seen.refusedAtBoundary++;
              return false;
            }
            for (const e of decision.events) {
              state = evolve(state, e);
              ledger.apply(e, box);
              for (const p of state.players) {
                expect(Number.isSafeInteger(p.chips) && p.chips >= 0).toBe(true);
                expect(Number.isSafeInteger(p.commissionOwed) && p.commissionOwed >= 0).toBe(true);
              }
            }
            return true;
          };
          const must = (type: TableCommand['type'], data: object, actor: Actor) =>
            expect({ type, ok: send(type, data, actor) }).toEqual({ type, ok: true });

          must('OpenTable', { tableId: 'T1', rules }, admin);
          PLAYERS.forEach((playerId, i) => must('BuyIn', { playerId, amount: chips[i] }, admin));
          must('StartShoe', { firstCard: '5h' }, dealer);
          must('OpenBetting', {}, dealer);
          const spots = offeredSpots(state.rules!);
          for (const a of actions) {
            const playerId = PLAYERS[a.who]!;
            if (a.kind === 'buyIn') send('BuyIn', { playerId, amount: a.amount }, admin);
            else if (a.kind === 'clear') send('ClearBets', { roundNo: 1, playerId }, player(playerId));
            else {
              const spot = spots[a.spot % spots.length];
              send('PlaceBet', { roundNo: 1, playerId, spot, amount: a.amount }, player(playerId));
            }
          }
          must('CloseBetting', { roundNo: 1 }, dealer);
          for (const card of cards)
            if (state.phase === 'dealing') must('DealCard', { roundNo: 1, card }, dealer);
          expect(state.round?.status).toBe('resolved');
          if (state.players.some((p) => p.chips > MAX - BIG)) seen.settledNearMax++;
          for (const b of after.buyIns) send('BuyIn', { playerId: PLAYERS[b.who]!, amount: b.amount }, admin);
          const change = after.change;
          if (change?.kind === 'correct') {
            const data = { roundNo: 1, index: change.index, card: change.card, reason: 'misread' };
            if (send('CorrectCard', data, supervisor)) seen.corrected++;
          } else if (change?.kind === 'void') {
            send('VoidRound', { roundNo: 1, reason: 'misdeal' }, supervisor);
          }

          for (const p of state.players) {
            expect(Number.isSafeInteger(p.chips)).toBe(true);
            expect(BigInt(p.chips)).toBe(ledger.chips.get(p.playerId) ?? 0n);
            expect(Number.isSafeInteger(p.commissionOwed)).toBe(true);
            expect(BigInt(p.commissionOwed)).toBe(ledger.owed.get(p.playerId) ?? 0n);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('reached both sides of the boundary: bets refused for it, coups settled near it, settled coups corrected', () => {
    expect(seen.refusedAtBoundary).toBeGreaterThan(0);
    expect(seen.settledNearMax).toBeGreaterThan(0);
    expect(seen.corrected).toBeGreaterThan(0);
  });
});
