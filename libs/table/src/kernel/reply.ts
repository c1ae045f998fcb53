/**
 * Reply helpers: a command's answer is computed from the events just decided (they carry everything an answer
 * needs, so the answer is the same whenever it is recomputed, e.g. for an idempotent retry).
 */
import type { EventData, Settlement, TableEvent, TableEventType } from '../vocabulary';

/** The data of the first event of `type`, or undefined. */
export function find<T extends TableEventType>(events: readonly TableEvent[], type: T) {
  const found = events.find((x) => x.type === type);
  return found === undefined ? undefined : (found.data as unknown as EventData<T>);
}

/** The data of every event of `type`. */
export function findAll<T extends TableEventType>(events: readonly TableEvent[], type: T) {
  return events.filter((x) => x.type === type).map((x) => x.data as unknown as EventData<T>);
}

/** The coup's answer (Deal, or the DealCard / CorrectCard that completes the coup). */
export interface CoupReply {
  readonly roundNo: number;
  readonly playerCards: readonly string[];
  readonly bankerCards: readonly string[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly outcome: 'player' | 'banker' | 'tie';
  readonly natural: boolean;
  readonly settlements: readonly Settlement[];
  /** The shoe that ended with this coup (its seed revealed on rng tables), or null. */
  readonly shoeEnded: {
    readonly shoeNo: number;
    readonly seed: string | null;
    readonly reason: string;
  } | null;
  /** The next shoe started by `nextSeed` (its commitment), or null. */
  readonly nextShoe: { readonly shoeNo: number; readonly commitment: string | null } | null;
  /** The next round opened automatically (player-dealt tables), or null. */
  readonly nextRound: { readonly roundNo: number; readonly deadline: string | null } | null;
}

/** The coup's answer, if these events resolve a coup. */
export function coupReply(events: readonly TableEvent[]): CoupReply | undefined {
  const coup = find(events, 'CoupResolved');
  if (coup === undefined) return undefined;
  const ended = find(events, 'ShoeEnded');
  const started = find(events, 'ShoeStarted');
  const opened = find(events, 'BettingOpened');
  return {
    roundNo: coup.roundNo,
    playerCards: coup.playerCards,
    bankerCards: coup.bankerCards,
    playerTotal: coup.playerTotal,
    bankerTotal: coup.bankerTotal,
    outcome: coup.outcome,
    natural: coup.natural,
    settlements: coup.settlements,
    shoeEnded: ended === undefined ? null : { shoeNo: ended.shoeNo, seed: ended.seed, reason: ended.reason },
    nextShoe: started === undefined ? null : { shoeNo: started.shoeNo, commitment: started.commitment },
    nextRound: opened === undefined ? null : { roundNo: opened.roundNo, deadline: opened.deadline },
  };
}
