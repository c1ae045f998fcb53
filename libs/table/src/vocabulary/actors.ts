/**
 * Who acts: the roles, the actor and every command's envelope. Who may do what (each command's spec lists its
 * roles, and `decide` checks them):
 * - `admin`: OpenTable, CloseTable, BuyIn, CashOut, and bets on behalf of a player;
 * - `dealer`: StartShoe, OpenBetting, CloseBetting, Deal, DealCard, and bets on behalf of a player;
 * - `supervisor`: what a dealer may, plus VoidRound, CorrectCard, EndShoe;
 * - `player`: PlaceBet, ClearBets, Rebet for itself only (actor.id === playerId), and Deal on its own
 *   player-dealt table (seated players only);
 * - `compliance`, `analyst`: read-only (every command is FORBIDDEN).
 */
export type Role = 'admin' | 'dealer' | 'supervisor' | 'player' | 'compliance' | 'analyst';

/** Every role, for validation. */
export const ROLES: readonly Role[] = ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'];

/** Who sends a command. For a `player`, `id` is the player id it bets as. */
export interface Actor {
  readonly id: string;
  readonly role: Role;
}

/** Every command's envelope: who sent it, and when (an ISO-8601 instant stamped at the edge; events record it). */
export interface CommandMeta {
  readonly actor: Actor;
  readonly at: string;
}
