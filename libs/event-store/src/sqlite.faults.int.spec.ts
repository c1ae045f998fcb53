// Faults on the SQLite store: a crash in the middle of acknowledged appends, a read-only file, a full disk.
// In each case every acknowledged event must be there exactly once, and a failed append must reject.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventStoreUnavailableError } from './errors';
import { SqliteEventStore } from './sqlite';
import { collect, events, newEvent } from './testing/contract';
import type { NewEvent } from './types';

const repo = resolve(__dirname, '../../..');
const tempDirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'coup-es-faults-'));
  tempDirs.push(dir);
  return join(dir, 'events.sqlite');
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

type Writer = 'inline' | 'worker' | 'alternating';

interface ChildRun {
  tried: Set<string>;
  acked: string[];
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the appending child until it has acknowledged `ackTarget` events, then SIGKILLs it. */
function runAndKill(file: string, ackTarget: number, writer: Writer): Promise<ChildRun> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../test/fixtures/append-child.ts'), file, '8', writer],
    {
      env: { ...process.env, TSX_TSCONFIG_PATH: join(repo, 'tsconfig.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const run: ChildRun = { tried: new Set(), acked: [], signal: null, stderr: '' };
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [kind, id] = line.split(' ');
      if (kind === 'try' && id) run.tried.add(id);
      if (kind === 'ack' && id) run.acked.push(id);
    }
    if (run.acked.length >= ackTarget && !child.killed) child.kill('SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child did not reach ${ackTarget} acks in time; stderr: ${run.stderr}`));
    }, 40_000);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      run.signal = signal;
      resolvePromise(run);
    });
  });
}

describe.each(['inline', 'worker', 'alternating'] as const)('SQLite store faults (%s writer)', (writer) => {
  it('given a process SIGKILLed mid-stream, when the file is reopened, then every acknowledged event is there exactly once and the chains verify', async () => {
    const file = tempFile();
    const run = await runAndKill(file, 400, writer);
    expect(run.signal).toBe('SIGKILL');
    expect(run.acked.length).toBeGreaterThanOrEqual(400);

    const store = new SqliteEventStore({ file });
    try {
      const stored = await collect(store.readAll());
      const storedIds = stored.map((e) => e.id);
      const counts = new Map<string, number>();
      for (const id of storedIds) counts.set(id, (counts.get(id) ?? 0) + 1);
      for (const id of run.acked) expect(counts.get(id)).toBe(1); // acknowledged => durable, once
      for (const id of storedIds) expect(run.tried.has(id)).toBe(true); // nothing unknown
      expect(new Set(storedIds).size).toBe(storedIds.length);
      // Events in flight at the kill may or may not be there (never acknowledged), but never half an append.
      const streams = [...new Set(stored.map((e) => e.streamName))];
      expect(streams).toContain('crash-shared');
      for (const stream of streams) expect(await store.verifyStream(stream)).toMatchObject({ ok: true });
      // And the store carries on.
      await store.appendToStream('crash-shared', events(1));
      expect((await store.verifyStream('crash-shared')).ok).toBe(true);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('given a read-only store, when appending, then the promise rejects with STORE_READ_ONLY and nothing changes', async () => {
    const file = tempFile();
    const setup = new SqliteEventStore({ file });
    await setup.appendToStream('ro', events(2));
    await setup.close();

    const reader = new SqliteEventStore({ file, readonly: true });
    try {
      expect(await collect(reader.readStream('ro'))).toHaveLength(2);
      const results = await Promise.allSettled([
        reader.appendToStream('ro', events(1)),
        reader.appendToStream('other', events(1)),
      ]);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        const reason = (result as PromiseRejectedResult).reason as EventStoreUnavailableError;
        expect(reason).toBeInstanceOf(EventStoreUnavailableError);
        expect(reason.code).toBe('STORE_READ_ONLY');
        expect(reason.message).toMatch(/read-only/);
      }
    } finally {
      await reader.close();
    }
    const check = new SqliteEventStore({ file });
    expect(await collect(check.readAll())).toHaveLength(2);
    await check.close();
  });

  it('given a full disk, when appending, then the failing appends reject with STORE_FULL and every acknowledged one is kept', async () => {
    const file = tempFile();
    const setup = new SqliteEventStore({ file });
    await setup.appendToStream('full', events(1));
    await setup.close();

    // Cap the file a few pages above its size, then append 4 KiB events until it is full.
    let commits = 0;
    const capped = new SqliteEventStore({
      file,
      maxPageCount: 12,
      ...(writer === 'alternating'
        ? { writer: 'adaptive', commitPlace: () => (commits++ % 2 === 0 ? 'inline' : 'worker') }
        : { writer }),
    });
    const acked: NewEvent[] = [];
    const failures: unknown[] = [];
    for (let round = 0; round < 40 && failures.length < 3; round++) {
      const batch = [0, 1, 2].map(() => newEvent('Blob', { blob: 'x'.repeat(4096), round }));
      const results = await Promise.allSettled(batch.map((e) => capped.appendToStream('full', [e])));
      results.forEach((r, i) => (r.status === 'fulfilled' ? acked.push(batch[i]!) : failures.push(r.reason)));
    }
    expect(acked.length).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(EventStoreUnavailableError);
      expect((failure as EventStoreUnavailableError).code).toBe('STORE_FULL');
    }
    await capped.close();

    const reopened = new SqliteEventStore({ file });
    try {
      const stored = await collect(reopened.readStream('full'));
      expect(stored.map((e) => e.id).slice(1)).toEqual(acked.map((e) => e.id));
      expect(await reopened.verifyStream('full')).toMatchObject({ ok: true });
    } finally {
      await reopened.close();
    }
  });
});
