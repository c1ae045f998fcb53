/**
 * One table's gaming day of events for the reports benchmark (see reports-history.ts for the year's shape): the
 * sittings' buy-ins and cash-outs in time order among the rounds, the shoes, each round opened by the dealer at
 * the table, settled (or voided), sometimes corrected or voided after it settled.
 */
import { settleBet } from '@coup/engine';
import type { Card, Returned, Role, SideSpot, TableEvent } from '@coup/table';
import {
  AMEND,
  type DayContext,
  MINUTE,
  type PoolCoup,
  ROTATION_MS,
  SIDE_BET_SHARE,
  type Settlement,
  type Sitting,
  type Spot,
  type TableCursor,
  type TableDay,
  type TableFact,
  between,
  dealerId,
  iso,
  pick,
  seeded,
  sittings,
  supervisorId,
} from './reports-history';

type Emit = (fact: TableFact) => void;

const SHOE_COUPS = 76;
const MAIN: readonly Spot[] = ['banker', 'player', 'tie'];

/** Emits the events of table `t` on day `d` (day start `dayStartMs`) through `emit`. */
export function tableDayEvents(
  ctx: DayContext,
  cursor: TableCursor,
  d: number,
  day: TableDay,
  emit: Emit,
): void {
  if (!day.open) return;
  const r = seeded(cursor.setup.index * 92_821 + d * 68_917 + 5);
  const seats = sittings(r, day, ctx.players);
  const cash = cashEvents(seats, cursor);
  const g = new DayWriter(ctx, cursor, d, r, emit);
  if (!cursor.opened) g.openTable(day.startMs - 30 * MINUTE);
  const step = (day.endMs - day.startMs) / day.coups;
  let next = 0;
  const cashUntil = (ms: number): void => {
    for (let c = cash[next]; c !== undefined && c.at <= ms; c = cash[++next]) emit(c.fact);
  };
  for (let i = 0; i < day.coups; i++) {
    const openMs = day.startMs + Math.floor(i * step + between(r, 0, step * 0.2));
    cashUntil(openMs);
    g.round(openMs, Math.floor(step * between(r, 0.55, 0.75)), seats);
  }
  g.endShoe(day.endMs, 'supervisor');
  cashUntil(Infinity);
}

/** The buy-in at the start of each sitting and the cash-out at its end, in time order. */
function cashEvents(seats: readonly Sitting[][], cursor: TableCursor): { at: number; fact: TableFact }[] {
  const tableId = cursor.setup.id;
  const cashier = `cage-${String((cursor.setup.index % 5) + 1).padStart(2, '0')}`;
  const by = { by: cashier, role: 'admin' as Role };
  const actor = `admin:${cashier}`;
  const out: { at: number; fact: TableFact }[] = [];
  for (const seat of seats) {
    for (const s of seat) {
      const amount = s.stake * (20 + (s.from % 41));
      const paid = Math.max(0, amount + s.stake * ((s.to % 31) - 16));
      const collected = cursor.setup.rules.commission === 'box' ? Math.floor(s.stake / 20) * (s.to % 7) : 0;
      out.push({
        at: s.from,
        fact: {
          tableId,
          actor,
          event: {
            type: 'PlayerBoughtIn',
            data: { playerId: s.playerId, amount, chips: amount, at: iso(s.from), ...by },
          },
        },
      });
      out.push({
        at: s.to,
        fact: {
          tableId,
          actor,
          event: {
            type: 'PlayerCashedOut',
            data: {
              playerId: s.playerId,
              paid,
              commissionCollected: collected,
              commissionOwed: 0,
              at: iso(s.to),
              ...by,
            },
          },
        },
      });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

class DayWriter {
  private readonly tableId: string;

  constructor(
    private readonly ctx: DayContext,
    private readonly cursor: TableCursor,
    private readonly d: number,
    private readonly r: () => number,
    private readonly emit: Emit,
  ) {
    this.tableId = cursor.setup.id;
  }

  private event(event: TableEvent, actor: string): void {
    this.emit({ tableId: this.tableId, event, actor });
  }

  openTable(atMs: number): void {
    const by = { by: 'pit-01', role: 'admin' as Role };
    const data = { tableId: this.tableId, rules: this.cursor.setup.rules, at: iso(atMs), ...by };
    this.event({ type: 'TableOpened', data }, 'admin:pit-01');
    this.cursor.opened = true;
  }

  /** The dealer at the table at `ms`: three dealers a day take turns, 45 minutes each. */
  private dealer(ms: number): string {
    const { index } = this.cursor.setup;
    const slot = Math.floor(ms / ROTATION_MS) % 3;
    return dealerId((index * 3 + slot + this.d * 11) % this.ctx.staff.dealers);
  }

  private supervisor(): string {
    return supervisorId(Math.floor(this.cursor.setup.index / 5) % this.ctx.staff.supervisors);
  }

  endShoe(atMs: number, reason: 'cut-card' | 'supervisor'): void {
    if (this.cursor.shoeLeft === 0) return;
    const by = this.dealer(atMs);
    const { shoeNo } = this.cursor;
    const coups = reason === 'cut-card' ? SHOE_COUPS : SHOE_COUPS - this.cursor.shoeLeft;
    const data = { shoeNo, seed: null, reason, coups, at: iso(atMs), by, role: 'dealer' as Role };
    this.event({ type: 'ShoeEnded', data }, `dealer:${by}`);
    this.cursor.shoeLeft = 0;
  }

  private startShoe(atMs: number): void {
    const by = this.dealer(atMs);
    this.cursor.shoeNo += 1;
    this.cursor.shoeLeft = SHOE_COUPS;
    const data = {
      shoeNo: this.cursor.shoeNo,
      dealing: 'live' as const,
      shuffle: 'shoe' as const,
      decks: 8,
      length: 416,
      commitment: null,
      seed: null,
      burnCard: null,
      burnCount: 0,
      firstCoupIndex: 0,
      cutCard: 16,
      at: iso(atMs),
      by,
      role: 'dealer' as Role,
    };
    this.event({ type: 'ShoeStarted', data }, `dealer:${by}`);
  }

  /** One round: opened at `openMs`, settled `playMs` later, with the bets of the seated players. */
  round(openMs: number, playMs: number, seats: readonly Sitting[][]): void {
    if (this.cursor.shoeLeft === 0) this.startShoe(openMs - 2 * MINUTE);
    const dealer = this.dealer(openMs);
    const roundNo = ++this.cursor.roundNo;
    const shoeNo = this.cursor.shoeNo;
    const base = { roundNo, shoeNo, by: dealer, role: 'dealer' as Role };
    this.event(
      { type: 'BettingOpened', data: { ...base, deadline: null, at: iso(openMs) } },
      `dealer:${dealer}`,
    );
    const pc = pick(this.r, this.ctx.pool);
    const stakes = this.stakes(openMs, seats);
    const settleMs = openMs + playMs;
    const x = this.r();
    if (x < AMEND.roundVoid) return this.voidRound(roundNo, settleMs, stakes);
    if (x < AMEND.roundVoid + AMEND.cardCorrection) this.correctCard(roundNo, settleMs - 5_000, pc);
    const settlements = this.settle(pc, stakes);
    const { commission } = this.cursor.setup.rules;
    this.event(
      {
        type: 'CoupResolved',
        data: { ...pc.coup, ...base, commissionMode: commission, settlements, at: iso(settleMs) },
      },
      `dealer:${dealer}`,
    );
    this.afterSettling(roundNo, shoeNo, settleMs + 20_000, pc, settlements);
    this.cursor.shoeLeft -= 1;
    if (this.cursor.shoeLeft === 0) this.endShoe(settleMs + 1_000, 'cut-card');
  }

  /** Each seated player bets with the context's share: a main bet, sometimes a side bet too. */
  private stakes(
    atMs: number,
    seats: readonly Sitting[][],
  ): { playerId: string; spot: Spot; amount: number }[] {
    const out: { playerId: string; spot: Spot; amount: number }[] = [];
    for (const seat of seats) {
      const s = seat.find((x) => x.from <= atMs && atMs < x.to);
      if (s === undefined || this.r() >= this.ctx.betShare) continue;
      const x = this.r();
      const spot: Spot = x < 0.5 ? 'banker' : x < 0.92 ? 'player' : 'tie';
      const amount =
        spot === 'tie'
          ? Math.max(100, Math.floor(s.stake / 500) * 100)
          : s.stake * (1 + Math.floor(this.r() * 3));
      out.push({ playerId: s.playerId, spot, amount: Math.min(amount, spot === 'tie' ? 100_000 : 500_000) });
      if (this.r() < SIDE_BET_SHARE) {
        const side = pick(this.r, this.cursor.setup.side);
        out.push({
          playerId: s.playerId,
          spot: side,
          amount: Math.max(100, Math.floor(s.stake / 500) * 100),
        });
      }
    }
    return out;
  }

  private settle(
    pc: PoolCoup,
    stakes: readonly { playerId: string; spot: Spot; amount: number }[],
  ): Settlement[] {
    const { payout, rules } = this.cursor.setup;
    return stakes.map((b) => {
      const st = settleBet(b.spot, b.amount, pc.features, payout);
      const paytable = MAIN.includes(b.spot) ? undefined : rules.sideBets?.[b.spot as SideSpot]?.paytable;
      return {
        playerId: b.playerId,
        spot: b.spot,
        amount: b.amount,
        ...st,
        ...(paytable ? { paytable } : {}),
      };
    });
  }

  private returned(stakes: readonly { playerId: string; amount: number }[]): Returned[] {
    const by = new Map<string, number>();
    for (const s of stakes) by.set(s.playerId, (by.get(s.playerId) ?? 0) + s.amount);
    return [...by].map(([playerId, amount]) => ({ playerId, amount }));
  }

  private voidRound(
    roundNo: number,
    atMs: number,
    stakes: readonly { playerId: string; amount: number }[],
  ): void {
    const by = this.supervisor();
    const data = {
      roundNo,
      reason: 'misdeal',
      by,
      role: 'supervisor' as Role,
      returned: this.returned(stakes),
      cardsDealt: 3,
      at: iso(atMs),
    };
    this.event({ type: 'RoundVoided', data }, `supervisor:${by}`);
  }

  private correctCard(roundNo: number, atMs: number, pc: PoolCoup): void {
    const by = this.supervisor();
    const index = Math.floor(this.r() * pc.cards.length);
    const card = pc.cards[index] as Card;
    const data = {
      roundNo,
      index,
      oldCard: (card === 'Ks' ? 'Kh' : 'Ks') as Card,
      newCard: card,
      next: { to: 'complete' as const },
      at: iso(atMs),
      by,
      role: 'supervisor' as Role,
    };
    this.event({ type: 'CardCorrected', data }, `supervisor:${by}`);
  }

  /** Sometimes the pit boss corrects a card of the coup just settled (another coup results), or voids it. */
  private afterSettling(
    roundNo: number,
    shoeNo: number,
    atMs: number,
    pc: PoolCoup,
    settled: Settlement[],
  ): void {
    const x = this.r();
    if (x >= AMEND.settledCorrection + AMEND.settledVoid) return;
    const by = this.supervisor();
    const who = {
      roundNo,
      shoeNo,
      reason: 'card entered wrong',
      at: iso(atMs),
      by,
      role: 'supervisor' as Role,
    };
    if (x < AMEND.settledVoid) {
      const data = { ...who, reversed: settled, returned: this.returned(settled) };
      this.event({ type: 'SettledCoupVoided', data }, `supervisor:${by}`);
      return;
    }
    const other = pick(this.r, this.ctx.pool);
    const stakes = settled.map((s) => ({ playerId: s.playerId, spot: s.spot, amount: s.amount }));
    const index = Math.min(pc.cards.length, other.cards.length) - 1;
    const data = {
      ...other.coup,
      ...who,
      index,
      oldCard: pc.cards[index] as Card,
      newCard: other.cards[index] as Card,
      reversed: settled,
      commissionMode: this.cursor.setup.rules.commission,
      settlements: this.settle(other, stakes),
    };
    this.event({ type: 'SettledCoupCorrected', data }, `supervisor:${by}`);
  }
}
