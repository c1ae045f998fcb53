/**
 * The one resubscribe loop every follower of the log uses (LogFollowers): its backoff (doubling, capped,
 * jittered; from the first wait again once a subscription delivers), resuming after the last event handled (none
 * lost or twice), a handler that throws, a subscription that just ends, and stopping at any point. The waits end
 * when the test releases them and the clock is the test's.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { createEventStore, type EventStore, type RecordedEvent, type Subscription } from '@coup/event-store';
import { LogFollowers, retryDelay } from '../src/store/log-follower';
import { FlakyStore, ManualWaits, until } from './flaky-store';

const RETRY = { firstMs: 100, maxMs: 1_000 };

beforeAll(() => Logger.overrideLogger(false)); // the drops these tests make are logged as errors

async function append(store: EventStore, n: number): Promise<void> {
  await store.appendToStream('log-test', [
    { id: randomUUID(), type: 'Counted', data: { n }, metadata: { schemaVersion: 1 } },
  ]);
}

function setup(inner: EventStore = createEventStore({ kind: 'memory' })) {
  const flaky = new FlakyStore(inner);
  const waits = new ManualWaits();
  let now = 1_000_000;
  const followers = new LogFollowers({ retry: RETRY, wait: waits.wait, random: () => 0.5, now: () => now });
  const seen: number[] = [];
  const handle = (e: RecordedEvent) => seen.push((e.data as { n: number }).n);
  return {
    flaky,
    waits,
    followers,
    seen,
    handle,
    tick: (ms: number) => (now += ms),
    status: () => followers.statuses()[0]!,
  };
}

describe('retryDelay', () => {
  it('doubles from the first wait up to the cap, half of it fixed and half random', () => {
    const at = (random: number) => [0, 1, 2, 3, 4, 5, 60].map((n) => retryDelay(RETRY, n, () => random));
    expect(at(0)).toEqual([50, 100, 200, 400, 500, 500, 500]);
    expect(at(0.5)).toEqual([75, 150, 300, 600, 750, 750, 750]);
    expect(at(0.999_999)).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });
});

describe('a follower of the log', () => {
  it('while the store stays down, waits longer after each failure up to the cap; then resumes with no gap or duplicate', async () => {
    const { flaky, waits, followers, seen, handle, status } = setup();
    await append(flaky, 1);
    const follower = followers.follow('test', flaky, null, handle);
    await append(flaky, 2);
    await until(() => seen.length === 2, 'the first events');
    const handled = follower.position;

    flaky.goDown('unreachable');
    for (let i = 0; i < 6; i++) {
      await until(() => waits.waiting === 1, `failure ${i + 1}`);
      if (i === 0) await append(flaky.inner, 3); // appended while the follower is down
      waits.release();
    }
    await until(() => waits.waiting === 1, 'the seventh failure');
    expect(waits.asked).toEqual([75, 150, 300, 600, 750, 750, 750]);
    expect(status()).toMatchObject({
      up: false,
      lastError: 'unreachable',
      retries: 6,
      position: `${handled}`,
    });

    flaky.restore();
    await append(flaky.inner, 4);
    waits.release();
    await until(() => seen.length >= 4, 'the events since');
    expect(status()).toMatchObject({ up: true, downSince: null, retries: 0 });
    await append(flaky, 5);
    await until(() => seen.length >= 5, 'a later event');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await follower.stop();
  });

  it('once a new subscription delivers, the next failure waits the first wait again', async () => {
    const { flaky, waits, followers, seen, handle } = setup();
    const follower = followers.follow('test', flaky, null, handle);
    await until(() => flaky.subscriptions === 1, 'subscribed');
    for (let n = 1; n <= 3; n++) {
      flaky.drop();
      await until(() => waits.waiting === 1, `drop ${n}`);
      waits.release();
      await until(() => flaky.subscriptions === n + 1, `subscribed again ${n}`);
    }
    expect(waits.asked).toEqual([75, 150, 300]); // nothing delivered between the drops: the waits grow
    await append(flaky, 1);
    await until(() => seen.length === 1, 'an event');
    flaky.drop();
    await until(() => waits.waiting === 1, 'the drop after an event');
    expect(waits.asked.at(-1)).toBe(75);
    await follower.stop();
  });

  it('a subscription that lasted the longest wait counts as good: the next failure waits the first wait again', async () => {
    const { flaky, waits, followers, handle, tick } = setup();
    const follower = followers.follow('test', flaky, null, handle);
    for (let n = 1; n <= 2; n++) {
      await until(() => flaky.subscriptions === n, `subscribed ${n}`);
      flaky.drop();
      await until(() => waits.waiting === 1, `drop ${n}`);
      waits.release();
    }
    await until(() => flaky.subscriptions === 3, 'subscribed 3');
    tick(RETRY.maxMs);
    flaky.drop();
    await until(() => waits.waiting === 1, 'drop 3');
    expect(waits.asked).toEqual([75, 150, 75]);
    await follower.stop();
  });

  it('an event its handler throws on is handed again after the wait, and nothing after it first', async () => {
    const { flaky, waits, followers, status } = setup();
    const seen: number[] = [];
    let fail = true;
    const follower = followers.follow('test', flaky, null, (e) => {
      const n = (e.data as { n: number }).n;
      if (n === 2 && fail) throw new Error('handler failed');
      seen.push(n);
    });
    for (let n = 1; n <= 3; n++) await append(flaky, n);
    await until(() => waits.waiting === 1, 'the failure');
    expect(seen).toEqual([1]);
    expect(status()).toMatchObject({ up: false, lastError: 'handler failed', position: expect.any(String) });
    fail = false;
    waits.release();
    await until(() => seen.length === 3, 'the rest');
    expect(seen).toEqual([1, 2, 3]);
    await follower.stop();
  });

  it('a subscription that ends without an error is a drop too', async () => {
    const inner = createEventStore({ kind: 'memory' });
    let ended = false;
    const endsOnce = new Proxy(inner, {
      get(target, key, receiver) {
        if (key === 'subscribeToAll' && !ended) {
          ended = true;
          return (): Subscription => ({
            [Symbol.asyncIterator]: async function* () {
              yield* []; // done at once
            },
            close: async () => undefined,
          });
        }
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { waits, followers, seen, handle, status } = setup(endsOnce);
    const follower = followers.follow('test', endsOnce, null, handle);
    await until(() => waits.waiting === 1, 'the drop');
    expect(status()).toMatchObject({ up: false, lastError: 'the subscription ended' });
    waits.release();
    await append(inner, 1);
    await until(() => seen.length === 1, 'an event');
    await follower.stop();
  });

  it('stops at once while waiting or while the store does not answer, and is no longer listed', async () => {
    const { flaky, waits, followers, handle } = setup();
    const waiting = followers.follow('waiting', flaky, null, handle);
    await until(() => flaky.subscriptions === 1, 'subscribed');
    flaky.drop();
    await until(() => waits.waiting === 1, 'the drop');
    await waiting.stop();
    expect(waits.waiting).toBe(0);
    expect(followers.statuses()).toEqual([]);

    let answer = (): void => undefined;
    const hanging = new Proxy(flaky, {
      get(target, key, receiver) {
        if (key === 'headPosition')
          return () => new Promise<bigint | null>((resolve) => (answer = () => resolve(null)));
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const probing = followers.follow('probing', hanging, null, handle);
    await until(() => flaky.subscriptions === 2, 'subscribed');
    flaky.drop();
    await until(() => waits.waiting === 1, 'the drop');
    waits.release(); // now it asks the store, which does not answer
    await probing.stop();
    answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(flaky.subscriptions).toBe(2); // no subscription after the stop
    expect(followers.statuses()).toEqual([]);
  });
});
