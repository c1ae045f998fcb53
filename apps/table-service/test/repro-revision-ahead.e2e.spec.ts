/**
 * Issue 14, finding 1 (after ../shared/repro/revision-ahead.mjs): one service process with the default writer
 * thread, 20 players betting on one table while WebSocket subscribes keep making the service read the table. A
 * subscribe must never fold a batch that is still being appended (which pushed the table's revision past the
 * store's, and every later command on the table got 409 CONCURRENCY_CONFLICT until a restart).
 * Runs the built service (`npm run build` first). The race lasts REPRO_RACE_MS (default 4000) and until 100
 * subscribes were made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from '@coup/event-store';
import { request } from './chaos/http';
import { Race, reproCast, subscribeRepeatedly, tableWithOpenRound } from './chaos/repro';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';

jest.setTimeout(120_000);

const { raceMs: RACE_MS, chips: CHIPS, admin, dealer, players, playerToken } = reproCast(SECRET);

let dataDir: string;
let service: ServiceProcess | undefined;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-repro-ahead-'));
});
afterAll(async () => {
  await service?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it('subscribes racing bets: no 409 CONCURRENCY_CONFLICT, every bet accepted, and the table takes bets afterwards', async () => {
  service = await spawnService(dataDir);
  const url = service.url;
  await tableWithOpenRound(url, { admin, dealer }, 'T1', players, CHIPS);
  const bet = (p: string, key: string) =>
    request(url, 'POST', '/api/tables/T1/rounds/1/bets', playerToken(p), {
      body: { playerId: p, spot: 'tie', amount: 100 },
      key,
    });

  const race = new Race(RACE_MS);
  const answers: Record<string, number> = {};
  const bettors = players.map(async (p) => {
    for (let n = 0; !race.over(); n++) {
      const answer = await bet(p, `${p}-${n}`);
      const outcome = answer === null ? 'no answer' : answer.status < 300 ? 'accepted' : answer.body?.code;
      answers[outcome] = (answers[outcome] ?? 0) + 1;
    }
  });
  const subscribers = Array.from({ length: 10 }, () => subscribeRepeatedly(url, dealer, 'T1', race));
  await Promise.all([...bettors, ...subscribers]);
  const afterwards = await bet('p0', 'after-the-race');
  const view = await request(url, 'GET', '/api/tables/T1', dealer);

  const store = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite'), readonly: true });
  let head = -1;
  let betsRecorded = 0;
  for await (const e of store.readStream('table-T1')) {
    head = Number(e.streamRevision);
    if (e.type === 'BetPlaced') betsRecorded++;
  }
  await store.close();

  // The race did happen: bets and subscribes interleaved by the hundred.
  expect(race.subscribes).toBeGreaterThanOrEqual(race.minSubscribes);
  expect(answers['accepted'] ?? 0).toBeGreaterThan(0);
  expect({
    answers,
    betAfterwards: afterwards?.status,
    viewRevision: view?.body?.revision,
    betsRecorded,
  }).toEqual({
    answers: { accepted: answers['accepted'] },
    betAfterwards: 201,
    viewRevision: head,
    betsRecorded: (answers['accepted'] ?? 0) + 1,
  });
});
