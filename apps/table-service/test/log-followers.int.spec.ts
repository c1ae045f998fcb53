/**
 * The service's followers of the store's global log, the live push and the table list, survive a dropped
 * subscription (a store restart, a network drop, a leader change): each subscribes again from the last event it
 * handled after its backoff, so a WebSocket client gets every event in order, none lost or twice, a table opened
 * meanwhile reaches the list, and `/health` names a follower that is down (503) until it is up again. The store's
 * subscriptions fail when the test says (FlakyStore) and the backoff waits end when the test releases them.
 */
import { createEventStore } from '@coup/event-store';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { LogFollowers } from '../src/store/log-follower';
import { FlakyStore, ManualWaits, until } from './flaky-store';
import { startService, type Harness } from './harness';
import { WsClient, openTableForBets, type Frame } from './ws-client';

jest.setTimeout(30_000);

const FOLLOWERS = ['live-push', 'table-catalog'];

let h: Harness;
let flaky: FlakyStore;
let waits: ManualWaits;

beforeAll(async () => {
  flaky = new FlakyStore(createEventStore({ kind: 'memory' }));
  waits = new ManualWaits();
  const followers = new LogFollowers({ retry: { firstMs: 100, maxMs: 1_000 }, wait: waits.wait });
  h = await startService(
    { COUP_EVENT_STORE: 'memory', COUP_PROJECTIONS: 'off' },
    { store: new EventStoreHandle(flaky, 'memory'), followers },
  );
});
afterAll(async () => {
  await h?.close();
});

const health = () => h.api('GET', '/health', { token: null });
const tableIds = async () =>
  ((await h.api('GET', '/api/tables')).body as { tableId: string }[]).map((t) => t.tableId);

/** Every follower is listed, each with these fields. */
function expectEach(followers: unknown, fields: Record<string, unknown>): void {
  expect(followers).toEqual(FOLLOWERS.map((name) => expect.objectContaining({ name, ...fields })));
}

/** Drops every `$all` subscription and waits until both followers wait to subscribe again. */
async function dropAndWait(): Promise<void> {
  const before = waits.asked.length;
  flaky.drop();
  await until(
    () => waits.waiting === 2 && waits.asked.length === before + 2,
    'both followers to wait to resubscribe',
  );
}

/** Ends the followers' waits and waits until /health says all is well again. */
async function releaseAndRecover(): Promise<void> {
  waits.release();
  let status = 0;
  for (let i = 0; i < 1000 && status !== 200; i++) status = (await health()).status;
  expect(status).toBe(200);
}

describe('a dropped $all subscription', () => {
  it('the table list picks up a table opened after the drop', async () => {
    await h.api('POST', '/api/tables', { body: { tableId: 'C1', rules: { dealing: 'rng' } } });
    let ids: string[] = [];
    for (let i = 0; i < 1000 && !ids.includes('C1'); i++) ids = await tableIds();
    expect(ids).toContain('C1');

    await dropAndWait();
    const opened = await h.api('POST', '/api/tables', { body: { tableId: 'C2', rules: { dealing: 'rng' } } });
    expect(opened.status).toBe(201);
    expect(await tableIds()).not.toContain('C2'); // the list's follower is down: not yet

    await releaseAndRecover();
    for (let i = 0; i < 1000 && !ids.includes('C2'); i++) ids = await tableIds();
    expect(ids).toEqual(expect.arrayContaining(['C1', 'C2']));
  });

  it('a WebSocket client keeps receiving every event in order, none lost or twice', async () => {
    const tokens = { admin: h.token('admin'), dealer: h.token('dealer'), player: h.token('player', 'p1') };
    const { bet } = await openTableForBets(h.url, tokens, 'W1', 'p1');
    const ws = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${tokens.dealer}`);
    const bets = (frames: Frame[]) => frames.filter((f) => f.event?.type === 'BetPlaced').length;
    ws.send({ type: 'subscribe', tableId: 'W1', every: true });
    await ws.until((f) => f.some((m) => m.type === 'view'), 'the view');
    await bet();
    await ws.until((f) => bets(f) === 1, 'the first bet');

    await dropAndWait();
    for (let i = 0; i < 3; i++) await bet(); // appended while the live push is down
    expect(bets(ws.frames)).toBe(1);

    await releaseAndRecover();
    await ws.until((f) => bets(f) === 4, 'the bets placed while the push was down');
    await bet();
    await ws.until((f) => bets(f) === 5, 'a bet placed after');

    const view = ws.frames.find((f) => f.type === 'view')!;
    const revisions = ws.events().map((e) => e.revision!);
    expect(revisions).toEqual(revisions.map((_, i) => view.revision! + 1 + i));
    expect(ws.errors()).toEqual([]);
    expect(ws.closed).toBeNull();
    ws.close();
  });

  it('/health names each follower down (503) while it is down, with since when and why, and is 200 after', async () => {
    const up = await health();
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: 'ok', store: { reachable: true } });
    expect(up.body.followers.map((f: { name: string; up: boolean }) => [f.name, f.up])).toEqual(
      FOLLOWERS.map((name) => [name, true]),
    );

    await dropAndWait();
    const dropped = await health();
    expect(dropped.status).toBe(503);
    expect(dropped.body).toMatchObject({ status: 'degraded', store: { reachable: true } });
    expectEach(dropped.body.followers, { up: false, lastError: 'connection reset', retries: 0 });
    for (const f of dropped.body.followers) expect(Date.parse(f.downSince)).toBeLessThanOrEqual(Date.now());

    // The store stays unreachable: each attempt to subscribe again fails, and is counted.
    flaky.goDown('store unreachable');
    waits.release();
    await until(() => waits.waiting === 2, 'both followers to fail again');
    const unreachable = await health();
    expect(unreachable.status).toBe(503);
    expect(unreachable.body).toMatchObject({ status: 'unavailable', store: { reachable: false } });
    expectEach(unreachable.body.followers, { up: false, lastError: 'store unreachable', retries: 1 });

    flaky.restore();
    await releaseAndRecover();
    const again = await health();
    expect(again.body.status).toBe('ok');
    expectEach(again.body.followers, { up: true, downSince: null, retries: 0 });
  });
});
