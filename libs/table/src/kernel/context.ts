/** What every command's decision gets: the state, the actor and the instant, checked. */
import type { TableState } from '../state';
import type { Actor, Role, TableRules } from '../vocabulary';

export interface Ctx {
  readonly state: TableState;
  readonly actor: Actor;
  readonly at: string;
  readonly atMs: number;
}

/** An open table's context. */
export interface OpenCtx extends Ctx {
  readonly rules: TableRules;
}

/** The `at`, `by`, `role` every event made by a person carries. */
export function by(ctx: Ctx): { at: string; by: string; role: Role } {
  return { at: ctx.at, by: ctx.actor.id, role: ctx.actor.role };
}

export function isoPlus(ms: number, seconds: number): string {
  return new Date(ms + seconds * 1000).toISOString();
}
