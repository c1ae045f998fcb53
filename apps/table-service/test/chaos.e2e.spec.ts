/**
 * The chaos test of issue 14, shortened for CI: two service processes on one SQLite store, 50 players betting with
 * Idempotency-Keys and retrying through either process, an admin, a dealer, 20 WebSocket watchers resuming with
 * `fromRevision`, kill -9 of a process every few seconds with a restart, one SIGSTOP; then every invariant of
 * docs/reliability.md from the raw events (tools/chaos/scenario.ts, shared with `npm run chaos`).
 * Runs the built service (`npm run build` first). CHAOS_SECONDS (default 60) and CHAOS_SEED (default 14) change
 * the run; COUP_SERVICE_MAIN runs another build.
 */
import { DEFAULT_CHAOS, runChaos } from './chaos/scenario';
import { SECRET } from './harness';
import { MAIN } from './process';

const SECONDS = Number(process.env['CHAOS_SECONDS'] ?? DEFAULT_CHAOS.seconds);
const SEED = Number(process.env['CHAOS_SEED'] ?? DEFAULT_CHAOS.seed);

// The load, then the checks (read-side catch-up, watchers, shutdown, a rebuild: each bounded).
jest.setTimeout(SECONDS * 1000 + 300_000);

it(`${SECONDS} s of kill -9, SIGSTOP, retries and resumes over two processes: every invariant holds`, async () => {
  const summary = await runChaos({
    ...DEFAULT_CHAOS,
    seconds: SECONDS,
    seed: SEED,
    main: MAIN,
    secret: SECRET,
  });
  expect(summary.violations).toEqual({});
});
