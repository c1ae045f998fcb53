import { createHash, randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { preparePrivateSqliteFile } from '@coup/event-store';
import type { TableCommand } from '@coup/table';
import { ApiError } from '../common/api-error';

/**
 * Idempotency (ADR-5, ADR-14). A keyed command's events get ids derived from (table, key, index), and its first
 * accepted answer is kept in the metadata of its last event with the hash of the request (caller and body), or
 * rebuilt from its events when large (key-replies.ts). The table stream is the truth; the key index below is a
 * local, rebuildable lookup folded from it.
 */

/** The Idempotency-Key header as the OpenAPI document describes it (every command route takes one). */
export const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'A retry with the same key, from the same caller with the same body, returns the first accepted answer and ' +
    'records nothing new (for COUP_IDEMPOTENCY_DAYS, on any instance); another caller or body gets 422 ' +
    'IDEMPOTENCY_KEY_REUSED; a refusal is not remembered: its retry is decided again',
} as const;

/** The answer a key was first accepted with, and the request (caller and body) it belongs to. */
export interface StoredReply {
  readonly hash: string;
  readonly reply: unknown;
}

/** A key met in the table stream: the first accepted answer and where it was recorded. */
export interface KeyEntry extends StoredReply {
  readonly key: string;
  readonly revision: bigint;
  /** When the store recorded it (ISO); keys older than the retention are pruned. */
  readonly recordedAt: string;
}

export const keyReused = () =>
  new ApiError(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    'this Idempotency-Key was used for a different request (another caller or another body)',
  );

export const keyExpired = (days: number) =>
  new ApiError(
    422,
    'IDEMPOTENCY_KEY_EXPIRED',
    `this Idempotency-Key was used more than ${days} days ago; send the request with a new key`,
  );

/**
 * What identifies a client's request behind an Idempotency-Key: who sends it (role and id) and the command's type
 * and data, without the seeds the edge adds (fresh CSPRNG bytes differ on every retry, the request does not). A key
 * is bound to its caller: another caller's request never gets this answer.
 */
export function requestHashOf(command: TableCommand): string {
  const { seed: _seed, nextSeed: _nextSeed, ...data } = command.data as Record<string, unknown>;
  return requestHash(command.type, command.meta.actor, data);
}

/** The hash behind a key of any command: its type, its caller (role and id) and its request's data. */
export function requestHash(
  type: string,
  caller: { readonly role: string; readonly id: string },
  data: unknown,
): string {
  return createHash('sha256')
    .update(JSON.stringify([type, caller.role, caller.id, data]))
    .digest('hex')
    .slice(0, 32);
}

/** A retry's answer under a recorded key: the first answer for the same caller and request, else 422. */
export function firstAnswer(
  first: StoredReply,
  requestHash: string,
): { readonly ok: true; readonly reply: unknown } | { readonly ok: false; readonly error: ApiError } {
  return first.hash === requestHash ? { ok: true, reply: first.reply } : { ok: false, error: keyReused() };
}

/**
 * A time-ordered UUID (version 7: 48-bit Unix milliseconds, then random bits). Ids that grow with time keep the
 * store's unique id index appending at its end instead of writing random pages (about a third of the durable
 * write cost with random v4 ids, see docs/benchmarks.md).
 */
export function uuidv7(now = Date.now()): string {
  // The random part comes from crypto.randomUUID (a v4 id from Node's buffered CSPRNG pool: one system call per
  // 128 ids, where randomBytes(16) makes one per id); its first 48 bits and version nibble are replaced.
  const random = randomUUID();
  const ms = now.toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${random.slice(15)}`;
}

/** A deterministic UUID (version 8 layout) for the i-th event of an idempotent command. */
export function eventIdFor(tableId: string, key: string, index: number): string {
  const h = createHash('sha256').update(`${tableId}\u0000${key}\u0000${index}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The keys recorded on each table, folded from the table streams: a local lookup, never the truth. Its watermark
 * per table is the revision up to which every key (of the retention window) is in it, so a table session trusts a
 * miss only once the index is complete up to the session's revision, and fills the gap from the stream otherwise.
 */
export interface KeyIndex {
  get(tableId: string, key: string): StoredReply | undefined;
  /** -1n when nothing of the table was indexed. */
  watermark(tableId: string): bigint;
  /** Adds entries; with `complete`, the index holds every key of the table up to that revision. */
  record(tableId: string, entries: readonly KeyEntry[], complete: bigint | null): void;
  /** Forgets every key and the watermark of a table (the index is then filled from the stream again). */
  forget(tableId: string): void;
  /** Forgets keys recorded before this instant (ISO), at most `limit` of them; answers how many. */
  prune(before: string, limit?: number): number;
  close(): void;
}

/** How often the key index's thread checkpoints its write-ahead log. */
const CHECKPOINT_EVERY_MS = 1_000;
/** Recorded keys are held in memory this long, then written together in one transaction... */
const WRITE_BEHIND_MS = 20;
/** ...or as soon as this many are held. */
const WRITE_BEHIND_MAX = 100;

/** Keys recorded for one table and not written yet, and the watermark they complete. */
interface HeldKeys {
  readonly entries: Map<string, { hash: string; replyJson: string; revision: bigint; recordedAt: string }>;
  complete: bigint | null;
}

/**
 * A thread that checkpoints a SQLite file's write-ahead log (PASSIVE: it never waits for, nor holds up, a writer or
 * a reader), so the connection that writes it, on the request thread, never does: a checkpoint copies the log into
 * the file and syncs both, milliseconds to tens of milliseconds on a busy disk (ADR-25).
 */
class WalCheckpointer {
  private readonly worker: Worker;
  /** Checkpoints made that moved frames into the file (for tests). */
  checkpoints = 0;

  constructor(file: string, everyMs: number) {
    const sqlite = JSON.stringify(require.resolve('better-sqlite3'));
    this.worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      const db = new (require(${sqlite}))(workerData.file);
      db.pragma('busy_timeout = 1000');
      const checkpoint = () => {
        try {
          const [row] = db.pragma('wal_checkpoint(PASSIVE)');
          if (row && row.checkpointed > 0) parentPort.postMessage(row.checkpointed);
        } catch {}
      };
      const timer = setInterval(checkpoint, workerData.everyMs);
      parentPort.on('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });`,
      { eval: true, workerData: { file, everyMs } },
    );
    this.worker.on('message', () => void this.checkpoints++);
    this.worker.on('error', () => undefined); // a checkpoint not made leaves a longer log, nothing else
    this.worker.unref();
  }

  close(): void {
    this.worker.postMessage('close');
  }
}

/**
 * The key index in SQLite: a file in the data folder (rebuilt from the stream if lost: a lost tail only lowers
 * the watermark), or `:memory:`. Several processes may share the file; each writes only keys it folded from the
 * stream, and a watermark only ever moves forward. Recorded keys are held in memory (and answer lookups) for up to
 * WRITE_BEHIND_MS, then written with the watermark they complete in one transaction: a keyed bet no longer costs a
 * SQLite commit on the request thread, and a crash loses held keys only with their watermark (ADR-25). A file's
 * log is checkpointed by a thread of its own.
 */
export class SqliteKeyIndex implements KeyIndex {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly writeTx: (held: ReadonlyMap<string, HeldKeys>) => void;
  private readonly checkpointer: WalCheckpointer | null = null;
  private readonly held = new Map<string, HeldKeys>();
  private heldCount = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly writeBehindMs: number;

  /** `writeBehindMs` 0: every record is written at once. */
  constructor(
    file: string,
    options: { readonly checkpointEveryMs?: number; readonly writeBehindMs?: number } = {},
  ) {
    this.writeBehindMs = options.writeBehindMs ?? WRITE_BEHIND_MS;
    preparePrivateSqliteFile(file); // owner-only (0600, and so its WAL), whatever the umask (ADR-18)
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // The stream is the truth: a power loss may lose the newest rows together with the watermark that covers them
    // (WAL with NORMAL never tears a commit, so no row is lost below a watermark that survived).
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    if (!this.db.memory) {
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = new WalCheckpointer(file, options.checkpointEveryMs ?? CHECKPOINT_EVERY_MS);
    }
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_keys (
        table_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        reply TEXT NOT NULL,
        revision INTEGER NOT NULL,
        recorded_at TEXT NOT NULL,
        PRIMARY KEY (table_id, key)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS idempotency_keys_recorded_at ON idempotency_keys (recorded_at);
      CREATE TABLE IF NOT EXISTS idempotency_watermarks (
        table_id TEXT PRIMARY KEY,
        revision INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
    this.db.defaultSafeIntegers(true);
    this.stmts = {
      get: this.db.prepare<[string, string], { request_hash: string; reply: string }>(
        'SELECT request_hash, reply FROM idempotency_keys WHERE table_id = ? AND key = ?',
      ),
      insert: this.db.prepare(
        'INSERT OR IGNORE INTO idempotency_keys (table_id, key, request_hash, reply, revision, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      watermark: this.db.prepare<[string], { revision: bigint }>(
        'SELECT revision FROM idempotency_watermarks WHERE table_id = ?',
      ),
      setWatermark: this.db.prepare(
        `INSERT INTO idempotency_watermarks (table_id, revision) VALUES (?, ?)
         ON CONFLICT (table_id) DO UPDATE SET revision = max(revision, excluded.revision)`,
      ),
      prune: this.db.prepare(
        `DELETE FROM idempotency_keys WHERE (table_id, key) IN
           (SELECT table_id, key FROM idempotency_keys WHERE recorded_at < ? LIMIT ?)`,
      ),
      forgetKeys: this.db.prepare('DELETE FROM idempotency_keys WHERE table_id = ?'),
      forgetWatermark: this.db.prepare('DELETE FROM idempotency_watermarks WHERE table_id = ?'),
    };
    this.writeTx = this.db.transaction((held: ReadonlyMap<string, HeldKeys>) => {
      for (const [tableId, keys] of held) this.write(tableId, keys);
    });
  }

  get(tableId: string, key: string): StoredReply | undefined {
    const held = this.held.get(tableId)?.entries.get(key);
    if (held) return { hash: held.hash, reply: JSON.parse(held.replyJson) as unknown };
    const row = this.stmts.get.get(tableId, key);
    return row ? { hash: row.request_hash, reply: JSON.parse(row.reply) as unknown } : undefined;
  }

  watermark(tableId: string): bigint {
    const written = this.stmts.watermark.get(tableId)?.revision ?? -1n;
    const held = this.held.get(tableId)?.complete ?? null;
    return held !== null && held > written ? held : written;
  }

  private write(tableId: string, keys: HeldKeys): void {
    for (const [key, e] of keys.entries)
      this.stmts.insert.run(tableId, key, e.hash, e.replyJson, e.revision, e.recordedAt);
    if (keys.complete !== null) this.stmts.setWatermark.run(tableId, keys.complete);
  }

  /** Holds the entries (the first answer of a key wins) and the watermark, written within WRITE_BEHIND_MS. */
  record(tableId: string, entries: readonly KeyEntry[], complete: bigint | null): void {
    if (entries.length === 0 && complete === null) return;
    let held = this.held.get(tableId);
    if (!held) this.held.set(tableId, (held = { entries: new Map(), complete: null }));
    for (const e of entries) {
      if (held.entries.has(e.key)) continue;
      const replyJson = JSON.stringify(e.reply ?? null);
      held.entries.set(e.key, { hash: e.hash, replyJson, revision: e.revision, recordedAt: e.recordedAt });
      this.heldCount++;
    }
    if (complete !== null && complete >= 0n && (held.complete === null || complete > held.complete))
      held.complete = complete;
    if (this.writeBehindMs === 0 || this.heldCount >= WRITE_BEHIND_MAX) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flushLater(), this.writeBehindMs).unref();
  }

  /** Writes every held key and watermark in one transaction; if that fails they stay held (throws). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.held.size === 0) return;
    this.writeTx(this.held);
    this.held.clear();
    this.heldCount = 0;
  }

  private flushLater(): void {
    try {
      this.flush();
    } catch {
      // Held keys still answer lookups here; written with the next record or after the next wait.
      this.flushTimer ??= setTimeout(() => this.flushLater(), this.writeBehindMs).unref();
    }
  }

  forget(tableId: string): void {
    this.heldCount -= this.held.get(tableId)?.entries.size ?? 0;
    this.held.delete(tableId);
    this.db.transaction(() => {
      this.stmts.forgetKeys.run(tableId);
      this.stmts.forgetWatermark.run(tableId);
    })();
  }

  prune(before: string, limit = -1): number {
    this.flush();
    return Number(this.stmts.prune.run(before, limit).changes);
  }

  /** Checkpoints its thread made that moved frames into the file (tests). */
  get checkpoints(): number {
    return this.checkpointer?.checkpoints ?? 0;
  }

  close(): void {
    try {
      if (this.db.open) this.flush();
    } finally {
      this.checkpointer?.close();
      if (this.db.open) this.db.close();
    }
  }
}
