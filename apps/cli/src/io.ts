/** Where a command writes: injected, so commands can be run and tested without a process. */

/** Something text can be written to (`process.stdout` is one). */
export interface Writer {
  write(text: string): unknown;
}

/** The command's input and output. */
export interface CliIo {
  /** Results: what a script would read. */
  readonly stdout: Writer;
  /** Errors, warnings and progress. */
  readonly stderr: Writer;
  /** True when stderr is a terminal (progress bars are drawn only then). */
  readonly isTTY: boolean;
}

/** A bad invocation: the message is shown with a pointer to the command's usage, and the exit code is 2. */
export class UsageError extends Error {
  /**
   * @param message what was wrong, naming the bad argument
   * @param command the command whose usage to point at, if known
   */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Exit codes: success, a failure while running, a bad invocation, and (`replay`, `verify`) what was asked is in the
 * store but not folded into the read models yet: retry once the projection process has folded it.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFoldedYet: 3 } as const;
