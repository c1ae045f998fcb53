/**
 * Wall-clock times in the casino's time zone as instants: what a compliance officer types ("2026-12-01 06:00")
 * is the casino's local time, and the API filters on ISO instants.
 */

/** The zone's offset from UTC at `instant`, in ms (positive east of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - (instant - (instant % 1000));
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The first instant at which the clock of `timeZone` reads `wall` (a local time as if UTC, in ms) or later: the
 * wall time itself, its first occurrence when the clocks go back, the moment the clocks jump past it when they
 * go forward (the service places gaming days so too).
 */
function firstInstantAt(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const valid = [wall - before, wall - after].filter((t) => offsetAt(t, timeZone) === wall - t);
  if (valid.length > 0) return Math.min(...valid);
  // Skipped: the change lies between the two readings; find the minute it happens.
  let lo = wall - after;
  let hi = wall - before;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetAt(mid, timeZone) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * `YYYY-MM-DDTHH:mm[:ss]` read in `timeZone` (IANA; none: the browser's own) as an ISO instant (see
 * {@link firstInstantAt}), or null when it is not such a time.
 */
export function zonedToIso(local: string, timeZone?: string): string | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  if (timeZone === undefined) return new Date(y, mo - 1, d, h, mi, s).toISOString();
  return new Date(firstInstantAt(wall, timeZone)).toISOString();
}
