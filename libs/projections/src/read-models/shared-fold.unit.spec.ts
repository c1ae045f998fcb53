import type { Actor, TableEvent } from '@coup/table';
import { TableDriver } from '../testing/driver';
import { Recorder } from '../testing/events';
import { PROJECTIONS } from '.';
import { handHistoryProjection } from './hand-history';
import { tableAfter } from './kernel/table-fold';
import { tableViewProjection } from './table-view/fold';
import type { AnyProjection, PositionedState, ProjectionEvent } from './kernel/types';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

/**
 * Two tables (rng with voids and clears; live, box commission, corrections; corrections and voids of settled
 * coups), a cash-out and a close.
 */
function history(): ProjectionEvent[] {
  const recorder = new Recorder();
  const out: ProjectionEvent[] = [];
  const rng = new TableDriver({ tableId: 'R1', players: 3, voidRate: 0.1, settledVoidRate: 0.1, seed: 7 });
  const live = new TableDriver({
    tableId: 'L1',
    players: 2,
    rules: { dealing: 'live', commission: 'box' },
    correctionRate: 0.3,
    voidRate: 0.1,
    settledCorrectionRate: 0.3,
    settledVoidRate: 0.1,
    seed: 8,
  });
  const add = (d: TableDriver, events: TableEvent[]) =>
    out.push(...recorder.record(d.options.tableId, events));
  add(rng, rng.open());
  add(live, live.open());
  for (let i = 0; i < 25; i++) {
    add(rng, rng.playRound());
    add(live, live.playRound());
  }
  add(rng, rng.execute('EndShoe', {}, SUPER));
  for (const { playerId } of live.state.players) add(live, live.execute('CashOut', { playerId }, ADMIN));
  add(live, live.execute('CloseTable', { cashOutAll: true }, ADMIN));
  return out;
}

describe('the runner may skip event types a projection does not handle', () => {
  const events = history();
  const types = new Set(events.map((e) => e.event.type));

  test('the history has every kind of event the lists are about', () => {
    for (const t of [
      'BetsCleared',
      'CardCorrected',
      'RoundVoided',
      'SettledCoupCorrected',
      'SettledCoupVoided',
      'ShoeEnded',
      'PlayerCashedOut',
      'TableClosed',
    ])
      expect(types).toContain(t);
  });

  for (const p of PROJECTIONS.filter(
    (x): x is AnyProjection & { handles: ReadonlySet<string> } => !!x.handles,
  )) {
    test(`${p.name}: every event of a type not in its list leaves the state as it is, with no writes`, () => {
      const states = new Map<string, PositionedState>();
      let skipped = 0;
      for (const e of events) {
        const key = p.keyOf(e);
        if (key === null) continue;
        const before = states.get(key) ?? (p.initial(key) as PositionedState);
        const { state, writes } = p.evolve(before, e);
        if (!p.handles.has(e.event.type)) {
          skipped += 1;
          expect({ type: e.event.type, same: state === before, writes }).toEqual({
            type: e.event.type,
            same: true,
            writes: [],
          });
        }
        states.set(key, state as PositionedState);
      }
      expect(skipped).toBeGreaterThan(0);
    });
  }
});

describe('the table state folded once for the table view and the hand history', () => {
  test('the same event from the same state gives the very same state; from an equal copy, an equal one', () => {
    const events = history();
    let shared = tableViewProjection.initial('R1').table;
    let own = JSON.parse(JSON.stringify(shared)) as typeof shared;
    for (const e of events.filter((x) => x.tableId === 'R1')) {
      const first = tableAfter(shared, e);
      expect(tableAfter(shared, e)).toBe(first);
      const copy = tableAfter(own, e);
      expect(copy).not.toBe(first);
      expect(copy).toEqual(first);
      shared = first;
      own = copy;
    }
  });

  test('folding the two projections over shared events equals folding each over its own copies', () => {
    const events = history();
    const copies = JSON.parse(JSON.stringify(events)) as ProjectionEvent[];
    for (const p of [tableViewProjection, handHistoryProjection] as AnyProjection[]) {
      const fold = (es: readonly ProjectionEvent[]) => {
        const states = new Map<string, unknown>();
        const writes: unknown[] = [];
        for (const e of es) {
          const key = p.keyOf(e)!;
          const out = p.evolve(states.get(key) ?? p.initial(key), e);
          states.set(key, out.state);
          writes.push(...out.writes);
        }
        return { states: [...states], writes };
      };
      expect(fold(events)).toEqual(fold(copies));
    }
  });
});
