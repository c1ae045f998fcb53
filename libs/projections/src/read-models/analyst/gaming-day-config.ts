/**
 * The casino's gaming day and shifts, as configured: a cut-over time in an IANA time zone (`06:00
 * Europe/London`: a gaming day runs from 06:00 local time to 06:00 the next day) and named shifts starting at
 * local times of day (`day=06:00,swing=14:00,grave=22:00`). Parsed and checked here, once for the service, the
 * CLI and the tests; the clock that places instants is in gaming-day.ts.
 */

/** A shift: its name and the local time of day it starts (HH:MM); it ends when the next one starts. */
export interface Shift {
  readonly name: string;
  readonly start: string;
}

export interface GamingDayConfig {
  /** The IANA time zone, canonical (`Europe/London`, `UTC`). */
  readonly timeZone: string;
  /** The local time of day a gaming day starts, HH:MM. */
  readonly cutover: string;
  /** The shifts, in order of their start time. */
  readonly shifts: readonly Shift[];
}

/** `COUP_GAMING_DAY`'s default. */
export const DEFAULT_GAMING_DAY = '06:00 UTC';
/** `COUP_SHIFTS`'s default. */
export const DEFAULT_SHIFTS = 'day=06:00,swing=14:00,grave=22:00';

/** A gaming-day or shift setting that makes no sense; `field` names the setting. */
export class GamingDayConfigError extends Error {
  readonly code = 'INVALID_GAMING_DAY_CONFIG';
  constructor(
    readonly field: 'gamingDay' | 'shifts',
    message: string,
  ) {
    super(message);
    this.name = 'GamingDayConfigError';
  }
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const SHIFT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** Minutes after midnight of an HH:MM time. */
export function minutesOf(time: string): number {
  const m = TIME.exec(time);
  return m === null ? Number.NaN : Number(m[1]) * 60 + Number(m[2]);
}

/** The zone's canonical name, or null when the runtime does not know it. */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** `HH:MM <IANA zone>`, e.g. `06:00 Europe/London`. */
export function parseGamingDay(text: string): { readonly cutover: string; readonly timeZone: string } {
  const parts = text.trim().split(/\s+/);
  const [cutover = '', zone = ''] = parts;
  if (parts.length !== 2 || !TIME.test(cutover)) {
    throw new GamingDayConfigError(
      'gamingDay',
      `the gaming day must be a cut-over time and an IANA time zone, e.g. '06:00 Europe/London', not '${text}'`,
    );
  }
  const timeZone = canonicalTimeZone(zone);
  if (timeZone === null) {
    throw new GamingDayConfigError(
      'gamingDay',
      `unknown time zone '${zone}': use an IANA name such as Europe/London, America/Las_Vegas, Asia/Macau or UTC`,
    );
  }
  return { cutover, timeZone };
}

/** `name=HH:MM,...`: at least one shift, names and start times distinct; sorted by start time. */
export function parseShifts(text: string): Shift[] {
  const shifts: Shift[] = [];
  for (const item of text.split(',')) {
    const [name = '', start = '', extra] = item.trim().split('=');
    if (!SHIFT_NAME.test(name) || !TIME.test(start) || extra !== undefined) {
      throw new GamingDayConfigError(
        'shifts',
        `shifts must be name=HH:MM separated by commas (a name: a letter, then up to 31 letters, digits, _ or -), e.g. '${DEFAULT_SHIFTS}'; '${item}' is not`,
      );
    }
    if (shifts.some((s) => s.name === name || s.start === start)) {
      throw new GamingDayConfigError(
        'shifts',
        `shift '${name}=${start}' repeats a name or a start time: each shift has its own`,
      );
    }
    shifts.push({ name, start });
  }
  return shifts.sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
}

/** The configuration from its two settings (each its default when absent or empty). */
export function gamingDayConfig(settings: { gamingDay?: string; shifts?: string } = {}): GamingDayConfig {
  const day = parseGamingDay(settings.gamingDay || DEFAULT_GAMING_DAY);
  return { ...day, shifts: parseShifts(settings.shifts || DEFAULT_SHIFTS) };
}

/** The configuration as one line, e.g. `06:00 UTC; shifts day=06:00,swing=14:00,grave=22:00`. */
export function describeGamingDay(config: GamingDayConfig): string {
  return `${config.cutover} ${config.timeZone}; shifts ${config.shifts.map((s) => `${s.name}=${s.start}`).join(',')}`;
}

/**
 * A 24-bit digest (FNV-1a, folded) of the configuration: a read model folded with one configuration is
 * rebuilt when it changes (see the analyst projection's version).
 */
export function gamingDayDigest(config: GamingDayConfig): number {
  let h = 0x811c9dc5;
  for (const ch of describeGamingDay(config)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ((h >>> 24) ^ h) & 0xffffff;
}
