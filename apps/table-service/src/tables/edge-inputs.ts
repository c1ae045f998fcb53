import { randomBytes } from 'node:crypto';

/** The time, read at the edge and passed into the decider with each command. Replaceable in tests. */
export class Clock {
  now(): string {
    return new Date().toISOString();
  }
}

/** Fresh 32-byte shuffle seeds from the operating system's CSPRNG, as 64 hex characters. */
export class SeedSource {
  next(): string {
    return randomBytes(32).toString('hex');
  }
}
