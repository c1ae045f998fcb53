import type { CliIo } from './io';

/** A fake terminal for tests: collects what a command writes. */
export function fakeIo(isTTY = false): CliIo & { out(): string; err(): string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t) },
    isTTY,
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
