/**
 * Given/when/then for read models: a real table (driven by @coup/table's decider) whose events are fed to one
 * projection in memory. `when` returns the event(s) just applied so the test can feed them again and check that
 * nothing changes (idempotence from the position).
 */
import type { Card } from '@coup/engine';
import type { Actor, TableEvent } from '@coup/table';
import {
  type AnyProjection,
  MemoryProjection,
  type PositionedState,
  type ProjectionEvent,
  type Row,
  type Write,
} from '../read-models';
import { type DriverOptions, TableDriver } from './driver';
import { Recorder } from './events';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPERVISOR: Actor = { id: 'super-1', role: 'supervisor' };

/** A supervisor's correction of card `index` of the coup of `roundNo` after it settled, with a reason. */
export const correctSettled =
  (index: number, card: string, reason: string, roundNo = 1) =>
  (d: TableDriver): TableEvent[] =>
    d.execute('CorrectCard', { roundNo, index, card, reason }, SUPERVISOR);

export class Scenario<S extends PositionedState = PositionedState> {
  /**
   * A live table (`dealing: 'live'` and `rules`) whose round 1 settled the coup `cards`: p1 on player and p2 on
   * banker, 1,000 each, both seated with 50,000. What a correction or void of the settled coup starts from.
   */
  static settledLive<S extends PositionedState>(
    model: AnyProjection,
    cards: readonly Card[],
    rules: Record<string, unknown> = {},
  ): Scenario<S> {
    const full = { dealing: 'live', ...rules };
    return new Scenario<S>(model, { players: 0, rules: full }).given((d) => [
      ...d.execute('OpenTable', { tableId: 'T1', rules: full }, ADMIN),
      ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
      ...d.execute('BuyIn', { playerId: 'p2', amount: 50_000 }, ADMIN),
      ...d.liveRound(cards, [
        { playerId: 'p1', spot: 'player', amount: 1_000 },
        { playerId: 'p2', spot: 'banker', amount: 1_000 },
      ]),
    ]);
  }

  readonly driver: TableDriver;
  readonly projection: MemoryProjection<S>;
  private readonly recorder = new Recorder();
  /** The events of the last `when`, as recorded. */
  last: ProjectionEvent[] = [];
  lastWrites: readonly Write[] = [];

  constructor(model: AnyProjection, options: Partial<DriverOptions> = {}) {
    this.driver = new TableDriver({ tableId: 'T1', players: 2, ...options });
    this.projection = new MemoryProjection<S>(model);
  }

  get tableId(): string {
    return this.driver.options.tableId;
  }

  /** Feeds table events (already decided) to the projection. */
  feed(events: readonly TableEvent[]): ProjectionEvent[] {
    const recorded = this.recorder.record(this.tableId, events);
    this.lastWrites = this.projection.apply(recorded);
    this.last = recorded;
    return recorded;
  }

  /** Given: events decided by running `f` against the driver, applied. */
  given(f: (d: TableDriver) => TableEvent[]): this {
    this.feed(f(this.driver));
    return this;
  }

  /** When: like given, returning the recorded events. */
  when(f: (d: TableDriver) => TableEvent[]): ProjectionEvent[] {
    return this.feed(f(this.driver));
  }

  /** Feeds the last `when` events again: returns the writes (expected none) and whether the tables changed. */
  again(): { writes: readonly Write[]; changed: boolean; stateChanged: boolean } {
    const before = JSON.stringify(this.projection.db.dump());
    const states = new Map(this.projection.states);
    const writes = this.projection.apply(this.last);
    const stateChanged = [...this.projection.states].some(([k, v]) => states.get(k) !== v);
    return { writes, changed: JSON.stringify(this.projection.db.dump()) !== before, stateChanged };
  }

  rows(table: string): Row[] {
    return this.projection.db.rows(table);
  }

  row(table: string, match: Record<string, string | number | null>): Row | undefined {
    return this.rows(table).find((r) => Object.entries(match).every(([k, v]) => r[k] === v));
  }

  state(): S {
    const s = this.projection.state(this.tableId);
    if (s === undefined) throw new Error(`no state for table ${this.tableId} yet`);
    return s;
  }
}
