import type { CliIo } from './io';

/**
 * One `coup` command. To add a command, write a module in `src/commands/` exporting one of these, and list it
 * in `src/commands/index.ts`.
 */
export interface Command {
  /** The word after `coup`, e.g. `odds`. */
  readonly name: string;
  /** One line for `coup help`. */
  readonly summary: string;
  /** The full usage text for `coup help <name>`: a synopsis line, then the options. */
  readonly usage: string;
  /**
   * Runs the command with the arguments after its name and returns the exit code (`EXIT`: 0 success, 1 failure,
   * 2 bad arguments, 3 not folded yet). Throw a {@link UsageError} (or an engine error for bad input) for a bad
   * invocation.
   */
  run(args: readonly string[], io: CliIo): number | Promise<number>;
}
