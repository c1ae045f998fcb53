/**
 * Two services, as two processes, on one store of an adapter (TWO_PROCESSES), with the read side off and a cheap
 * password hash: the staff commands' specs across processes. Test-only.
 */
import type { EventStore } from '@coup/event-store';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { startService, type Harness } from './harness';
import { TWO_PROCESSES } from './two-processes';

export const CHEAP_SCRYPT = { log2N: 10, r: 8, p: 1 };

export async function twoStaffServices(
  adapter: string,
  dir: string,
): Promise<{ a: Harness; b: Harness; store: EventStore }> {
  const [one, two] = TWO_PROCESSES[adapter]!(dir);
  const on = (s: EventStore) =>
    startService(
      { COUP_PROJECTIONS: 'off' },
      { scrypt: CHEAP_SCRYPT, store: new EventStoreHandle(s, 'memory') },
    );
  return { a: await on(one), b: await on(two), store: one };
}
