import { randomBytes } from 'node:crypto';

/** The time, read at the edge and passed into the decider with each command. Replaceable in tests. */
export class Clock {
  private lastMs = Number.NaN;
  private lastIso = '';

  /** The time as ISO-8601 UTC. The text is made once per millisecond: a busy table reads it for every bet. */
  now(): string {
    const ms = Date.now();
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastIso = new Date(ms).toISOString();
    }
    return this.lastIso;
  }
}

/** Fresh 32-byte shuffle seeds from the operating system's CSPRNG, as 64 hex characters. */
export class SeedSource {
  next(): string {
    return randomBytes(32).toString('hex');
  }
}
