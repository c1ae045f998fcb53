/**
 * Issue 14, finding 1 with two instances (after ../shared/repro/two-instances-money.mjs): processes A and B on one
 * data folder (B with COUP_PROJECTIONS=off). Players bet through B while WebSocket subscribes keep B reading the
 * table (which pushed B's revision ahead of the store's, so that B's catch-up skipped A's next events); then p0
 * bets 40 x 100 through A, and once more and clears through B. The clear must return exactly what p0 staked, and
 * p0's chips must agree in both processes' views and in the events.
 * Runs the built service (`npm run build` first). The race lasts REPRO_RACE_MS (default 4000) and until 100
 * subscribes were made, or until B answers a conflict.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore, type RecordedEvent } from '@coup/event-store';
import { foldMoney } from './chaos/checks';
import { request } from './chaos/http';
import { Journal } from './chaos/journal';
import { Race, reproCast, subscribeRepeatedly, tableWithOpenRound } from './chaos/repro';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';

jest.setTimeout(120_000);

const { raceMs: RACE_MS, chips: CHIPS, admin, dealer, players, playerToken } = reproCast(SECRET);

let dataDir: string;
const services: ServiceProcess[] = [];
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-repro-two-'));
});
afterAll(async () => {
  for (const s of services) await s.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it("two instances: a clear through B returns exactly what p0 staked through A, and p0's chips agree everywhere", async () => {
  const a = await spawnService(dataDir);
  services.push(a);
  const b = await spawnService(dataDir, { COUP_PROJECTIONS: 'off' });
  services.push(b);
  await tableWithOpenRound(a.url, { admin, dealer }, 'T2', players, CHIPS);
  expect((await request(b.url, 'GET', '/api/tables/T2', dealer))?.status).toBe(200); // B loads the table
  const bet = (url: string, p: string, key: string) =>
    request(url, 'POST', '/api/tables/T2/rounds/1/bets', playerToken(p), {
      body: { playerId: p, spot: 'tie', amount: 100 },
      key,
    });
  const answers: Record<string, number> = {};
  const tally = (answer: Awaited<ReturnType<typeof bet>>) => {
    const outcome = answer === null ? 'no answer' : answer.status < 300 ? 'accepted' : answer.body?.code;
    answers[outcome] = (answers[outcome] ?? 0) + 1;
    return answer;
  };

  // 1. Bets through B (p1..p19) while sockets subscribe on B, until B answers a conflict or the time is up.
  const race = new Race(RACE_MS);
  const over = () => race.over() || (answers['CONCURRENCY_CONFLICT'] ?? 0) > 0;
  const bettors = players.slice(1).map(async (p) => {
    for (let n = 0; !over(); n++) tally(await bet(b.url, p, `b-${p}-${n}`));
  });
  const subscribers = Array.from({ length: 10 }, () => subscribeRepeatedly(b.url, dealer, 'T2', race, over));
  await Promise.all([...bettors, ...subscribers]);

  // 2. p0 bets 40 x 100 through A.
  let stakedViaA = 0;
  for (let n = 0; n < 40; n++)
    if (tally(await bet(a.url, 'p0', `a-p0-${n}`))?.status === 201) stakedViaA += 100;
  // 3. p0 bets once more and clears through B.
  const betViaB = tally(await bet(b.url, 'p0', 'b-p0-bet'));
  const clear = await request(b.url, 'DELETE', '/api/tables/T2/rounds/1/bets/p0', playerToken('p0'), {
    key: 'b-p0-clear',
  });

  const chipsIn = async (url: string) =>
    (
      (await request(url, 'GET', '/api/tables/T2', dealer))?.body?.players as {
        playerId: string;
        chips: number;
      }[]
    )?.find((p) => p.playerId === 'p0')?.chips;
  const store = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite'), readonly: true });
  const events: RecordedEvent[] = [];
  for await (const e of store.readStream('table-T2')) events.push(e);
  await store.close();
  const journal = new Journal();
  const { accounts } = foldMoney(events, journal);

  expect(answers['accepted'] ?? 0).toBeGreaterThan(0);
  expect({
    answers,
    stakedViaA,
    betViaB: betViaB?.status,
    clearViaB: { status: clear?.status, returned: clear?.body?.returned, chips: clear?.body?.chips },
    p0Chips: {
      viewOfA: await chipsIn(a.url),
      viewOfB: await chipsIn(b.url),
      events: accounts.get('p0')?.chips,
    },
    moneyInEvents: journal.violationSummary(),
  }).toEqual({
    answers: { accepted: answers['accepted'] },
    stakedViaA: 4000,
    betViaB: 201,
    clearViaB: { status: 200, returned: 4100, chips: CHIPS },
    p0Chips: { viewOfA: CHIPS, viewOfB: CHIPS, events: CHIPS },
    moneyInEvents: {},
  });
});
