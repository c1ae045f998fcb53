/** `decide(command, state)`: the kernel's decide over every command's spec (see kernel/decide.ts for the order). */
import { COMMAND_SPECS, type TableCommand } from './commands';
import { type Decision, decider } from './kernel';
import type { TableState } from './state';

export type { Decision };

const decideAny = decider(COMMAND_SPECS);

/**
 * Decides a command against the state: the events to record, or a typed error (and nothing recorded).
 * Pure; never throws for bad input (the command may come straight from the wire).
 */
export function decide(command: TableCommand, state: TableState): Decision {
  return decideAny(command, state);
}
