/** What the roads query answers. */
import type { BeadCell, BigRoadCell, DerivedCell } from './fold';

export interface RoadsView {
  readonly tableId: string;
  readonly shoeNo: number;
  readonly lastShoeNo: number;
  readonly day: string | null;
  readonly coups: number;
  readonly outcomes: string;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly beadPlate: BeadCell[];
  readonly bigRoad: BigRoadCell[];
  readonly leadingTies: number;
  readonly bigEyeBoy: DerivedCell[];
  readonly smallRoad: DerivedCell[];
  readonly cockroachPig: DerivedCell[];
  /** Every road of the table (shoe numbers), newest first. */
  readonly shoes: number[];
}
