/**
 * The SQLite store's writer thread (the service's default, COUP_SQLITE_WRITER=worker) ends under a running service:
 * the bets go on (committed on the request thread, same durability), a watcher gets every one in order, `/health`
 * says degraded (503) naming the writer, since when and why, and the metrics show the loss and the commits.
 */
import { EventStoreHandle } from '../src/store/event-store.provider';
import { startService, type Harness } from './harness';
import { WsClient, openTableForBets, type Frame } from './ws-client';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startService({
    COUP_EVENT_STORE: 'sqlite',
    COUP_SQLITE_WRITER: 'worker',
    COUP_PROJECTIONS: 'off',
  });
});
afterAll(async () => {
  await h?.close();
});

/** Ends the store's writer thread, as a crash of that thread alone would. */
async function killWriterThread(): Promise<void> {
  const store = h.app.get(EventStoreHandle).store as unknown as {
    writer: { worker: { worker: { terminate(): Promise<number> } } };
  };
  await store.writer.worker.worker.terminate();
  await new Promise((resolve) => setImmediate(resolve)); // its 'exit' is handled
}

const metric = (text: string, name: string): number =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

describe('the writer thread lost', () => {
  it('bets go on inline, a watcher gets each in order, /health is degraded naming it, the metrics show it', async () => {
    const tokens = { admin: h.token('admin'), dealer: h.token('dealer'), player: h.token('player', 'p1') };
    const { bet } = await openTableForBets(h.url, tokens, 'T1', 'p1');
    const ws = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${tokens.dealer}`);
    const bets = (frames: Frame[]) => frames.filter((f) => f.event?.type === 'BetPlaced').length;
    ws.send({ type: 'subscribe', tableId: 'T1', every: true });
    await ws.until((f) => f.some((m) => m.type === 'view'), 'the view');
    await bet();
    const before = await h.api('GET', '/health', { token: null });
    expect(before.status).toBe(200);
    expect(before.body.store.writer).toEqual({ writer: 'worker', threadLost: null });

    await killWriterThread();
    // The first append after it sees the thread gone (or, in flight, is refused and retried by the caller).
    for (let i = 0; i < 5; i++) await bet();
    await ws.until((f) => bets(f) === 6, 'the bets placed after the thread ended');
    const revisions = ws.events().map((e) => e.revision!);
    expect(revisions).toEqual(revisions.map((_, i) => revisions[0]! + i));

    const after = await h.api('GET', '/health', { token: null });
    expect(after.status).toBe(503);
    expect(after.body).toMatchObject({
      status: 'degraded',
      store: {
        reachable: true,
        writer: { writer: 'worker', threadLost: { reason: expect.stringMatching(/writer thread/) } },
      },
    });
    expect(Date.parse(after.body.store.writer.threadLost.at)).not.toBeNaN();
    const metrics = (await h.api('GET', '/metrics', { token: null })).body as string;
    expect(metric(metrics, 'coup_store_writer_thread_lost')).toBe(1);
    expect(metric(metrics, 'coup_store_commit_seconds_count')).toBeGreaterThanOrEqual(6);
    expect(ws.errors()).toEqual([]);
    ws.close();
  });
});
