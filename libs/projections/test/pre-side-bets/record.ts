/**
 * Records `pre-side-bets.json.gz` with the code of commit 927d27d (before side bets and game modes). Not a spec:
 * run it by hand in a worktree of that commit, never against the current code:
 *
 *   git worktree add /tmp/coup-old 927d27d && ln -s /work/main/node_modules /tmp/coup-old/node_modules
 *   mkdir -p /tmp/coup-old/libs/projections/test/pre-side-bets
 *   cp libs/projections/test/pre-side-bets/{history,record}.ts /tmp/coup-old/libs/projections/test/pre-side-bets/
 *   cd /tmp/coup-old/libs/projections && npx jest --testMatch '**\/pre-side-bets/record.ts'
 *   cp test/pre-side-bets/pre-side-bets.json.gz /work/main/libs/projections/test/pre-side-bets/
 *
 * (jest maps `@coup/*` to the worktree's own sources.) The decider's states are recorded too: the final state of
 * each table and a digest of its state after every event, in canonical JSON (keys sorted), which
 * libs/table/test/pre-side-bets.unit.spec.ts compares with the current decider's.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { type TableEvent, type TableState, evolve, initialState } from '@coup/table';
import { FIXTURE, eventsToJson, readSideOf, recordHistory } from './history';

/** JSON with every object's keys sorted. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

test('records the history and what the read models and the decider made of it', async () => {
  const events = recordHistory();
  const decider: Record<string, { final: TableState; digest: string; events: number }> = {};
  const states = new Map<string, { state: TableState; hash: ReturnType<typeof createHash>; n: number }>();
  for (const e of events) {
    const t = e.streamName.slice('table-'.length);
    const s = states.get(t) ?? { state: initialState, hash: createHash('sha256'), n: 0 };
    s.state = evolve(s.state, { type: e.type, data: e.data } as unknown as TableEvent);
    s.hash.update(canonical(s.state)).update('\n');
    s.n += 1;
    states.set(t, s);
  }
  for (const [t, s] of states) decider[t] = { final: s.state, digest: s.hash.digest('hex'), events: s.n };
  const fixture = { commit: '927d27d', events: eventsToJson(events), ...(await readSideOf(events)), decider };
  writeFileSync(FIXTURE, gzipSync(JSON.stringify(fixture), { level: 9 }));
});
