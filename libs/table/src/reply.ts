/**
 * `replyFor`: the API's answer to a command, computed by its spec from the events just decided (they carry
 * everything an answer needs, so the answer is the same whenever it is recomputed, e.g. for an idempotent retry).
 * Each command's answer is its spec's `reply` (capabilities/<capability>/<command>.ts).
 */
import { COMMAND_SPECS, type TableCommand, type TableCommandType } from './commands';
import type { TableState } from './state';
import type { TableEvent } from './vocabulary';

export type { CoupReply } from './kernel';

/**
 * The API answer for `command`, from the `events` decide returned for it (undefined for an unknown command type);
 * `CommandReply<T>` is its type for a command of type `T`.
 * @param _state unused: every answer comes from the events (kept for the contract's signature).
 */
export function replyFor(command: TableCommand, events: readonly TableEvent[], _state?: TableState): unknown {
  const type: unknown = command.type;
  if (typeof type !== 'string' || !Object.hasOwn(COMMAND_SPECS, type)) return undefined;
  return COMMAND_SPECS[type as TableCommandType].reply(events);
}
