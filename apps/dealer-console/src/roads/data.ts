/**
 * The roads as drawn: from the service's read model (`GET /api/tables/:id/roads?shoe=`, which survives a reload),
 * or, until it has caught up, from the coups this console saw resolve live.
 */
import type { Outcome } from '@coup/engine';
import type { RoadsView } from '@coup/projections/wire';
import type { RoadEntry } from '../feed';
import { type DerivedCell, beadPlate, bigRoad, derivedRoads } from './roads';

export interface RoadsData {
  readonly source: 'service' | 'live';
  readonly shoeNo: number | null;
  readonly coups: number;
  readonly beadPlate: readonly {
    readonly col: number;
    readonly row: number;
    readonly outcome: Outcome;
    readonly natural: boolean;
    readonly roundNo: number;
  }[];
  readonly bigRoad: readonly {
    readonly col: number;
    readonly row: number;
    readonly outcome: 'player' | 'banker';
    readonly ties: number;
  }[];
  readonly leadingTies: number;
  readonly bigEyeBoy: readonly DerivedCell[];
  readonly smallRoad: readonly DerivedCell[];
  readonly cockroachPig: readonly DerivedCell[];
}

/** The service's `RoadsView`: the fields the console draws. */
export type ServiceRoads = Pick<
  RoadsView,
  'shoeNo' | 'coups' | 'beadPlate' | 'bigRoad' | 'leadingTies' | 'bigEyeBoy' | 'smallRoad' | 'cockroachPig'
>;

export function fromService(r: ServiceRoads): RoadsData {
  return {
    source: 'service',
    shoeNo: r.shoeNo,
    coups: r.coups,
    beadPlate: r.beadPlate,
    bigRoad: r.bigRoad,
    leadingTies: r.leadingTies,
    bigEyeBoy: r.bigEyeBoy,
    smallRoad: r.smallRoad,
    cockroachPig: r.cockroachPig,
  };
}

/** The roads of the coups seen live (leading ties shown apart, like the service's). */
export function fromLive<C extends Coup>(shoeNo: number | null, coups: readonly C[]): RoadsData {
  const outcomes = coups.map((c) => c.outcome);
  let leadingTies = 0;
  while (outcomes[leadingTies] === 'tie') leadingTies += 1;
  const big = bigRoad(outcomes).map((c, i) => (i === 0 ? { ...c, ties: c.ties - leadingTies } : c));
  return {
    source: 'live',
    shoeNo,
    coups: coups.length,
    beadPlate: beadPlate(coups),
    bigRoad: big,
    leadingTies,
    ...derivedRoads(outcomes),
  };
}

/** What the console saw of the current shoe's road, live: the coups as last corrected, and those voided. */
export interface LiveRoad {
  readonly coups: readonly RoadEntry[];
  /** Rounds voided after they settled. */
  readonly voided: readonly number[];
}

type Coup = Pick<RoadEntry, 'roundNo' | 'outcome' | 'natural'>;

/**
 * The roads drawn: the read model's coups with what the console saw live laid over them, round by round. The events
 * seen live are never older than the read model (it folds the same events, later), so a coup seen resolved or
 * corrected is drawn as seen, one seen voided is left out, and the read model gives the coups from before the
 * console subscribed. When that changes nothing the service's roads are drawn as they are; else the roads of the
 * merged coups, by the same rules. (On every-coup tables the service's road holds the day's coups, the live one a
 * single shuffle's: round numbers tell them apart all the same.)
 */
export function chooseRoads(service: RoadsData | null, shoeNo: number | null, live: LiveRoad): RoadsData {
  if (service === null) return fromLive(shoeNo, live.coups);
  const voided = new Set(live.voided);
  const byRound = new Map<number, Coup>();
  for (const b of service.beadPlate) if (!voided.has(b.roundNo)) byRound.set(b.roundNo, b);
  for (const c of live.coups) byRound.set(c.roundNo, c);
  const merged = [...byRound.values()].sort((a, b) => a.roundNo - b.roundNo);
  const same =
    merged.length === service.beadPlate.length &&
    merged.every((c, i) => {
      const b = service.beadPlate[i];
      return b?.roundNo === c.roundNo && b.outcome === c.outcome && b.natural === c.natural;
    });
  return same ? service : fromLive(shoeNo, merged);
}
