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
export function fromLive(shoeNo: number | null, coups: readonly RoadEntry[]): RoadsData {
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

/**
 * The service's roads unless the console has seen more coups of this shoe than they hold (the read side lags).
 * (On every-coup tables the service's road holds the day's coups, the live one a single shuffle's.)
 */
export function chooseRoads(service: RoadsData | null, live: RoadsData): RoadsData {
  if (service === null) return live;
  return live.coups > service.coups ? live : service;
}
