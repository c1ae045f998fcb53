/**
 * The bets and clears of an open hand as a persistent chunked list ({@link BetLog}): appending shares the full
 * chunks, so a fold state kept by the runner to roll back to is never changed.
 */
import { BET_CHUNK } from './schema';
import type { BetEntry } from './wire';

/**
 * The bets and clears of an open hand in order, as a persistent list: full chunks of exactly {@link BET_CHUNK}
 * entries, then a tail of fewer. Never mutated: an append returns a new log sharing the full chunks (and the
 * old log stays valid), so a fold state kept by the runner to roll back to is untouched.
 */
export interface BetLog {
  readonly chunks: readonly (readonly BetEntry[])[];
  readonly tail: readonly BetEntry[];
  /**
   * What the full chunks add up to (bets placed, stakes per player), updated once per full chunk: the open
   * hand's row takes its players, bet count and stakes from it and the tail, without going over every bet.
   * (Logs stored before it existed get it when loaded, see `currentHand` in legacy.ts.)
   */
  readonly summary: BetSummary;
}

/** The bets and clears of a list of entries, added up. */
export interface BetSummary {
  /** Entries of kind 'bet'. */
  readonly bets: number;
  /**
   * Stakes per player in play after the entries (a clear takes back all of a player's stakes: the player is
   * left out until the next bet), as [playerId, stake] sorted by player id.
   */
  readonly stakes: readonly (readonly [string, number])[];
}

const EMPTY_SUMMARY: BetSummary = Object.freeze({ bets: 0, stakes: Object.freeze([]) });

export const EMPTY_LOG: BetLog = Object.freeze({
  chunks: Object.freeze([]),
  tail: Object.freeze([]),
  summary: EMPTY_SUMMARY,
});

export const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The stakes of `summary` with `entries` applied in order (a new map; the summary is not changed). */
function stakesAfter(summary: BetSummary, entries: readonly BetEntry[]): Map<string, number> {
  const stakes = new Map<string, number>(summary.stakes);
  for (const b of entries) {
    if (b.kind === 'bet') stakes.set(b.playerId, (stakes.get(b.playerId) ?? 0) + b.amount);
    else stakes.delete(b.playerId);
  }
  return stakes;
}

/** `summary` with `entries` added (once per full chunk). */
function summaryWith(summary: BetSummary, entries: readonly BetEntry[]): BetSummary {
  let bets = summary.bets;
  for (const b of entries) if (b.kind === 'bet') bets += 1;
  const stakes = [...stakesAfter(summary, entries)].sort(([a], [b]) => byId(a, b));
  return { bets, stakes };
}

/** The log with `bet` appended (the log given is not changed). */
export function appendBet(log: BetLog, bet: BetEntry): BetLog {
  if (log.tail.length + 1 < BET_CHUNK)
    return { chunks: log.chunks, tail: [...log.tail, bet], summary: log.summary };
  const chunk = [...log.tail, bet];
  return { chunks: [...log.chunks, chunk], tail: [], summary: summaryWith(log.summary, chunk) };
}

/** Full chunks and a tail as a log (its summary computed). */
export function betLogFrom(chunks: readonly (readonly BetEntry[])[], tail: readonly BetEntry[]): BetLog {
  let summary = EMPTY_SUMMARY;
  for (const c of chunks) summary = summaryWith(summary, c);
  return { chunks, tail, summary };
}

/** A flat list as a log (chunked as appending its entries one by one would). */
export function betLogOf(bets: readonly BetEntry[]): BetLog {
  const chunks: BetEntry[][] = [];
  const full = bets.length - (bets.length % BET_CHUNK);
  for (let i = 0; i < full; i += BET_CHUNK) chunks.push(bets.slice(i, i + BET_CHUNK));
  return betLogFrom(chunks, bets.slice(full));
}

/** The stakes in play (players with stakes, sorted) and the bets placed, from the summary and the tail. */
export function stakesOfLog(log: BetLog): { stakes: Map<string, number>; bets: number } {
  let bets = log.summary.bets;
  for (const b of log.tail) if (b.kind === 'bet') bets += 1;
  const stakes = new Map(
    [...stakesAfter(log.summary, log.tail)].filter(([, v]) => v > 0).sort(([a], [b]) => byId(a, b)),
  );
  return { stakes, bets };
}

/** Every entry of the log, in order (a new array). */
export function betsOfLog(log: BetLog): BetEntry[] {
  const out: BetEntry[] = [];
  for (const c of log.chunks) for (const b of c) out.push(b);
  for (const b of log.tail) out.push(b);
  return out;
}
