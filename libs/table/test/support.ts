/**
 * Test support: a tiny emmett-style `given(events).when(command).then(events | error code)`, actors, command
 * builders, and `history(...)` to build real given-events by deciding commands (so fixtures never drift from
 * the decider).
 */
import { commitment, resolveCoup, seedFromHex, sha256Hex, shuffleShoe } from '@coup/engine';
import {
  type Actor,
  type DomainErrorCode,
  type TableCommand,
  type TableEvent,
  type TableState,
  COMMAND_SPECS,
  decide,
  fold,
} from '../src';

export const T0 = '2030-01-01T12:00:00.000Z';
/** T0 plus `seconds`. */
export function at(seconds: number): string {
  return new Date(Date.parse(T0) + seconds * 1000).toISOString();
}

export const admin: Actor = { id: 'boss', role: 'admin' };
export const dealer: Actor = { id: 'dealer-1', role: 'dealer' };
export const supervisor: Actor = { id: 'pit-1', role: 'supervisor' };
export const compliance: Actor = { id: 'audit-1', role: 'compliance' };
export const analyst: Actor = { id: 'stats-1', role: 'analyst' };
/** The player actor for `id`. */
export function player(id: string): Actor {
  return { id, role: 'player' };
}

type DataOf<T extends TableCommand['type']> = Extract<TableCommand, { type: T }>['data'];

/** The default sender of a command, from its spec's roles: a dealer if it may, else a supervisor, else an admin. */
export function defaultActor(type: TableCommand['type']): Actor {
  const roles = COMMAND_SPECS[type].roles;
  return roles.includes('dealer') ? dealer : roles.includes('supervisor') ? supervisor : admin;
}

/** Builds a command: `cmd('PlaceBet', {...}, actor, at)`. Defaults: {@link defaultActor} at T0. */
export function cmd<T extends TableCommand['type']>(
  type: T,
  data: DataOf<T>,
  actor?: Actor,
  when = T0,
): TableCommand {
  const who = actor ?? defaultActor(type);
  return { type, data, meta: { actor: who, at: when } } as TableCommand;
}

/** A deterministic seed (64 hex) from a label. */
export function seed(label: string | number): string {
  return sha256Hex(`coup-test-seed-${label}`);
}

/** The commitment of a hex seed. */
export function commitOf(hex: string): string {
  return commitment(seedFromHex(hex));
}

/** The coup an rng shoe deals from `position` (the engine's resolveCoup on the shuffled shoe). */
export function coupAt(hex: string, decks: number, position: number) {
  const shoe = shuffleShoe(decks, seedFromHex(hex));
  return { shoe, result: resolveCoup(shoe.slice(position, position + 6)) };
}

/** Finds a seed (by label `prefix-i`) whose coup at the shoe's first dealing position satisfies `pred`. */
export function findSeed(
  pred: (r: ReturnType<typeof resolveCoup>) => boolean,
  options: { decks?: number; everyCoup?: boolean; prefix?: string } = {},
): string {
  const decks = options.decks ?? 8;
  for (let i = 0; i < 5000; i++) {
    const s = seed(`${options.prefix ?? 'find'}-${i}`);
    const shoe = shuffleShoe(decks, seedFromHex(s));
    const start = options.everyCoup ? 0 : 1 + burnOf(shoe[0]!);
    if (pred(resolveCoup(shoe.slice(start, start + 6)))) return s;
  }
  throw new Error('no seed found');
}

function burnOf(card: string): number {
  const r = card[0]!;
  if (r === 'A') return 1;
  if ('TJQK'.includes(r)) return 10;
  return Number(r);
}

/** Decides each command in turn and returns all the events (fails the test if any command is refused). */
export function history(...commands: TableCommand[]): TableEvent[] {
  return continueHistory([], ...commands);
}

/** Like {@link history}, after `events`. Returns the whole list (given events included). */
export function continueHistory(events: readonly TableEvent[], ...commands: TableCommand[]): TableEvent[] {
  const all = [...events];
  let state = fold(all);
  for (const c of commands) {
    const d = decide(c, state);
    if (!d.ok) throw new Error(`history: ${c.type} refused: ${d.error.code} ${d.error.message}`);
    all.push(...d.events);
    state = fold(d.events, state);
  }
  return all;
}

interface Then {
  /** The decision's events (expects success). */
  readonly events: readonly TableEvent[];
  /** The state after the events (expects success). */
  readonly state: TableState;
  /** Expects exactly these events, or a refusal with this code (and no events, state untouched). */
  then(expected: readonly TableEvent[] | DomainErrorCode, details?: Record<string, unknown>): Then;
  /** Expects success with events matching these partial events (same count, same order). */
  thenMatch(expected: readonly { type: TableEvent['type']; data?: Record<string, unknown> }[]): Then;
}

/** `given(events).when(command).then(events | code)`. */
export function given(...events: (TableEvent | readonly TableEvent[])[]) {
  const flat = events.flat() as TableEvent[];
  const state = fold(flat);
  return {
    state,
    when(command: TableCommand): Then {
      const before = JSON.stringify(state);
      const decision = decide(command, state);
      expect(JSON.stringify(state)).toBe(before); // decide never changes its input
      const self: Then = {
        get events() {
          if (!decision.ok)
            throw new Error(`expected success, got ${decision.error.code}: ${decision.error.message}`);
          return decision.events;
        },
        get state() {
          return fold(self.events, state);
        },
        then(expected, details) {
          if (typeof expected === 'string') {
            expect(
              decision.ok ? { ok: true, events: decision.events.map((e) => e.type) } : decision.error.code,
            ).toBe(expected);
            if (!decision.ok) {
              expect(typeof decision.error.message).toBe('string');
              expect(decision.error.message.length).toBeGreaterThan(5);
              if (details) expect(decision.error.details).toMatchObject(details);
            }
          } else {
            if (!decision.ok)
              throw new Error(`expected events, got ${decision.error.code}: ${decision.error.message}`);
            expect(decision.events).toEqual(expected);
          }
          return self;
        },
        thenMatch(expected) {
          if (!decision.ok)
            throw new Error(`expected events, got ${decision.error.code}: ${decision.error.message}`);
          expect(decision.events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
          expect(decision.events).toMatchObject(expected);
          return self;
        },
      };
      return self;
    },
  };
}

// --- common histories ------------------------------------------------------------------------------------------

/** Opens table T1 with these rules. */
export function open(rules: Record<string, unknown> = {}, tableId = 'T1'): TableCommand {
  return cmd('OpenTable', { tableId, rules });
}

/** Buys in `playerId` for `amount`. */
export function buy(playerId: string, amount: number, when = T0): TableCommand {
  return cmd('BuyIn', { playerId, amount }, admin, when);
}

/** A bet by the player itself. */
export function bet(
  roundNo: number,
  playerId: string,
  spot: 'player' | 'banker' | 'tie',
  amount: number,
  when = T0,
) {
  return cmd('PlaceBet', { roundNo, playerId, spot, amount }, player(playerId), when);
}

/** A live table with an 8-deck shoe started (turned card `5h`: burn 5) and players p1, p2 with 1,000 dollars. */
export function liveReady(rules: Record<string, unknown> = {}): TableEvent[] {
  return history(
    open({ dealing: 'live', ...rules }),
    buy('p1', 100_000),
    buy('p2', 100_000),
    cmd('StartShoe', { firstCard: '5h' }),
  );
}

/** Deals these cards one by one (live). */
export function dealCards(roundNo: number, cards: readonly string[], when = T0): TableCommand[] {
  return cards.map((card) => cmd('DealCard', { roundNo, card }, dealer, when));
}

/** Live card sequences with a known result (dealing order P B P B [P3] [B3]). */
export const CARDS = {
  /** Player 2+3=5 vs banker 9+T=9: banker natural 9, two cards each. */
  bankerNatural: ['2c', '9c', '3c', 'Tc'],
  /** Player 9+K=9 natural vs banker 5+2=7: player wins. */
  playerNatural: ['9d', '5d', 'Kd', '2d'],
  /** Player 4+4=8 natural vs banker 6+2=8 natural: tie. */
  tieNaturals: ['4s', '6s', '4h', '2s'],
  /** Player 2+2=4 draws 3 -> 7; banker 3+3=6 draws on a 3? no (6 draws on 6-7): stands 6. Player wins 7-6. */
  playerThird: ['2h', '3h', '2d', '3d', '3s'],
  /** Player 2+2=4 draws 2 -> 6; banker 3+2=5 draws on 2? no (5 draws on 4-7): stands 5. Player 6-5. */
  playerDraws: ['2h', '3h', '2d', '2s', '2c'],
  /** Player 7+K=7 stands; banker 2+3=5 draws 4 -> 9. Banker wins. */
  bankerThird: ['7h', '2h', 'Kh', '3h', '4h'],
  /** Player A+2=3 draws 4 -> 7; banker 2+A=3 draws (not on an 8) 5 -> 8. Banker wins 8-7 on six cards. */
  sixCards: ['Ac', '2d', '2c', 'Ad', '4c', '5c'],
} as const;
