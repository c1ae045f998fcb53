/**
 * The hand history by gaming day (`?gamingDay=YYYY-MM-DD`, the compliance search): the day's bounds come from
 * COUP_GAMING_DAY, set here to a cut-over two hours from now (so the test's coup lies well inside today's gaming
 * day, which began 22 hours ago), in a zone east of UTC so its local date is not the UTC one.
 */
import { type Harness, startService } from './harness';

jest.setTimeout(60_000);

const T = 'GD1';
let h: Harness;
/** The gaming day the coup falls in, its UTC bounds, and the cut-over's wall time in the zone. */
let day: string;
let startsAt: string;
let endsAt: string;

const HOUR = 3_600_000;
/** UTC+05:45 all year (no daylight saving): the local cut-over is 5:45 ahead of UTC. */
const ZONE = 'Asia/Kathmandu';
const OFFSET = 5.75 * HOUR;

async function ok(method: string, path: string, token: string, body?: unknown) {
  const r = await h.api(method, path, { token, body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  const cut = Math.floor((Date.now() + 2 * HOUR) / 60_000) * 60_000;
  const local = new Date(cut + OFFSET);
  const hhmm = local.toISOString().slice(11, 16);
  startsAt = new Date(cut - 24 * HOUR).toISOString();
  endsAt = new Date(cut).toISOString();
  day = new Date(cut - 24 * HOUR + OFFSET).toISOString().slice(0, 10);
  h = await startService({ COUP_GAMING_DAY: `${hhmm} ${ZONE}` });
  const dealer = h.token('dealer');
  await ok('POST', '/api/tables', h.token('admin'), { tableId: T, rules: { dealing: 'rng' } });
  await ok('POST', `/api/tables/${T}/shoes`, dealer, {});
  await ok('POST', `/api/tables/${T}/rounds`, dealer, {});
  await ok('POST', `/api/tables/${T}/rounds/1/close`, dealer, {});
  await ok('POST', `/api/tables/${T}/rounds/1/deal`, dealer, {});
  // the read models lag the log by up to a commit interval
  for (let i = 0; i < 200; i++) {
    const r = await h.api('GET', `/api/tables/${T}/hands`, { token: h.token('compliance') });
    if (r.body?.items?.length === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the hand never reached the hand history');
});
afterAll(async () => {
  await h?.close();
});

const hands = (query: string) =>
  h.api('GET', `/api/tables/${T}/hands?${query}`, { token: h.token('compliance') });

test('a gaming day answers the hands opened between its cut-overs, as from/to would', async () => {
  const byDay = await hands(`gamingDay=${day}`);
  expect(byDay.status).toBe(200);
  expect(byDay.body.items.map((x: { roundNo: number }) => x.roundNo)).toEqual([1]);
  const byRange = await hands(`from=${startsAt}&to=${endsAt}`);
  expect(byRange.body).toEqual(byDay.body);
  const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - 24 * HOUR).toISOString().slice(0, 10);
  expect((await hands(`gamingDay=${dayBefore}`)).body.items).toEqual([]);
});

test.each([
  ['gamingDay=2026-13-01', 'gamingDay must be a date, YYYY-MM-DD'],
  ['gamingDay=yesterday', 'gamingDay must be a date, YYYY-MM-DD'],
  ['gamingDay=2026-01-01&from=2026-01-01T00:00:00Z', 'give gamingDay or from/to, not both'],
])('%s: 400 INVALID_QUERY naming gamingDay', async (query, message) => {
  const r = await hands(query);
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ code: 'INVALID_QUERY', message, details: { field: 'gamingDay' } });
});
