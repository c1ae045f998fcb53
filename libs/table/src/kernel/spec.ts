/**
 * A command's spec: everything the kernel needs to run it, in one object per command (capabilities/<capability>/
 * <command>.ts). `decide` runs the checks in one order for every command: the envelope (the data's fields are
 * `fields`), the table exists, `roles`, `personal`, `actsForPlayer`, `closedTable`, `authorize`, `parse`,
 * `decide`. `reply` shapes the API's answer from the events.
 */
import type { CommandMeta, Role, TableEvent } from '../vocabulary';
import type { OpenCtx } from './context';
import type { Data } from './fields';
import type { PersonalRule } from './personal-table';
import type { Refusal, Verdict } from './refusal';

/** Builds a command type: `{ type, data, meta }`. */
export type Command<T extends string, D> = {
  readonly type: T;
  readonly data: D;
  readonly meta: CommandMeta;
};

export interface CommandSpec<T extends string, D, R> {
  readonly type: T;
  /** Who may send it (a player further limited by `actsForPlayer` and the personal-table rule). */
  readonly roles: readonly Role[];
  /** The data fields it accepts (any other is refused INVALID_COMMAND). */
  readonly fields: readonly string[];
  /** The fields that carry shuffle seeds (the service seals them at rest and never logs them). */
  readonly seeds: readonly string[];
  /** A player may send it only for its own `playerId`. */
  readonly actsForPlayer: boolean;
  /** A closed table still takes it (CashOut). */
  readonly closedTable: boolean;
  /** Its rule on a player's personal online table. */
  readonly personal: PersonalRule;
  /** OpenTable: the command that makes the table (decided before there is one). */
  readonly opensTable?: true;
  /** A role rule that needs the table's rules, checked before the data is parsed (Deal: players deal their own). */
  authorize?(ctx: OpenCtx): Refusal | null;
  /** The data, read by its own fields, to the typed command data (or the first field's refusal). */
  parse(data: Data): D | Refusal;
  /** The events, or why not. `ctx` is an open table's, except for `opensTable` (its decide takes a Ctx). */
  decide(command: D, ctx: OpenCtx): Verdict;
  /** The API's answer, from the events just decided (the same whenever it is recomputed). */
  reply(events: readonly TableEvent[]): R | undefined;
}

/** Any command's spec, as the kernel holds them. */
export type AnySpec = CommandSpec<string, unknown, unknown>;
