import { CommitNotifier, PagedSubscription } from './subscription';
import type { RecordedEvent } from './types';

const at = (position: number): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  type: 'T',
  data: null,
  metadata: { schemaVersion: 1 },
  streamName: 's',
  streamRevision: BigInt(position - 1),
  globalPosition: BigInt(position),
  recordedAt: '2026-01-01T00:00:00.000Z',
  prevHash: '',
  hash: '',
});

describe('PagedSubscription', () => {
  it('given a slow consumer and a long log, then it reads at most one page ahead of what was delivered', async () => {
    const log = Array.from({ length: 10_000 }, (_, i) => at(i + 1));
    let fetched = 0;
    const subscription = new PagedSubscription({
      readPage: (after, limit) => {
        const page = log.slice(Number(after), Number(after) + limit);
        fetched += page.length;
        return page;
      },
      from: 0n,
      notifier: new CommitNotifier(),
      pageSize: 100,
    });
    const iterator = subscription[Symbol.asyncIterator]();
    for (let delivered = 1; delivered <= 250; delivered++) {
      const next = await iterator.next();
      expect(next.value?.globalPosition).toBe(BigInt(delivered));
      expect(fetched).toBeLessThanOrEqual(delivered + 100);
    }
    await subscription.close();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('given it is caught up, when a commit is notified, then it reads again at once; with polling, then also on its own', async () => {
    const log: RecordedEvent[] = [];
    const notifier = new CommitNotifier();
    let reads = 0;
    const readPage = (after: bigint, limit: number): RecordedEvent[] => {
      reads += 1;
      return log.slice(Number(after), Number(after) + limit);
    };
    const woken = new PagedSubscription({ readPage, from: 0n, notifier });
    const iterator = woken[Symbol.asyncIterator]();
    const pending = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const readsWhileIdle = reads;
    expect(readsWhileIdle).toBe(1); // no polling without pollMs: it waits for a commit
    log.push(at(1));
    notifier.notify();
    expect((await pending).value?.globalPosition).toBe(1n);
    await woken.close();

    const polling = new PagedSubscription({ readPage, from: 1n, notifier: new CommitNotifier(), pollMs: 5 });
    const next = polling[Symbol.asyncIterator]().next();
    log.push(at(2)); // written by "another process": no notify
    expect((await next).value?.globalPosition).toBe(2n);
    await polling.close();
  });

  it('given a commit lands between reading a page and waiting, then it is not missed', async () => {
    const notifier = new CommitNotifier();
    const log: RecordedEvent[] = [];
    const subscription = new PagedSubscription({
      readPage: (after, limit) => {
        const page = log.slice(Number(after), Number(after) + limit);
        if (log.length === 0) {
          log.push(at(1)); // a commit right after this (empty) read ...
          notifier.notify(); // ... notified before the subscription starts waiting
        }
        return page;
      },
      from: 0n,
      notifier,
    });
    const next = await Promise.race([
      subscription[Symbol.asyncIterator]().next(),
      new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 500)),
    ]);
    expect(next).not.toBe('stuck');
    await subscription.close();
  });
});
