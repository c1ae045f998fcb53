import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EventStoreUnavailableError } from './errors';
import { SqliteEventStore } from './sqlite';
import {
  type CommitLoad,
  type CommitPlace,
  CHECKPOINT_EVERY,
  defaultCommitPlace,
  INLINE_BUDGET_MS_PER_S,
} from './sqlite-batch-writer';
import type { ThreadLost } from './sqlite-batch-writer';
import { collect, events } from './testing/contract';

// The adaptive writer (ADR-12): each group commit on the store's thread or in the writer thread, by the load.
// The contract suite runs it too (sqlite.int.spec.ts), by the load and alternating at every commit.

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'coup-es-adaptive-'));
  dirs.push(dir);
  return join(dir, 'events.sqlite');
}
/** Events of about 4 KiB each (a page of the file). */
const padded = (n: number) => events(n).map((e) => ({ ...e, data: { pad: 'x'.repeat(4_000) } }));
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The store's writer, its thread and its counts (internals the tests reach into). */
const writerOf = (store: SqliteEventStore) =>
  (
    store as unknown as {
      writer: {
        commits: { inline: number; worker: number };
        worker: { worker: { terminate(): Promise<number> } };
      };
    }
  ).writer;

/** A policy that always answers inline, recording the load it was shown (what the default policy would see). */
function recording(): { place: (load: CommitLoad) => CommitPlace; seen: CommitLoad[] } {
  const seen: CommitLoad[] = [];
  return {
    seen,
    place: (load) => {
      seen.push(load);
      return 'inline';
    },
  };
}

describe('SQLite store, adaptive writer', () => {
  it('given the load, when choosing, then inline while within the budget, not after a slow commit, and the thread now and then', () => {
    const quiet = {
      inlineMsPerSecond: 1,
      slowUntil: -Infinity,
      now: 1_000,
      appends: 1,
      inlineSinceWorker: 0,
    };
    expect(defaultCommitPlace(quiet)).toBe('inline');
    expect(defaultCommitPlace({ ...quiet, inlineSinceWorker: CHECKPOINT_EVERY - 1 })).toBe('inline');
    expect(defaultCommitPlace({ ...quiet, inlineSinceWorker: CHECKPOINT_EVERY })).toBe('worker');
    expect(defaultCommitPlace({ ...quiet, inlineMsPerSecond: INLINE_BUDGET_MS_PER_S })).toBe('worker');
    expect(defaultCommitPlace({ ...quiet, slowUntil: 1_001 })).toBe('worker');
    expect(defaultCommitPlace({ ...quiet, slowUntil: 1_000 })).toBe('inline');
  });

  it('given inline commits, when appending, then the policy is shown the time they took and how many ran inline', async () => {
    const policy = recording();
    const store = new SqliteEventStore({ file: tempFile(), writer: 'adaptive', commitPlace: policy.place });
    try {
      for (let i = 0; i < 5; i++) await store.appendToStream(`s-${i}`, events(2));
      const writer = (store as unknown as { writer: { commits: { inline: number; worker: number } } }).writer;
      expect(writer.commits).toEqual({ inline: 5, worker: 0 });
      expect(policy.seen[0]?.inlineMsPerSecond).toBe(0);
      expect(policy.seen[1]?.inlineMsPerSecond).toBeGreaterThan(0);
      expect(policy.seen.map((l) => l.appends)).toEqual([1, 1, 1, 1, 1]);
      expect(policy.seen.map((l) => l.inlineSinceWorker)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await store.close();
    }
  });

  it('given commits that go back and forth between the connections, then each stream has one chain and every event once', async () => {
    let n = 0;
    const store = new SqliteEventStore({
      file: tempFile(),
      writer: 'adaptive',
      // runs of three on each side, so each connection sees the other's commits with its heads cached
      commitPlace: () => (Math.floor(n++ / 3) % 2 === 0 ? 'inline' : 'worker'),
    });
    try {
      for (let i = 0; i < 30; i++)
        await Promise.all([
          store.appendToStream('a', events(1 + (i % 3))),
          store.appendToStream(`b-${i % 2}`, events(1)),
        ]);
      for (const stream of ['a', 'b-0', 'b-1']) expect((await store.verifyStream(stream)).ok).toBe(true);
      const all = await collect(store.readAll());
      expect(all.map((e) => e.globalPosition)).toEqual(all.map((_, i) => BigInt(i + 1)));
      expect(all).toHaveLength(30 * 2 + 30);
      expect(n).toBeGreaterThanOrEqual(6);
    } finally {
      await store.close();
    }
  });

  it.each([
    // `worker` follows no policy: with one that says inline, every commit still goes to the thread
    ['worker', () => 'inline' as const],
    ['adaptive', () => 'worker' as const],
  ])(
    'given a writer thread (%s) that dies, then the loss is told at once and once, the commits run inline, nothing is lost, and the log is checkpointed',
    async (writerKind, commitPlace) => {
      const file = tempFile();
      const lost: ThreadLost[] = [];
      const commits: number[] = [];
      const store = new SqliteEventStore({
        file,
        writer: writerKind as 'worker' | 'adaptive',
        commitPlace,
        observer: {
          writerThreadLost: (l) => lost.push(l),
          committed: (_s, appends) => commits.push(appends),
        },
      });
      try {
        await store.appendToStream('s', events(2));
        expect(writerOf(store).commits).toEqual({ inline: 0, worker: 1 });
        expect(store.writerStatus()).toEqual({ writer: writerKind, threadLost: null });
        // the thread ends under the store (a crash of the thread, not of the process): told before any append
        await writerOf(store).worker.worker.terminate();
        expect(lost).toHaveLength(1);
        expect(lost[0]?.reason).toMatch(/writer thread/);
        expect(store.writerStatus()).toEqual({ writer: writerKind, threadLost: lost[0] });
        await store.appendToStream('s', events(3), { expectedRevision: 1n });
        const stored = await collect(store.readStream('s'));
        expect(stored.map((e) => e.streamRevision)).toEqual([0n, 1n, 2n, 3n, 4n]);
        expect((await store.verifyStream('s')).ok).toBe(true);
        // about 1,500 pages more, inline: this connection checkpoints the log again (SQLite's 1,000 pages)
        for (let i = 0; i < 30; i++) await store.appendToStream(`p-${i}`, padded(50));
        expect(statSync(file).size).toBeGreaterThan(5_000_000);
        expect(lost).toHaveLength(1);
        expect(commits).toEqual(Array(1 + 1 + 30).fill(1));
      } finally {
        await store.close();
      }
      expect(lost).toHaveLength(1);
    },
  );

  it('given a store closed with its thread running, then no loss is told', async () => {
    const lost: ThreadLost[] = [];
    const store = new SqliteEventStore({
      file: tempFile(),
      writer: 'worker',
      observer: { writerThreadLost: (l) => lost.push(l) },
    });
    await store.appendToStream('s', events(1));
    await store.close();
    expect(lost).toEqual([]);
  });

  it('given a lost thread and another connection holding the write lock, then the append waits without holding the event loop, and past the busy timeout is refused', async () => {
    const file = tempFile();
    const store = new SqliteEventStore({ file, writer: 'worker', busyTimeoutMs: 1_500 });
    const other = new Database(file);
    try {
      await store.appendToStream('s', events(1));
      await writerOf(store).worker.worker.terminate();
      // held 400 ms: the append waits, and this thread's event loop keeps turning meanwhile
      other.exec('BEGIN IMMEDIATE');
      const release = setTimeout(() => other.exec('COMMIT'), 400);
      let longest = 0;
      let last = performance.now();
      const tick = setInterval(() => {
        longest = Math.max(longest, performance.now() - last);
        last = performance.now();
      }, 5);
      await store.appendToStream('s', events(1), { expectedRevision: 0n });
      clearInterval(tick);
      clearTimeout(release);
      expect(longest).toBeLessThan(250); // a blocked thread: 400 ms or more
      // held past the busy timeout: refused (nothing written), as the thread would have been
      other.exec('BEGIN IMMEDIATE');
      await expect(store.appendToStream('s', events(1), { expectedRevision: 1n })).rejects.toMatchObject({
        code: 'STORE_UNAVAILABLE',
      });
      other.exec('COMMIT');
      await store.appendToStream('s', events(1), { expectedRevision: 1n });
      expect((await collect(store.readStream('s'))).map((e) => e.streamRevision)).toEqual([0n, 1n, 2n]);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await store.close();
    }
  });

  it('given a thread that dies with a commit in flight, when the caller retries it, then it runs inline and each event is stored once', async () => {
    const store = new SqliteEventStore({ file: tempFile(), writer: 'adaptive', commitPlace: () => 'worker' });
    try {
      await store.appendToStream('s', events(1));
      const writer = (
        store as unknown as { writer: { worker: { worker: { terminate(): Promise<number> } } } }
      ).writer;
      const batch = events(3);
      // sent to the thread, which ends at once: written or not, the caller cannot know
      const first = store.appendToStream('s', batch, { expectedRevision: 0n }).then(
        () => 'written',
        (error: Error) => error,
      );
      await writer.worker.worker.terminate();
      const outcome = await first;
      if (outcome !== 'written') expect(outcome).toBeInstanceOf(EventStoreUnavailableError);
      // the same events again (same ids, same expected revision): recorded once either way
      await store.appendToStream('s', batch, { expectedRevision: 0n });
      const stored = await collect(store.readStream('s'));
      expect(stored.map((e) => e.id)).toEqual([stored[0]?.id, ...batch.map((e) => e.id)]);
      expect((await store.verifyStream('s')).ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('given a policy that throws, when appending, then the commit runs in the thread', async () => {
    const store = new SqliteEventStore({
      file: tempFile(),
      writer: 'adaptive',
      commitPlace: () => {
        throw new Error('a broken policy');
      },
    });
    try {
      await store.appendToStream('s', events(2));
      const writer = (store as unknown as { writer: { commits: { inline: number; worker: number } } }).writer;
      expect(writer.commits).toEqual({ inline: 0, worker: 1 });
    } finally {
      await store.close();
    }
  });

  it('given an inline commit slower than the limit, then the policy is shown the cool-down and sends the next ones to the thread', async () => {
    const policy = recording();
    const store = new SqliteEventStore({ file: tempFile(), writer: 'adaptive', commitPlace: policy.place });
    try {
      await store.appendToStream('s', events(1));
      // a commit that holds this thread past the limit (25 ms), as a slow disk would: 48 MB in one group commit
      await store.appendToStream(
        'big',
        events(120).map((e) => ({ ...e, data: { pad: 'x'.repeat(400_000) } })),
      );
      await store.appendToStream('s', events(1), { expectedRevision: 0n });
      // the load after it: inside the cool-down, so the default policy sends the next commits to the thread
      const after = policy.seen[2];
      expect(after?.slowUntil).toBeGreaterThan(after?.now ?? Infinity);
      expect(after && defaultCommitPlace(after)).toBe('worker');
    } finally {
      await store.close();
    }
  });

  it('given inline commits past the checkpoint size, then the log is checkpointed only by a commit in the thread', async () => {
    const file = tempFile();
    let toWorker = false;
    const store = new SqliteEventStore({
      file,
      writer: 'adaptive',
      commitPlace: () => (toWorker ? 'worker' : 'inline'),
    });
    try {
      // 1,500 pages of 4 KiB in inline commits: SQLite's automatic checkpoint (1,000 pages) would have run
      for (let i = 0; i < 30; i++) await store.appendToStream(`s-${i}`, padded(50));
      // nothing copied into the database file yet: every page is still in the log
      expect(statSync(file).size).toBeLessThan(1_000_000);
      toWorker = true;
      await store.appendToStream('last', events(1));
      // the thread's commit checkpointed the log: the pages are in the file
      expect(statSync(file).size).toBeGreaterThan(5_000_000);
      expect((await collect(store.readAll())).length).toBe(30 * 50 + 1);
    } finally {
      await store.close();
    }
  });
});
