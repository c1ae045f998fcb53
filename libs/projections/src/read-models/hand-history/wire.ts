/** What the hand history's queries answer (JSON over the API): browser-safe types, no code. */
import type { Card, Role, Slot, Spot, SpotAmounts } from '@coup/table';

/** A bet placed (or cleared) in a hand, with who and when. */
export interface BetEntry {
  readonly kind: 'bet' | 'clear';
  readonly playerId: string;
  /** bet: the spot; clear: null (all the player's stakes). */
  readonly spot: Spot | null;
  /** bet: the amount; clear: the total returned. */
  readonly amount: number;
  /** clear: the stakes taken back per spot. */
  readonly cleared: SpotAmounts | null;
  readonly rebet: boolean;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
}

/** A card of the hand in dealing order, with who entered it. */
export interface CardEntry {
  readonly index: number;
  readonly card: Card;
  readonly to: 'player' | 'banker';
  readonly slot: Slot;
  /** 0-based position of the card in the shoe. */
  readonly shoePosition: number;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
  /** When corrected: the card first entered. */
  readonly correctedFrom: Card | null;
}

export interface CorrectionEntry {
  readonly index: number;
  readonly oldCard: Card;
  readonly newCard: Card;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
}
