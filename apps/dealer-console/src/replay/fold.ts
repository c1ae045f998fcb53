/**
 * The replay folded in the browser by the table's own decider: the state before the hand is rebuilt from the
 * service's `before` view, each event is applied with `@coup/table`'s `evolve`, and `tableView` shows the table
 * after it. Every step's view is compared with the one the service folded (the coup itself is checked in
 * coup-audit.ts). Pure: no DOM, no clock.
 */
import {
  type PlayerState,
  type RoundState,
  type ShoeState,
  type SpotAmounts,
  STATE_VERSION,
  type TableEvent,
  type TableState,
  type TableView,
  evolve,
  stakedSpots,
  tableView,
} from '@coup/table';
import type { HandReplay, ReplayEvent } from '@coup/projections/wire';

/**
 * A decision state that `tableView` shows exactly as `view`. What a view leaves out cannot matter to the views
 * that follow from it: the live shoe's unseen-card counts and the players' last bets (REBET) are only read by
 * `decide`, and a voided round's role is never shown.
 */
export function stateFromView(view: TableView): TableState {
  return {
    version: STATE_VERSION,
    phase: view.phase,
    tableId: view.tableId,
    rules: view.rules,
    roundNo: view.roundNo,
    shoeNo: view.shoe?.shoeNo ?? 0,
    shoe: shoeFromView(view),
    round: roundFromView(view.round),
    players: playersFromView(view),
    lastResult: view.lastResult,
  };
}

/** The shoe's state: its position is the view's less the cards of a hand still open (they are in the round). */
function shoeFromView(view: TableView): ShoeState | null {
  const s = view.shoe;
  if (s === null) return null;
  const position = s.position - (open(view) ? (view.round?.cards.length ?? 0) : 0);
  return {
    shoeNo: s.shoeNo,
    dealing: s.dealing,
    everyCoup: s.everyCoup,
    decks: s.decks,
    length: s.length,
    seed: s.seed,
    commitment: s.commitment,
    burnCard: s.burn.card,
    burnCount: s.burn.count,
    progress:
      s.cutIndex === null
        ? null
        : {
            length: s.length,
            position,
            cutIndex: s.cutIndex,
            cutCardOut: s.cutCardOut,
            coupsLeft: s.coupsLeft,
            ended: s.ended,
          },
    position,
    remaining: null,
    coups: s.coups,
    ended: s.ended,
    endReason: s.endReason,
    revealed: s.seed !== null,
  };
}

function roundFromView(r: TableView['round']): RoundState | null {
  if (r === null) return null;
  return {
    roundNo: r.roundNo,
    shoeNo: r.shoeNo,
    status: r.status,
    openedAt: r.openedAt,
    deadline: r.deadline,
    cards: r.cards.map((c) => ({ card: c.card, to: c.to, slot: c.slot })),
    result: r.result,
    voided: r.voided === null ? null : { ...r.voided, role: 'supervisor' },
    // one stake per player and spot on the layout (the round's maxStakes counts them)
    stakes: r.bets.players.reduce((n, p) => n + stakedSpots(p).length, 0),
  };
}

/** The players with their stakes in the round (from the round's bets); their last bets are not shown. */
function playersFromView(view: TableView): PlayerState[] {
  const bets = new Map((view.round?.bets.players ?? []).map((b) => [b.playerId, b]));
  return view.players.map((p) => {
    const b = bets.get(p.playerId);
    // every spot staked, side bets included
    const { playerId: _, ...stakes } = b ?? { playerId: '' };
    return {
      playerId: p.playerId,
      chips: p.chips,
      commissionOwed: p.commissionOwed,
      bets: b === undefined ? null : (stakes as SpotAmounts),
      lastBets: null,
    };
  });
}

function open(view: TableView): boolean {
  return view.round !== null && (view.round.status === 'betting' || view.round.status === 'dealing');
}

/** JSON with object keys sorted: the same value always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  });
}

/** One step of the replay as the console shows it. */
export interface FoldedStep {
  /** 1-based: the table after this many events of the hand. */
  readonly index: number;
  readonly event: ReplayEvent;
  /** The table after the event, folded in this browser. */
  readonly view: TableView;
  /** The browser's fold shows the same table as the service's. */
  readonly matchesService: boolean;
}

export interface FoldedReplay {
  readonly before: TableView;
  readonly steps: readonly FoldedStep[];
}

/** Folds the hand's events from the state before it, one step per event. */
export function foldReplay(replay: HandReplay): FoldedReplay {
  let state = stateFromView(replay.before);
  const before = tableView(state);
  const steps = replay.steps.map((s, i): FoldedStep => {
    state = evolve(state, { type: s.event.type, data: s.event.data } as TableEvent);
    const view = tableView(state);
    return {
      index: i + 1,
      event: s.event,
      view,
      matchesService: canonicalJson(view) === canonicalJson(s.view),
    };
  });
  return { before, steps };
}

/** The steps as bytes (what "the same hand replayed twice gives the same steps" compares). */
export function serializeSteps(folded: FoldedReplay): string {
  return folded.steps
    .map((s) =>
      canonicalJson({ index: s.index, event: s.event, view: s.view, matchesService: s.matchesService }),
    )
    .join('\n');
}
