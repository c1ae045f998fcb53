/**
 * A player's personal online table (`online-<playerId>`, ADR-10) is that player's alone: bets, clears, rebets and
 * deals come from the player itself (no dealer acts for it there), only the player is bought in, and shoes and
 * betting are run by the online croupier. The casino's other powers stay: closing, cashing out, voiding, ending
 * a shoe. Each command's spec says which of these rules is its own (`personal`).
 */
import { ONLINE_CROUPIER, personalTableOwner } from '../vocabulary';
import type { Ctx } from './context';
import type { Data } from './fields';
import { type Refusal, refuse } from './refusal';

/** `owner`: only the table's player sends it; `croupier`: only the online croupier; `seat`: seats only the player. */
export type PersonalRule = 'owner' | 'croupier' | 'seat' | null;

export function personalTable(rule: PersonalRule, ctx: Ctx, data: Data): Refusal | null {
  const owner = personalTableOwner(ctx.state.tableId);
  if (owner === null || rule === null) return null;
  const { actor } = ctx;
  const tableId = ctx.state.tableId;
  if (rule === 'owner' && (actor.role !== 'player' || actor.id !== owner)) {
    return refuse(
      'PERSONAL_TABLE',
      `${tableId} is ${owner}'s own table: only ${owner} bets and deals there`,
      {
        tableId,
        owner,
        actor: actor.id,
      },
    );
  }
  if (rule === 'croupier' && actor.id !== ONLINE_CROUPIER) {
    return refuse('PERSONAL_TABLE', `${tableId} is ${owner}'s own table: the online game runs its coups`, {
      tableId,
      owner,
      actor: actor.id,
    });
  }
  const playerId = data['playerId'];
  if (rule === 'seat' && typeof playerId === 'string' && playerId !== owner) {
    return refuse(
      'PERSONAL_TABLE',
      `${tableId} is ${owner}'s own table: ${playerId} cannot be seated there`,
      {
        tableId,
        owner,
        playerId,
      },
    );
  }
  return null;
}
