/** The process helper of the process-level specs: a service that never becomes healthy is not left running. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnService } from './process';

jest.setTimeout(30_000);

it('spawnService kills a service that is not healthy in time before it throws', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coup-unhealthy-'));
  try {
    // An EventStoreDB nobody serves: the service runs, and /health answers 503 for as long as it does.
    const nobody = `esdb://127.0.0.1:${await freePort()}?tls=false`;
    const error = (await spawnService(
      dir,
      { COUP_EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: nobody, COUP_PROJECTIONS: 'off' },
      { healthyWithinMs: 1_500 },
    ).catch((e: unknown) => e)) as Error & { pid?: number };
    expect(error.message).toMatch(/did not become healthy/);
    expect(typeof error.pid).toBe('number');
    // Signal 0 checks that the process exists: ESRCH, it does not.
    expect(() => process.kill(error.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
