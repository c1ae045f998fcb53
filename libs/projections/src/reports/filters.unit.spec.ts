import { GamingClock, gamingDayConfig } from '../read-models/analyst';
import { reportWhere } from './filters';

/** The gaming days reportWhere bounds an instant's facts to (since the instant, until just after it). */
function bounds(ms: number): [string, string] {
  const w = reportWhere(
    { since: new Date(ms).toISOString(), until: new Date(ms + 1).toISOString() },
    { player: false },
  );
  const at = (cond: string) => w.params[w.sql.indexOf(cond)] as string;
  return [at('gaming_day >= ?'), at('gaming_day <= ?')];
}

test.each([
  '23:59 Etc/GMT+12',
  '00:00 Etc/GMT+12',
  '23:59 Pacific/Kiritimati',
  '00:01 Pacific/Kiritimati',
  '06:00 UTC',
])('instants bound the gaming days too, and every fact of them is in those days: %s', (gamingDay) => {
  const clock = new GamingClock(gamingDayConfig({ gamingDay }));
  const start = Date.parse('2026-03-27T00:00:00.000Z');
  for (let ms = start; ms < start + 4 * 86_400_000; ms += 7 * 60_000) {
    const [from, to] = bounds(ms);
    const day = clock.place(new Date(ms).toISOString()).gamingDay;
    expect({ at: new Date(ms).toISOString(), inBounds: from <= day && day <= to }).toEqual({
      at: new Date(ms).toISOString(),
      inBounds: true,
    });
  }
});
