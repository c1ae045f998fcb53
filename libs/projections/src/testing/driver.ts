/**
 * Drives a table with the real decider (`decide`/`evolve` of @coup/table) to produce realistic events for tests
 * and the benchmark: players buy in and bet, shoes start and end, rng tables deal whole coups, live tables get
 * their cards one by one from a (deterministically) shuffled shoe, with optional voids and card corrections.
 * Deterministic: the same options give the same events.
 */
import { type Card, isSideSpot, orderedShoe, sha256Hex, shuffle, seedFromHex } from '@coup/engine';
import {
  type Actor,
  type Spot,
  type TableCommand,
  type TableEvent,
  type TableRules,
  type TableState,
  decide,
  evolve,
  initialState,
  offeredSpots,
  tableView,
} from '@coup/table';

export interface DriverOptions {
  readonly tableId: string;
  /** Raw rules input for OpenTable (defaults for the rest). */
  readonly rules?: Record<string, unknown>;
  /** ISO time of the first command. Default 2025-01-01T10:00:00.000Z. */
  readonly start?: string;
  /** Milliseconds between commands. Default 1000. */
  readonly stepMs?: number;
  /** PRNG seed for the players' choices. */
  readonly seed?: number;
  /** Players seated (p1..pN). Default 3. */
  readonly players?: number;
  /** Chance a round is voided (by a supervisor). Default 0. */
  readonly voidRate?: number;
  /** Live tables: chance the first card is mis-entered and corrected. Default 0. */
  readonly correctionRate?: number;
  /**
   * Live tables: chance a card of the coup just settled is then corrected by a supervisor (the first correction
   * the decider accepts, from the last card back). Default 0.
   */
  readonly settledCorrectionRate?: number;
  /** Chance the coup just settled is then voided by a supervisor (after any correction). Default 0. */
  readonly settledVoidRate?: number;
}

export class DriverRefusal extends Error {
  constructor(
    readonly command: TableCommand,
    readonly code: string,
    message: string,
  ) {
    super(`${command.type} refused: ${code}: ${message}`);
  }
}

/** mulberry32: a small deterministic PRNG (not for security: test data only). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const DEALER: Actor = { id: 'dealer-1', role: 'dealer' };
const SUPERVISOR: Actor = { id: 'super-1', role: 'supervisor' };

export class TableDriver {
  state: TableState = initialState;
  private clockMs: number;
  private readonly stepMs: number;
  private readonly random: () => number;
  private seeds = 0;
  /** live tables: the physical shoe being dealt. */
  private liveShoe: Card[] = [];
  readonly players: string[];

  constructor(readonly options: DriverOptions) {
    this.clockMs = Date.parse(options.start ?? '2025-01-01T10:00:00.000Z');
    this.stepMs = options.stepMs ?? 1000;
    this.random = prng(options.seed ?? 1);
    this.players = Array.from({ length: options.players ?? 3 }, (_, i) => `p${i + 1}`);
  }

  get rules(): TableRules {
    const rules = this.state.rules;
    if (rules === null) throw new Error('the table is not open yet');
    return rules;
  }

  /** The current command time (advanced by each command). */
  now(): string {
    return new Date(this.clockMs).toISOString();
  }

  /** Sets the clock (e.g. to pass a betting deadline or move to another day). */
  setTime(iso: string): void {
    this.clockMs = Date.parse(iso);
  }

  /** Decides and applies one command; throws DriverRefusal when refused. */
  execute(type: TableCommand['type'], data: Record<string, unknown>, actor: Actor = DEALER): TableEvent[] {
    const command = { type, data, meta: { actor, at: this.now() } } as TableCommand;
    this.clockMs += this.stepMs;
    const decision = decide(command, this.state);
    if (!decision.ok) throw new DriverRefusal(command, decision.error.code, decision.error.message);
    for (const e of decision.events) this.state = evolve(this.state, e);
    return [...decision.events];
  }

  /** Forty players betting on all three spots, every 37th bet a clear (the hand-history storage tests). */
  static readonly MIXED_BETS = {
    players: 40,
    clearEvery: 37,
    spot: (i: number): Spot => (i % 11 === 0 ? 'tie' : i % 2 === 0 ? 'player' : 'banker'),
  };

  /**
   * Bets and clears in the open round, made by the players themselves: bet i is player p((i mod players) + 1)'s,
   * a clear once every player has bet and i is a multiple of `clearEvery`, else 100 on `spot(i)`.
   */
  betsAndClears(
    from: number,
    count: number,
    { players, clearEvery, spot }: { players: number; clearEvery: number; spot: (i: number) => Spot },
  ): TableEvent[] {
    const roundNo = this.state.roundNo;
    const out: TableEvent[] = [];
    for (let i = from; i < from + count; i++) {
      const playerId = `p${(i % players) + 1}`;
      const actor: Actor = { id: playerId, role: 'player' };
      if (i >= players && i % clearEvery === 0)
        out.push(...this.execute('ClearBets', { roundNo, playerId }, actor));
      else out.push(...this.execute('PlaceBet', { roundNo, playerId, spot: spot(i), amount: 100 }, actor));
    }
    return out;
  }

  /** A fresh deterministic seed (64 hex). */
  nextSeed(): string {
    this.seeds += 1;
    return sha256Hex(`${this.options.tableId}:${this.options.seed ?? 1}:${this.seeds}`);
  }

  /** Opens the table and buys in every player. */
  open(buyIn = 100_000): TableEvent[] {
    const events = this.execute(
      'OpenTable',
      { tableId: this.options.tableId, rules: this.options.rules ?? {} },
      ADMIN,
    );
    for (const p of this.players)
      events.push(...this.execute('BuyIn', { playerId: p, amount: buyIn }, ADMIN));
    return events;
  }

  /** Starts a shoe if none is in progress (live tables: the driver's own shuffled shoe); returns its events. */
  startShoe(): TableEvent[] {
    const events: TableEvent[] = [];
    this.ensureShoe(events);
    return events;
  }

  /** Starts a shoe if none is in progress (not on every-coup tables: OpenBetting shuffles there). */
  private ensureShoe(events: TableEvent[]): void {
    if (this.state.phase !== 'idle') return;
    if (this.rules.shuffle === 'every-coup' && this.rules.dealing === 'rng') return;
    if (this.rules.dealing === 'rng') {
      events.push(...this.execute('StartShoe', { seed: this.nextSeed() }));
    } else {
      this.liveShoe = shuffle(orderedShoe(this.rules.decks), seedFromHex(this.nextSeed()));
      events.push(...this.execute('StartShoe', { firstCard: this.liveShoe[0] }));
    }
  }

  private pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.random() * items.length)];
    if (item === undefined) throw new Error('nothing to pick from');
    return item;
  }

  /** Like execute, but returns null when the command is refused with `code`. */
  private attempt(
    type: TableCommand['type'],
    data: Record<string, unknown>,
    actor: Actor,
    code: string,
  ): TableEvent[] | null {
    try {
      return this.execute(type, data, actor);
    } catch (error) {
      if (error instanceof DriverRefusal && error.code === code) return null;
      throw error;
    }
  }

  /** Chips of a seated player (from the public view), or null. */
  private chipsOf(playerId: string): number | null {
    return tableView(this.state).players.find((p) => p.playerId === playerId)?.chips ?? null;
  }

  /** Each player may bet (random spot and amount within the default limits), clear, or rebet. */
  private bets(roundNo: number, events: TableEvent[]): void {
    for (const playerId of this.players) {
      const chips = this.chipsOf(playerId);
      if (chips === null || chips < 20_000) {
        events.push(...this.execute('BuyIn', { playerId, amount: 100_000 }, ADMIN));
      }
      const r = this.random();
      if (r < 0.25) continue;
      const actor: Actor = { id: playerId, role: 'player' };
      if (r < 0.3) {
        const rebet = this.attempt('Rebet', { roundNo, playerId }, actor, 'NO_PREVIOUS_BETS');
        if (rebet !== null) {
          events.push(...rebet);
          continue;
        }
      }
      const spot: Spot = this.random() < 0.1 ? 'tie' : this.random() < 0.5 ? 'player' : 'banker';
      const amount = this.pick([100, 500, 1000, 2500, 5000, 10_000]);
      events.push(...this.execute('PlaceBet', { roundNo, playerId, spot, amount }, actor));
      this.sideBet(roundNo, playerId, actor, events);
      if (this.random() < 0.05) {
        events.push(...this.execute('PlaceBet', { roundNo, playerId, spot: 'tie', amount: 100 }, actor));
      }
      if (this.random() < 0.03) events.push(...this.execute('ClearBets', { roundNo, playerId }, actor));
    }
  }

  /**
   * On a table offering side bets, half the time one on a side bet the table offers (100 to 1,000; a table
   * without side bets draws nothing here, so its history is the same as before side bets).
   */
  private sideBet(roundNo: number, playerId: string, actor: Actor, events: TableEvent[]): void {
    const side = offeredSpots(this.rules).filter(isSideSpot);
    if (side.length === 0 || this.random() < 0.5) return;
    const spot = this.pick(side);
    const amount = this.pick([100, 200, 500, 1000]);
    events.push(...this.execute('PlaceBet', { roundNo, playerId, spot, amount }, actor));
  }

  /**
   * Live tables: one round with these stakes (each placed by its player) and exactly these cards, dealt one by
   * one; a shoe is started first (turning `firstCard`) if none is in progress.
   */
  liveRound(
    cards: readonly Card[],
    stakes: readonly { playerId: string; spot: Spot; amount: number }[] = [],
    firstCard: Card = 'Qs',
  ): TableEvent[] {
    const events: TableEvent[] = [];
    if (this.state.phase === 'idle') events.push(...this.execute('StartShoe', { firstCard }));
    events.push(...this.execute('OpenBetting', {}));
    const roundNo = this.state.roundNo;
    for (const { playerId, spot, amount } of stakes) {
      const actor: Actor = { id: playerId, role: 'player' };
      events.push(...this.execute('PlaceBet', { roundNo, playerId, spot, amount }, actor));
    }
    events.push(...this.execute('CloseBetting', { roundNo }));
    events.push(...this.liveCards(roundNo, cards));
    return events;
  }

  /** Live tables: these cards dealt one by one in round `roundNo` (betting closed). */
  liveCards(roundNo: number, cards: readonly Card[]): TableEvent[] {
    return cards.flatMap((card) => this.execute('DealCard', { roundNo, card }));
  }

  /**
   * Plays one round: starts a shoe if needed, opens betting, bets, closes, deals (or voids). Returns every
   * event, including any ShoeEnded/ShoeStarted that follow the coup.
   */
  playRound(options: { void?: boolean } = {}): TableEvent[] {
    const events: TableEvent[] = [];
    const rules = this.rules;
    const everyCoup = rules.shuffle === 'every-coup' && rules.dealing === 'rng';
    const playerDealt = rules.dealtBy === 'player';
    if (!(playerDealt && this.state.phase === 'betting')) {
      this.ensureShoe(events);
      const seed = everyCoup && this.state.phase === 'idle' ? { seed: this.nextSeed() } : {};
      events.push(...this.execute('OpenBetting', seed));
    }
    const roundNo = this.state.roundNo;
    this.bets(roundNo, events);
    const voided = options.void ?? this.random() < (this.options.voidRate ?? 0);
    if (playerDealt) {
      const bettor = tableView(this.state).round?.bets.players[0]?.playerId;
      if (bettor === undefined || voided) {
        events.push(
          ...this.execute('VoidRound', { roundNo, reason: 'no bets: round abandoned' }, SUPERVISOR),
        );
        return events;
      }
      events.push(
        ...this.execute('Deal', { roundNo, nextSeed: this.nextSeed() }, { id: bettor, role: 'player' }),
      );
      events.push(...this.amendSettled(roundNo));
      return events;
    }
    events.push(...this.execute('CloseBetting', { roundNo }));
    if (rules.dealing === 'rng') {
      if (voided) {
        events.push(...this.execute('VoidRound', { roundNo, reason: 'equipment fault' }, SUPERVISOR));
        return events;
      }
      events.push(...this.execute('Deal', { roundNo }));
      events.push(...this.amendSettled(roundNo));
      return events;
    }
    const correct = this.random() < (this.options.correctionRate ?? 0);
    events.push(...this.dealLiveShoe(roundNo, { correct, voided }));
    events.push(...this.amendSettled(roundNo));
    return events;
  }

  /**
   * The coup of round `roundNo` just settled, put right by a supervisor now and then (`settledCorrectionRate`,
   * `settledVoidRate`): a card corrected, then perhaps the coup voided. Draws nothing from the PRNG unless the
   * options ask for it, so other tables' histories stay as they were.
   */
  private amendSettled(roundNo: number): TableEvent[] {
    const events: TableEvent[] = [];
    const settled = () => this.state.round?.roundNo === roundNo && this.state.round.status === 'resolved';
    const rate = this.options.settledCorrectionRate ?? 0;
    const shoeIn = this.state.shoe !== null && !this.state.shoe.ended;
    if (rate > 0 && settled() && shoeIn && this.rules.dealing === 'live' && this.random() < rate)
      events.push(...this.correctSettled(roundNo));
    const voidRate = this.options.settledVoidRate ?? 0;
    if (voidRate > 0 && settled() && this.random() < voidRate) {
      const reason = 'settled coup voided: shoe found short a card';
      events.push(
        ...(this.attempt('VoidRound', { roundNo, reason }, SUPERVISOR, 'CORRECTION_CONFLICT') ?? []),
      );
    }
    return events;
  }

  /**
   * The physical shoe made to agree with a correction of card `index` of the coup just dealt (`count` cards,
   * the last ones dealt): the corrected card was the one dealt there, and the card first entered is still in the
   * shoe, where the corrected one was (further on, or among the cards burned face down).
   */
  private swapInShoe(index: number, count: number, card: Card): void {
    const next = tableView(this.state).shoe?.position ?? 0;
    const position = next - count + index;
    let other = this.liveShoe.indexOf(card, next);
    if (other < 0) {
      other = this.liveShoe.indexOf(card, 1);
      // none further on: one before this coup, never dealt again (burned face down, or dealt already)
      if (other >= next - count) other = -1;
    }
    if (other < 0) return;
    [this.liveShoe[position], this.liveShoe[other]] = [card, this.liveShoe[position] as Card];
  }

  /** The first correction of a card of the settled coup the decider accepts (from the last card back), if any. */
  private correctSettled(roundNo: number): TableEvent[] {
    const cards = this.state.round?.cards.map((c) => c.card) ?? [];
    const ranks = 'A23456789TJQK';
    const offset = Math.floor(this.random() * ranks.length);
    for (let index = cards.length - 1; index >= 0; index--) {
      const card = cards[index] as Card;
      const others = [...ranks].filter((r) => r !== card[0]);
      for (let k = 0; k < others.length; k++) {
        const rank = others[(offset + k) % others.length] as string;
        const data = {
          roundNo,
          index,
          card: `${rank}${card[1]}`,
          reason: `card ${index} misread as ${card}`,
        };
        try {
          const events = this.execute('CorrectCard', data, SUPERVISOR);
          this.swapInShoe(index, cards.length, data.card as Card);
          return events;
        } catch (error) {
          const code = error instanceof DriverRefusal ? error.code : null;
          if (code !== 'CORRECTION_CONFLICT' && code !== 'CARD_NOT_IN_SHOE') throw error;
        }
      }
    }
    return [];
  }

  /**
   * Live tables: the coup of round `roundNo` (betting closed) dealt one card at a time from the physical shoe
   * (the shoe the driver shuffled at StartShoe); `correct`: the first card mis-entered and corrected; `voided`:
   * voided by a supervisor after two cards.
   */
  dealLiveShoe(roundNo: number, { correct = false, voided = false } = {}): TableEvent[] {
    const events: TableEvent[] = [];
    for (let i = 0; this.state.phase === 'dealing'; i++) {
      if (voided && i === 2) {
        events.push(...this.execute('VoidRound', { roundNo, reason: 'misdeal' }, SUPERVISOR));
        return events;
      }
      const index = tableView(this.state).shoe?.position ?? 0;
      const card = this.liveShoe[index];
      if (card === undefined) throw new Error(`the live shoe has no card at ${index}`);
      if (i === 0 && correct) {
        const wrong = this.liveShoe[index + 7];
        if (wrong !== undefined && wrong !== card) {
          events.push(...this.execute('DealCard', { roundNo, card: wrong }));
          events.push(...this.execute('CorrectCard', { roundNo, index: 0, card }, SUPERVISOR));
          continue;
        }
      }
      events.push(...this.execute('DealCard', { roundNo, card }));
    }
    return events;
  }
}
