/**
 * The processes a benchmark starts, killed when the benchmark's process exits for any reason (an error in the
 * middle of a run included), so a failed run leaves no service or load process behind.
 */
import type { ChildProcess } from 'node:child_process';

const started = new Set<ChildProcess>();
let hooked = false;

/** Registers a child to be killed at exit; returns it. */
export function track<C extends ChildProcess>(child: C): C {
  started.add(child);
  child.once('exit', () => started.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });
  }
  return child;
}
