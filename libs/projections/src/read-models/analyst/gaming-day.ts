/**
 * Where an instant falls in the casino's day: its gaming day, shift and local hour, in the configured time zone.
 * Pure (no clock: the instant comes in; the zone's rules are the runtime's IANA data through `Intl`).
 *
 * A gaming day D starts at the first instant the local clock reads D at the cut-over time or later, and ends when
 * D + 1 starts: so a day across a DST change has 23 or 25 hours, a cut-over inside a skipped hour starts the day
 * when the clock jumps past it, and a cut-over inside a repeated hour starts it at its first occurrence. Shifts
 * and hours follow the local clock: the shift is the last one started by the local time of day (before the first
 * start of the day, the last shift, which runs past midnight), the hour the local hour (0 to 23).
 *
 * Folds place every fact, so the clock caches: the zone's offset per UTC hour, each gaming day's start, and the
 * last gaming day found (consecutive events mostly fall in it).
 */
import { type GamingDayConfig, type Shift, describeGamingDay, minutesOf } from './gaming-day-config';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const CACHE_LIMIT = 4_096;

/** Where an instant falls. */
export interface Placement {
  /** The gaming day, YYYY-MM-DD. */
  readonly gamingDay: string;
  readonly shift: string;
  /** The local hour, 0 to 23. */
  readonly hour: number;
  /** The instant, in milliseconds since the epoch. */
  readonly atMs: number;
}

/** A gaming day's span: UTC instants (ISO) of its start and end, and its length in hours. */
export interface GamingDayBounds {
  readonly startsAt: string;
  readonly endsAt: string;
  readonly hours: number;
}

/** An instant that does not parse. */
export class InvalidInstantError extends Error {
  readonly code = 'INVALID_INSTANT';
  constructor(readonly value: string) {
    super(`'${value}' is not an ISO-8601 instant`);
    this.name = 'InvalidInstantError';
  }
}

/** Milliseconds of an ISO instant (throws InvalidInstantError). */
export function instantMs(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new InvalidInstantError(iso);
  return ms;
}

/** YYYY-MM-DD of a day number (days since 1970-01-01). */
export function dayText(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

/** The day number of YYYY-MM-DD, or NaN. */
export function dayNumber(text: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00.000Z`) / DAY : Number.NaN;
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= CACHE_LIMIT) map.clear();
  map.set(key, value);
  return value;
}

export class GamingClock {
  private readonly format: Intl.DateTimeFormat | null;
  private readonly cutMs: number;
  private readonly shiftStarts: readonly { readonly ms: number; readonly name: string }[];
  /** The zone's offset over each UTC hour (NaN: it changes within the hour). */
  private readonly hourOffsets = new Map<number, number>();
  private readonly starts = new Map<number, number>();
  private last = { from: 0, to: -1, day: '' };

  constructor(readonly config: GamingDayConfig) {
    this.format =
      config.timeZone === 'UTC'
        ? null
        : new Intl.DateTimeFormat('en-US', {
            timeZone: config.timeZone,
            hourCycle: 'h23',
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
            second: 'numeric',
          });
    this.cutMs = minutesOf(config.cutover) * MINUTE;
    this.shiftStarts = config.shifts.map((s: Shift) => ({ ms: minutesOf(s.start) * MINUTE, name: s.name }));
  }

  /** The gaming day, shift and local hour of an ISO instant. */
  place(iso: string): Placement {
    const atMs = instantMs(iso);
    const wall = atMs + this.offset(atMs);
    const local = Math.floor(wall / DAY);
    const ofDay = wall - local * DAY;
    return {
      gamingDay: this.dayOfMs(atMs, local, ofDay),
      shift: this.shiftAt(ofDay),
      hour: Math.floor(ofDay / HOUR),
      atMs,
    };
  }

  gamingDayOf(iso: string): string {
    return this.place(iso).gamingDay;
  }

  shiftOf(iso: string): string {
    return this.place(iso).shift;
  }

  hourOf(iso: string): number {
    return this.place(iso).hour;
  }

  /** When the gaming day YYYY-MM-DD starts and ends (UTC), and its hours. */
  bounds(gamingDay: string): GamingDayBounds {
    const day = dayNumber(gamingDay);
    const from = this.startOf(day);
    const to = this.startOf(day + 1);
    return {
      startsAt: new Date(from).toISOString(),
      endsAt: new Date(to).toISOString(),
      hours: (to - from) / HOUR,
    };
  }

  /** The zone's offset at `ms` (local = UTC + offset), in ms. */
  offset(ms: number): number {
    if (this.format === null) return 0;
    const bucket = Math.floor(ms / HOUR);
    let o = this.hourOffsets.get(bucket);
    if (o === undefined) {
      const first = this.exactOffset(bucket * HOUR);
      o = bounded(
        this.hourOffsets,
        bucket,
        first === this.exactOffset(bucket * HOUR + HOUR - 1) ? first : NaN,
      );
    }
    return Number.isNaN(o) ? this.exactOffset(ms) : o;
  }

  private exactOffset(ms: number): number {
    const at = Math.floor(ms / SECOND) * SECOND;
    const f: Record<string, number> = {};
    for (const p of (this.format as Intl.DateTimeFormat).formatToParts(at)) {
      if (p.type !== 'literal') f[p.type] = Number(p.value);
    }
    const wall = Date.UTC(
      f['year'] ?? 0,
      (f['month'] ?? 1) - 1,
      f['day'],
      f['hour'],
      f['minute'],
      f['second'],
    );
    return wall - at;
  }

  private dayOfMs(atMs: number, local: number, ofDay: number): string {
    if (atMs >= this.last.from && atMs < this.last.to) return this.last.day;
    const day = ofDay >= this.cutMs || atMs >= this.startOf(local) ? local : local - 1;
    this.last = { from: this.startOf(day), to: this.startOf(day + 1), day: dayText(day) };
    return this.last.day;
  }

  private shiftAt(ofDay: number): string {
    const starts = this.shiftStarts;
    let name = (starts[starts.length - 1] as { name: string }).name;
    for (const s of starts) if (s.ms <= ofDay) name = s.name;
    return name;
  }

  /** The first instant the local clock reads `day` at the cut-over or later. */
  private startOf(day: number): number {
    const cached = this.starts.get(day);
    if (cached !== undefined) return cached;
    const naive = day * DAY + this.cutMs;
    const before = this.offset(naive - DAY);
    const after = this.offset(naive + DAY);
    const valid = [before, after].filter((o) => this.offset(naive - o) === o).map((o) => naive - o);
    const start = valid.length > 0 ? Math.min(...valid) : this.transition(naive - after, naive - before);
    return bounded(this.starts, day, start);
  }

  /** The instant in [lo, hi] where the offset changes from lo's (the clock jumps over a skipped time). */
  private transition(lo: number, hi: number): number {
    const from = this.offset(lo);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.offset(mid) === from) lo = mid;
      else hi = mid;
    }
    return hi;
  }
}

const clocks = new Map<string, GamingClock>();

/** The clock of a configuration (one per configuration, kept). */
export function clockOf(config: GamingDayConfig): GamingClock {
  const key = describeGamingDay(config);
  return clocks.get(key) ?? bounded(clocks, key, new GamingClock(config));
}

/** The gaming day (YYYY-MM-DD) of an ISO instant. */
export function gamingDayOf(iso: string, config: GamingDayConfig): string {
  return clockOf(config).gamingDayOf(iso);
}

/** The shift of an ISO instant. */
export function shiftOf(iso: string, config: GamingDayConfig): string {
  return clockOf(config).shiftOf(iso);
}

/** The local hour (0 to 23) of an ISO instant in the configured zone. */
export function hourOf(iso: string, config: GamingDayConfig): number {
  return clockOf(config).hourOf(iso);
}
