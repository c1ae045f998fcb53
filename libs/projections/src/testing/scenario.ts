/**
 * Given/when/then for read models: a real table (driven by @coup/table's decider) whose events are fed to one
 * projection in memory. `when` returns the event(s) just applied so the test can feed them again and check that
 * nothing changes (idempotence from the position).
 */
import type { TableEvent } from '@coup/table';
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

export class Scenario<S extends PositionedState = PositionedState> {
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
