/**
 * Old events fold to the old states: the history recorded by the code before side bets and game modes (commit
 * 927d27d; the fixture and how it was recorded are in libs/projections/test/pre-side-bets/), folded by the current
 * `evolve`, gives the state that code gave after every event (a digest of each state in canonical JSON, keys
 * sorted) and the same final state of every table. Fields the state gained since are left out of the digest:
 * the state version (2: `round.stakes` was added, checked apart: it must equal the stakes on the layout; 3:
 * `round.ownShoe` and `round.cashedOut`, a settled coup's correction window's, covered by the decider's tests).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type TableEvent, type TableState, evolve, initialState, stakedSpots } from '../src';

/**
 * The state as the code of 927d27d shaped it: version 1, no `round.stakes`, no `round.ownShoe` or
 * `round.cashedOut` (version 3: what a settled coup's correction checks, kept until the next betting).
 */
function asOld(state: TableState): unknown {
  if (state.round === null) return { ...state, version: 1 };
  const { stakes: _stakes, ownShoe: _ownShoe, cashedOut: _cashedOut, ...round } = state.round;
  return { ...state, version: 1, round };
}

/** The stakes on the layout, counted from the players (what `round.stakes` must hold while the round is open). */
function stakesOnLayout(state: TableState): number {
  const round = state.round;
  if (round === null) return 0;
  if (round.status !== 'betting' && round.status !== 'dealing') return round.stakes;
  return state.players.reduce((n, p) => n + (p.bets ? stakedSpots(p.bets).length : 0), 0);
}

const FIXTURE = join(__dirname, '..', '..', 'projections', 'test', 'pre-side-bets', 'pre-side-bets.json.gz');

interface Fixture {
  readonly commit: string;
  readonly events: { readonly type: string; readonly data: unknown; readonly streamName: string }[];
  readonly decider: Record<string, { final: TableState; digest: string; events: number }>;
}

/** JSON with every object's keys sorted (as the recorder wrote its digests). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const fixture = JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as Fixture;

const folded = new Map<string, { state: TableState; hash: ReturnType<typeof createHash>; n: number }>();
for (const e of fixture.events) {
  const t = e.streamName.slice('table-'.length);
  const s = folded.get(t) ?? { state: initialState, hash: createHash('sha256'), n: 0 };
  s.state = evolve(s.state, { type: e.type, data: e.data } as TableEvent);
  if ((s.state.round?.stakes ?? 0) !== stakesOnLayout(s.state)) {
    throw new Error(`${t} after event ${s.n}: round.stakes ${s.state.round?.stakes} is not the layout's`);
  }
  s.hash.update(canonical(asOld(s.state))).update('\n');
  s.n += 1;
  folded.set(t, s);
}
const digests = new Map([...folded].map(([t, s]) => [t, { ...s, digest: s.hash.digest('hex') }]));

describe('the decider on a history recorded before side bets (commit 927d27d)', () => {
  test('the fixture is that history: six tables', () => {
    expect(fixture.commit).toBe('927d27d');
    expect([...digests.keys()].sort()).toEqual(Object.keys(fixture.decider).sort());
  });

  test.each(Object.keys(fixture.decider))(
    'table %s: the same state after every event, and the same final state',
    (tableId) => {
      const old = fixture.decider[tableId]!;
      const now = digests.get(tableId)!;
      expect(now.n).toBe(old.events);
      expect(asOld(now.state)).toEqual(old.final);
      expect(now.digest).toBe(old.digest);
    },
  );
});
