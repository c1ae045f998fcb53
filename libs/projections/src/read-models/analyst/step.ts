/**
 * One event's fold in the analysts' model: the next state and the writes, with the dimension rows every fact
 * brings along (its gaming day and the shifts, the staff member who recorded it).
 */
import type { Evolution, ProjectionEvent, Row, Write } from '../kernel/types';
import { type GamingClock, type Placement, dayNumber } from './gaming-day';
import { minutesOf } from './gaming-day-config';
import type { AnalystRules, FactStatus } from './rows';
import { AN_DAYS, AN_SHIFTS, AN_STAFF, type STAFF_COUNTERS } from './schema-dims';
import type { Sums } from './sums';

/** The round in play: opened, not settled yet (or just settled). */
export interface OpenRound {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly openedAt: string;
  readonly openedMs: number;
  readonly dealerId: string | null;
  readonly dealerRole: string | null;
}

/** The coup last settled, until the next round opens: what its correction or void rewrites. */
export interface SettledCoup extends OpenRound {
  /** When it settled (ISO): its facts keep this time, gaming day and shift whatever amends them. */
  readonly at: string;
  readonly status: FactStatus;
  readonly corrections: number;
  /** Its shoe's row once that shoe has ended (a void of the coup then takes it out of the shoe's coups). */
  readonly shoe?: Row;
}

export interface AnalystState {
  readonly position: number;
  readonly tableId: string;
  /** The rules of the table's last opening (null before it opens). */
  readonly rules: AnalystRules | null;
  readonly round: OpenRound | null;
  readonly settled: SettledCoup | null;
  /** The dealer who opened the last round: the table's dealer for its cash movements. */
  readonly dealerId: string | null;
  /** The row of the shoe in play (rewritten when it ends). */
  readonly shoe: Row | null;
  /** The last gaming day this table wrote the dimension row of. */
  readonly day: string | null;
  /** The summary tables' cells of the table's latest gaming days (sums.ts). */
  readonly sums: Sums;
}

/** Roles whose members the staff dimension counts. */
const STAFF_ROLES: ReadonlySet<string> = new Set(['admin', 'dealer', 'supervisor']);

export type StaffCounter = (typeof STAFF_COUNTERS)[number];

/** Who recorded the event: its `actor` metadata (`role:id`), else the data's `by` and `role`. */
export function actorOf(e: ProjectionEvent): { readonly id: string; readonly role: string } | null {
  if (e.actor !== null) {
    const colon = e.actor.indexOf(':');
    if (colon > 0) return { id: e.actor.slice(colon + 1), role: e.actor.slice(0, colon) };
  }
  const d = e.event.data as { by?: unknown; actorId?: unknown; role?: unknown };
  const id = typeof d.actorId === 'string' ? d.actorId : d.by;
  return typeof id === 'string' && typeof d.role === 'string' ? { id, role: d.role } : null;
}

/** The rows of a gaming day and of the shifts. */
function dayWrites(clock: GamingClock, gamingDay: string): Write[] {
  const b = clock.bounds(gamingDay);
  const { timeZone, cutover, shifts } = clock.config;
  const n = dayNumber(gamingDay);
  const day: Write = {
    kind: 'upsert',
    table: AN_DAYS,
    row: {
      gaming_day: gamingDay,
      starts_at: b.startsAt,
      ends_at: b.endsAt,
      hours: b.hours,
      weekday: ((((n + 3) % 7) + 7) % 7) + 1,
      month: gamingDay.slice(0, 7),
      time_zone: timeZone,
      cutover,
    },
  };
  const ordered = [...shifts].sort((a, c) => minutesOf(a.start) - minutesOf(c.start));
  return [
    day,
    ...ordered.map((s, i): Write => ({
      kind: 'upsert',
      table: AN_SHIFTS,
      row: {
        shift: s.name,
        ordinal: i + 1,
        starts: s.start,
        ends: (ordered[(i + 1) % ordered.length] ?? s).start,
        time_zone: timeZone,
      },
    })),
  ];
}

/** An event's fold in progress: the state so far and the writes. */
export class Step {
  readonly writes: Write[] = [];
  /** The state so far: the state folded from until something changes, then the event's own copy. */
  state: AnalystState;
  /** The event's copy of the state, changed in place (one copy per event instead of one per change). */
  private draft: { -readonly [K in keyof AnalystState]: AnalystState[K] } | null = null;

  constructor(
    private readonly before: AnalystState,
    readonly e: ProjectionEvent,
    private readonly clock: GamingClock,
  ) {
    this.state = before;
  }

  /** Whether the state changed. */
  get changed(): boolean {
    return this.draft !== null;
  }

  /** Where `at` falls; a gaming day new to this table brings its dimension rows. */
  place(at: string): Placement {
    const p = this.clock.place(at);
    if (p.gamingDay !== this.state.day) {
      this.writes.push(...dayWrites(this.clock, p.gamingDay));
      this.with({ day: p.gamingDay });
    }
    return p;
  }

  /** Where `at` falls, without dimension rows (a settled coup's own time: its day was written then). */
  placeOnly(at: string): Placement {
    return this.clock.place(at);
  }

  /** Counts what the event's recorder did, in the staff dimension (staff roles only). */
  staff(counter: StaffCounter, at: string): this {
    const who = actorOf(this.e);
    if (who === null || !STAFF_ROLES.has(who.role)) return this;
    // a literal (one object shape for every add; Object.fromEntries made each one a slow dictionary)
    const add: Record<StaffCounter, number> = {
      tables: 0,
      shoes_started: 0,
      rounds_opened: 0,
      amendments: 0,
      cash_movements: 0,
    };
    add[counter] = 1;
    this.writes.push({
      kind: 'add',
      table: AN_STAFF,
      row: { staff_id: who.id, role: who.role, first_at: at, first_table_id: this.state.tableId },
      add,
    });
    return this;
  }

  write(...writes: Write[]): this {
    this.writes.push(...writes);
    return this;
  }

  /** The state with `change` (keys as a spread of it would place them). */
  with(change: Partial<AnalystState>): this {
    if (this.draft === null) this.state = this.draft = { ...this.before };
    Object.assign(this.draft, change);
    return this;
  }

  /** The next state, stamped with the event's position, and the writes. */
  done(): Evolution<AnalystState> {
    this.with({ position: this.e.position });
    return { state: this.state, writes: this.writes };
  }
}
