/**
 * The SQLite store's writer thread (the service's default, COUP_SQLITE_WRITER=worker) ends under a running service:
 * `/health` at once warns of it (still 200: the service is correct, only slower) naming since when and why, the
 * metrics show it, and the bets go on (committed on the request thread, same durability), a watcher getting every
 * one in order. (A commit in flight when the thread ends, and its keyed retry: sqlite-adaptive.int and the
 * store's contract.)
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
}

const metric = (text: string, name: string): number =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

describe('the writer thread lost', () => {
  it('/health warns of it at once (200), the metrics show it, bets go on inline and a watcher gets each in order', async () => {
    const tokens = { admin: h.token('admin'), dealer: h.token('dealer'), player: h.token('player', 'p1') };
    const { bet } = await openTableForBets(h.url, tokens, 'T1', 'p1');
    const ws = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${tokens.dealer}`);
    const bets = (frames: Frame[]) => frames.filter((f) => f.event?.type === 'BetPlaced').length;
    ws.send({ type: 'subscribe', tableId: 'T1', every: true });
    await ws.until((f) => f.some((m) => m.type === 'view'), 'the view');
    await bet();
    const before = await h.api('GET', '/health', { token: null });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ status: 'ok', warnings: [] });
    expect(before.body.store.writer).toEqual({ writer: 'worker', threadLost: null });

    const committed = async () =>
      metric(
        (await h.api('GET', '/metrics', { token: null })).body as string,
        'coup_store_commit_seconds_count',
      );
    const commitsBefore = await committed();

    await killWriterThread();
    // told at once, before any commit without the thread
    const lost = await h.api('GET', '/health', { token: null });
    expect(lost.status).toBe(200);
    expect(lost.body).toMatchObject({
      status: 'ok',
      warnings: ['store-writer-thread-lost'],
      store: {
        reachable: true,
        writer: { writer: 'worker', threadLost: { reason: expect.stringMatching(/writer thread/) } },
      },
    });
    expect(Date.parse(lost.body.store.writer.threadLost.at)).not.toBeNaN();
    const metrics = (await h.api('GET', '/metrics', { token: null })).body as string;
    expect(metric(metrics, 'coup_store_writer_thread_lost')).toBe(1);

    for (let i = 0; i < 5; i++) await bet();
    await ws.until((f) => bets(f) === 6, 'the bets placed after the thread ended');
    const revisions = ws.events().map((e) => e.revision!);
    expect(revisions).toEqual(revisions.map((_, i) => revisions[0]! + i));
    // one group commit per bet here (each awaited), each observed
    expect((await committed()) - commitsBefore).toBe(5);
    expect(ws.errors()).toEqual([]);
    ws.close();
  });
});
