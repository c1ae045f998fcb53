import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EventStoreUnavailableError, WrongExpectedVersionError } from './errors';
import { GENESIS_HASH } from './hash';
import { SqliteEventStore, type SqliteEventStoreConfig } from './sqlite';
import type { CommitLoad, CommitPlace } from './sqlite-batch-writer';
import type { RecordedEvent } from './types';
import { collect, events, newEvent, runEventStoreContract } from './testing/contract';

const tempDirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'coup-es-'));
  tempDirs.push(dir);
  return join(dir, 'events.sqlite');
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** An adaptive writer forced to switch connection at every group commit (the worst case for its cached heads). */
function alternating(): (load: CommitLoad) => CommitPlace {
  let n = 0;
  return () => (n++ % 2 === 0 ? 'inline' : 'worker');
}

// The same contract with the group commits on this thread, in the writer thread, in either by the load, and
// alternating between the two connections.
for (const writer of ['inline', 'worker', 'adaptive', 'alternating'] as const)
  runEventStoreContract(`sqlite (${writer} writer)`, async (options) => {
    const file = tempFile();
    const store = new SqliteEventStore({
      file,
      upcasters: options?.upcasters,
      ...(writer === 'alternating' ? { writer: 'adaptive', commitPlace: alternating() } : { writer }),
    });
    return {
      store,
      cleanup: () => store.close(),
      tamper: async (stream, revision, patch) => {
        // Someone with access to the file edits a row behind the store's back.
        const raw = new Database(file);
        try {
          const columns = {
            data: patch.data,
            metadata: patch.metadata,
            type: patch.type,
            prev_hash: patch.prevHash,
            hash: patch.hash,
          };
          for (const [column, value] of Object.entries(columns)) {
            if (value === undefined) continue;
            const info = raw
              .prepare(`UPDATE events SET ${column} = ? WHERE stream = ? AND revision = ?`)
              .run(value, stream, revision);
            if (info.changes !== 1) throw new Error(`no row ${stream}@${revision} to tamper with`);
          }
        } finally {
          raw.close();
        }
      },
    };
  });

describe('SQLite event store', () => {
  const open = (config: Partial<SqliteEventStoreConfig> & { file: string }): SqliteEventStore =>
    new SqliteEventStore(config);

  it.each(['inline', 'worker', 'adaptive'] as const)(
    'given a caught-up subscription that never writes (%s writer), when another connection appends, then the poll delivers it (no stale shared page)',
    async (writer) => {
      const file = tempFile();
      const reader = open({ file, writer, pollIntervalMs: 20 });
      const other = open({ file, writer });
      const first = await other.appendToStream('elsewhere', events(1));
      const sub = reader.subscribeToAll({ fromPosition: first.position });
      const iterator = sub[Symbol.asyncIterator]();
      try {
        const next = iterator.next();
        await new Promise((resolve) => setTimeout(resolve, 100)); // several polls find nothing new
        const second = await other.appendToStream('elsewhere', events(1));
        const got = await Promise.race([
          next,
          new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 2000)),
        ]);
        expect(got).not.toBe('late');
        expect((got as IteratorResult<{ globalPosition: bigint }>).value.globalPosition).toBe(
          second.position,
        );
      } finally {
        await sub.close();
        await reader.close();
        await other.close();
      }
    },
  );

  describe('where the group commit runs', () => {
    /**
     * Another connection takes the write lock and releases it from a timer on the test's thread after `holdMs`, so
     * the store's next commit waits for it (up to `busyTimeoutMs`). A 10 ms timer is set at the same moment: when it
     * fires says whether the test's thread was free while the commit waited.
     */
    async function commitWaitingForTheLock(
      writer: 'inline' | 'worker' | 'adaptive',
      holdMs: number,
      busyTimeoutMs: number,
    ) {
      const file = tempFile();
      const store = open({ file, writer, busyTimeoutMs });
      await store.appendToStream('warm', events(1));
      const locker = new Database(file);
      locker.exec('BEGIN IMMEDIATE');
      setTimeout(() => locker.exec('COMMIT'), holdMs);
      const started = Date.now();
      const append = store.appendToStream('s', events(3)).then(
        () => Date.now() - started,
        (error: Error) => error,
      );
      const timerAt = await new Promise<number>((resolve) =>
        setTimeout(() => resolve(Date.now() - started), 10),
      );
      const appended = await append;
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      locker.close();
      const stored = (await collect(store.readStream('s'))).length;
      await store.close();
      return { timerAt, appended, stored };
    }

    it.each(['worker', 'adaptive'] as const)(
      "given the writer thread (%s), when a commit waits for another's lock, then the store's own thread keeps running and the append completes after",
      async (writer) => {
        const { timerAt, appended, stored } = await commitWaitingForTheLock(writer, 300, 5000);
        expect(timerAt).toBeLessThan(250); // the 10 ms timer fired while the commit was still waiting
        expect(typeof appended).toBe('number');
        expect(appended as number).toBeGreaterThanOrEqual(280); // acknowledged only once it was written
        expect(stored).toBe(3);
      },
    );

    it("given the inline writer, when a commit waits for the disk, then the store's thread is blocked for as long (the lock is never released in time)", async () => {
      const { timerAt, appended, stored } = await commitWaitingForTheLock('inline', 50, 400);
      expect(timerAt).toBeGreaterThanOrEqual(350); // nothing else ran on this thread while the commit waited
      expect(appended).toBeInstanceOf(EventStoreUnavailableError); // busy: the release timer could not run
      expect(stored).toBe(0);
    });
  });

  it('runs WAL with synchronous = FULL, and the schema enforces (stream, revision) and id uniqueness', async () => {
    const file = tempFile();
    const store = open({ file });
    expect(store.durability()).toEqual({ journalMode: 'wal', synchronous: 'FULL' });
    await store.appendToStream('s', events(1));
    await store.close();
    const raw = new Database(file);
    try {
      const row = raw.prepare('SELECT * FROM events').get() as Record<string, unknown>;
      expect(row['global_position']).toBe(1);
      const insert = raw.prepare(
        "INSERT INTO events (stream, revision, id, type, data, metadata, recorded_at, prev_hash, hash) VALUES (?, ?, ?, 'T', '{}', '{}', '', '', '')",
      );
      expect(() => insert.run('s', 0, 'another-id')).toThrow(
        /UNIQUE constraint failed: events.stream, events.revision/,
      );
      expect(() => insert.run('s', 1, row['id'])).toThrow(/UNIQUE constraint failed: events.id/);
    } finally {
      raw.close();
    }
  });

  it('group-commits appends arriving together: one transaction, and one refusal does not fail its neighbours', async () => {
    const store = open({ file: tempFile() });
    await store.appendToStream('shared', events(1));
    const before = store.stats();
    const appends = Array.from({ length: 64 }, (_, i) => store.appendToStream(`own-${i}`, events(1)));
    const conflicting = store.appendToStream('shared', events(1), { expectedRevision: 5n });
    const matching = store.appendToStream('shared', events(1), { expectedRevision: 0n });
    const results = await Promise.allSettled([...appends, conflicting, matching]);
    expect(results.slice(0, 64).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results[64]).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedVersionError) });
    expect(results[65]).toMatchObject({ status: 'fulfilled' });
    expect(store.stats()).toEqual({ appends: before.appends + 66, commits: before.commits + 1 });
    expect(await collect(store.readAll())).toHaveLength(66);
    await store.close();
  });

  it('in one group commit, an append refused at insert (a reused id) leaves no row behind and its neighbours land', async () => {
    const store = open({ file: tempFile() });
    const used = newEvent();
    await store.appendToStream('first', [used]);
    const before = store.stats().commits;
    const [a, c, d] = [newEvent(), newEvent(), newEvent()];
    const fresh = newEvent();
    const results = await Promise.allSettled([
      store.appendToStream('x', [a]),
      store.appendToStream('y', [used]), // single row: the INSERT itself fails
      store.appendToStream('z', [fresh, used]), // two rows: the first is rolled back to the savepoint
      store.appendToStream('x', [c]),
      store.appendToStream('w', [d]),
    ]);
    expect(store.stats().commits).toBe(before + 1);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'DUPLICATE_EVENT_ID' });
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'DUPLICATE_EVENT_ID' });
    const all = await collect(store.readAll());
    expect(all.map((e) => e.id)).toEqual([used.id, a.id, c.id, d.id]);
    expect(all.map((e) => e.globalPosition)).toEqual([1n, 2n, 3n, 4n]);
    expect(await store.verifyStream('x')).toMatchObject({ ok: true, checked: 2 });
    await store.close();
  });

  it('survives a reopen: events, chain and positions carry on', async () => {
    const file = tempFile();
    const first = open({ file });
    await first.appendToStream('t', events(3));
    await first.close();
    const second = open({ file });
    const result = await second.appendToStream('t', events(1), { expectedRevision: 2n });
    expect(result).toEqual({ nextExpectedRevision: 3n, position: 4n });
    expect(await second.verifyStream('t')).toMatchObject({ ok: true, checked: 4 });
    await second.close();
  });

  /** Takes `count` events from a subscription. */
  async function take(sub: AsyncIterable<RecordedEvent>, count: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (count === 0) return out;
    for await (const event of sub) {
      out.push(event);
      if (out.length === count) break;
    }
    return out;
  }

  it.each(['inline', 'worker', 'adaptive'] as const)(
    "a caught-up subscription (%s writer) reads the store's own commits without a query, each event as the file holds it",
    async (writer) => {
      const store = open({ file: tempFile(), writer });
      try {
        await store.appendToStream('before', events(3));
        const sub = store.subscribeToAll({ fromPosition: 3n });
        const total = 20 * 3 + 5 + 2; // 1+2+3+4+5 per five appends, the five 'other' ones, the two retried
        const seen = take(sub, total); // (ending the loop closes the subscription)
        const retried = events(2);
        for (let i = 0; i < 20; i++) {
          // One to five events per append, two appends per commit now and then, and an idempotent retry.
          const appends = [store.appendToStream(`s-${i % 3}`, events(1 + (i % 5)))];
          if (i % 4 === 0)
            appends.push(store.appendToStream('other', events(1), { expectedRevision: 'any' }));
          await Promise.all(appends);
        }
        await store.appendToStream('retried', retried, { expectedRevision: 'no_stream' });
        await store.appendToStream('retried', retried, { expectedRevision: 'no_stream' }); // records nothing
        const got = await seen;
        const file = (await collect(store.readAll({ fromPosition: 3n }))).filter(
          (e) => e.globalPosition > 3n,
        );
        expect(got).toEqual(file);
        expect(got.map((e) => e.globalPosition)).toEqual(file.map((_, i) => BigInt(i + 4)));
        // Every page with new events came from the store's own commits; the file was asked only when there was
        // nothing newer of its own (the first read and the polls).
        const reads = store.subscriptionReads();
        expect(reads.recent).toBeGreaterThanOrEqual(15);
        expect(reads.file).toBeLessThan(reads.recent);
      } finally {
        await store.close();
      }
    },
  );

  it.each(['inline', 'worker', 'adaptive'] as const)(
    'with another process writing in between (%s writer), the pages it wrote come from the file: no gap, no duplicate',
    async (writer) => {
      const file = tempFile();
      const a = open({ file, writer, pollIntervalMs: 20 });
      const b = open({ file, writer, pollIntervalMs: 20 });
      const sub = a.subscribeToAll();
      try {
        const seen = take(sub, 100); // 30 x 2 + 30 + 10
        for (let i = 0; i < 30; i++) {
          await a.appendToStream('table-a', events(2));
          if (i % 3 !== 2) await b.appendToStream('table-b', events(1));
          else
            await Promise.all([
              a.appendToStream('table-a', events(1)),
              b.appendToStream('table-b', events(1)),
            ]);
        }
        const got = await seen;
        const all = await collect(a.readAll());
        expect(got).toEqual(all);
        expect(got.map((e) => e.globalPosition)).toEqual(all.map((_, i) => BigInt(i + 1)));
        expect(a.subscriptionReads().recent).toBeGreaterThan(0);
        expect(a.subscriptionReads().file).toBeGreaterThan(0);
      } finally {
        await sub.close();
        await a.close();
        await b.close();
      }
    },
  );

  it('two connections (as two processes) share one file: no stale head, no fork, subscriptions see both', async () => {
    const file = tempFile();
    const a = open({ file, pollIntervalMs: 20 });
    const b = open({ file, pollIntervalMs: 20 });
    const subscription = a.subscribeToAll();
    try {
      const seen: bigint[] = [];
      const consumer = (async () => {
        for await (const event of subscription) {
          seen.push(event.globalPosition);
          if (seen.length === 40) return;
        }
      })();
      for (let i = 0; i < 10; i++) {
        await Promise.all([a.appendToStream('table-1', events(1)), b.appendToStream('table-1', events(1))]);
        await Promise.all([a.appendToStream('table-1', events(1)), b.appendToStream('table-1', events(1))]);
      }
      await consumer;
      expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => BigInt(i + 1)));
      expect(await b.verifyStream('table-1')).toMatchObject({ ok: true, checked: 40 });
      await expect(a.appendToStream('table-1', events(1), { expectedRevision: 38n })).rejects.toMatchObject({
        actual: 39n,
      });
    } finally {
      await subscription.close();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('keeps positions beyond 2^53 exact', async () => {
    const file = tempFile();
    const store = open({ file });
    await store.appendToStream('small', events(1));
    await store.close();
    const big = 2n ** 60n;
    const raw = new Database(file);
    raw.defaultSafeIntegers(true);
    const hash = '1'.repeat(64);
    raw
      .prepare('INSERT INTO events VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        big,
        'far',
        newEvent().id,
        'T',
        '{}',
        '{"schemaVersion":1}',
        new Date().toISOString(),
        GENESIS_HASH,
        hash,
      );
    raw.close();
    const reopened = open({ file });
    const result = await reopened.appendToStream('small', events(2));
    expect(result.position).toBe(big + 2n);
    const after = await collect(reopened.readAll({ fromPosition: big }));
    expect(after.map((e) => e.globalPosition)).toEqual([big + 1n, big + 2n]);
    await reopened.close();
  });

  it('reads all events across many pages', async () => {
    const store = open({ file: tempFile() });
    for (let i = 0; i < 3; i++) await store.appendToStream(`p-${i}`, events(450));
    const all = await collect(store.readAll());
    expect(all.map((e) => e.globalPosition)).toEqual(Array.from({ length: 1350 }, (_, i) => BigInt(i + 1)));
    expect(await collect(store.readAll({ fromPosition: 500n, maxCount: 600 }))).toHaveLength(600);
    await store.close();
  });

  it('refuses a file that is not a Coup event store', async () => {
    const garbage = tempFile();
    writeFileSync(
      garbage,
      'this is not a database, just some text that is long enough to have a header '.repeat(20),
    );
    expect(() => open({ file: garbage })).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
    const future = tempFile();
    const raw = new Database(future);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => open({ file: future })).toThrow(EventStoreUnavailableError);
  });
});
