// The EventStoreDB adapter's append: chain the events onto the stream's head (read from the leader), check the
// append's size as the server counts it, send it with the head's revision as the expected revision, and when the
// answer is lost (a commit timeout, a dropped connection, no answer in time) find out what happened before answering.
import type * as Esdb from '@eventstore/db-client';
import {
  chainRows,
  expectedRevisionMatches,
  firstOf,
  type Head,
  lastOf,
  matchReplay,
  type NewRow,
  replayPlace,
} from './core';
import {
  EventStoreInputError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from './errors';
import { appendSize, concreteExpectedRevision, mapClientError, packMetadata } from './eventstoredb-mapping';
import { type EsdbClientLike, type EsdbStreamReads, errorType, pause } from './eventstoredb-reads';
import type { AppendResult, ExpectedRevision, JsonValue } from './types';
import type { PreparedEvent } from './validation';

export interface AppendSettings {
  /** How often an append re-reads the head after losing a race. */
  readonly maxAppendAttempts: number;
  /** An append the server has not answered in this long has an unknown outcome. */
  readonly appendTimeoutMs: number;
  /** How often an append with an unknown outcome is looked for, and sent again, before the outcome is reported unknown. */
  readonly outcomeAttempts: number;
}

/** What became of one send. */
type Sent =
  | { readonly kind: 'written'; readonly revision: bigint; readonly position: bigint | null }
  /** Not written: the stream was not at the expected revision (or the node was not the leader). */
  | { readonly kind: 'retry' }
  /** The answer was lost: written or not, nobody knows yet. */
  | { readonly kind: 'unknown'; readonly cause: unknown };

type Known = Exclude<Sent, { kind: 'unknown' }>;

/** The client's errors after which an append may or may not have been written. */
const OUTCOME_UNKNOWN = new Set(['timeout', 'deadline-exceeded', 'unavailable', 'cancelled', 'unknown']);

class AppendTimeout extends Error {}

/** A write on its way: the chained rows, the events as the client sends them, the head they were chained onto. */
interface Attempt {
  readonly stream: string;
  readonly head: Head | null;
  readonly rows: readonly NewRow[];
  readonly events: Esdb.EventData[];
}

/**
 * The rows chained onto `head`, the metadata each is sent with (its own and the chain's fields), and the append's
 * size as the server counts it against its MaxAppendSize.
 */
export function chained(
  stream: string,
  head: Head | null,
  prepared: readonly PreparedEvent[],
): { rows: NewRow[]; metadata: { [k: string]: JsonValue }[]; size: number } {
  const rows = chainRows(stream, head, prepared, '');
  const metadata = rows.map((row) =>
    packMetadata(JSON.parse(row.metadataJson) as { [k: string]: JsonValue }, row.prevHash, row.hash),
  );
  const size = appendSize(rows.map((row, i) => ({ ...row, metadataJson: JSON.stringify(metadata[i]) })));
  return { rows, metadata, size };
}

export class EsdbAppender {
  /** The server's maximum append size once known (configured, or named by its first refusal); null: not yet. */
  maxAppendSize: number | null;

  constructor(
    private readonly reads: EsdbStreamReads,
    private readonly settings: AppendSettings,
    maxAppendSize: number | null,
  ) {
    this.maxAppendSize = maxAppendSize;
  }

  async append(
    client: EsdbClientLike,
    lib: typeof Esdb,
    stream: string,
    prepared: PreparedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    let head: Head | null = null;
    for (let attempt = 0; attempt < this.settings.maxAppendAttempts; attempt++) {
      // The head, and for 'any'/'stream_exists' the tail a retried append would match; with an expected revision of
      // its own an append needs only the head.
      const numbered = typeof expected === 'bigint' || expected === 'no_stream';
      const tail = await this.reads.tail(stream, numbered ? 1 : prepared.length);
      const newest = tail[tail.length - 1];
      head = newest ? { revision: newest.revision, hash: newest.hash } : null;
      if (head === null) await this.refuseDeleted(stream);
      if (!expectedRevisionMatches(expected, head)) {
        const place = replayPlace(expected);
        if (place !== null) {
          const replay = matchReplay(
            stream,
            await this.reads.shapes(stream, place, prepared.length),
            prepared,
          );
          if (replay) return replay;
        }
        throw new WrongExpectedVersionError(stream, expected, head ? head.revision : 'no_stream');
      }
      if ((expected === 'any' || expected === 'stream_exists') && tail.length === prepared.length) {
        const replay = matchReplay(stream, tail, prepared); // a retry of the stream's latest append: no-op
        if (replay) return replay;
      }
      const write = this.prepare(lib, stream, head, prepared);
      const sent = await this.send(client, write);
      if (sent.kind === 'retry') {
        // Another process appended first: back off a little, re-read the head and try again.
        await pause(Math.random() * 5 * (attempt + 1));
        continue;
      }
      return this.written(write, sent);
    }
    throw new WrongExpectedVersionError(stream, expected, head ? head.revision : 'no_stream');
  }

  /**
   * The rows chained onto `head` and the events to send; refused when the server's maximum append size is known and
   * they are over it, measured as the server measures them. Until it is known the server decides, and its refusal
   * names it.
   */
  private prepare(lib: typeof Esdb, stream: string, head: Head | null, prepared: PreparedEvent[]): Attempt {
    const { rows, metadata, size } = chained(stream, head, prepared);
    if (this.maxAppendSize !== null && size > this.maxAppendSize) {
      throw new EventStoreInputError(
        'APPEND_TOO_LARGE',
        `An append of ${rows.length} event(s) to '${stream}' is ${size} bytes as EventStoreDB counts them (data, ` +
          `metadata with the chain fields, twice the type's length): over the server's maximum append size of ` +
          `${this.maxAppendSize} bytes. Nothing was written. Append fewer events at once, or raise the server's ` +
          `MaxAppendSize and this adapter's maxAppendSize with it`,
      );
    }
    const events = rows.map((row, i) =>
      lib.jsonEvent({
        id: row.id,
        type: row.type,
        data: JSON.parse(row.dataJson) as Esdb.JSONType,
        metadata: metadata[i],
      }),
    );
    return { stream, head, rows, events };
  }

  /**
   * A stream that reads as empty but whose metadata truncates it was soft-deleted: the server would number the
   * events after the deleted ones, where Coup's chain starts from genesis at revision 0.
   */
  private async refuseDeleted(stream: string): Promise<void> {
    let truncated = false;
    try {
      truncated = await this.reads.truncated(stream);
    } catch (error) {
      if (errorType((error as Error).cause) !== 'access-denied') throw error;
      // Not allowed to read the metadata: the revision the server answers is checked after the write instead.
    }
    if (truncated)
      throw new StreamDeletedError(
        stream,
        `Stream '${stream}' was deleted in EventStoreDB (soft delete: it reads as empty, and the server would number ` +
          `new events after the deleted ones, breaking Coup's chain). Nothing was written. Restore it by removing ` +
          `$tb from its metadata, or use another stream`,
      );
  }

  /** Sends once: written, to retry, or unknown (then found out). */
  private async send(client: EsdbClientLike, write: Attempt): Promise<Known> {
    const sent = await this.sendOnce(client, write);
    return sent.kind === 'unknown' ? this.findOut(client, write, sent.cause) : sent;
  }

  private async sendOnce(client: EsdbClientLike, write: Attempt): Promise<Sent> {
    const pending = client.appendToStream(write.stream, write.events, {
      expectedRevision: concreteExpectedRevision(write.head),
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = (await Promise.race([
        pending,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new AppendTimeout()), this.settings.appendTimeoutMs);
        }),
      ])) as { success?: boolean; nextExpectedRevision?: bigint; position?: { commit: bigint } };
      // With throwOnAppendFailure=false in the connection string the client answers a lost race this way.
      if (result.success === false) return { kind: 'retry' };
      return {
        kind: 'written',
        revision: result.nextExpectedRevision ?? -1n,
        position: result.position?.commit ?? null,
      };
    } catch (error) {
      pending.catch(() => undefined);
      return this.classify(error, write.stream);
    } finally {
      clearTimeout(timer);
    }
  }

  private classify(error: unknown, stream: string): Sent {
    if (error instanceof AppendTimeout) return { kind: 'unknown', cause: error };
    const type = errorType(error);
    if (type === 'wrong-expected-version' || type === 'not-leader') return { kind: 'retry' };
    if (type === 'maximum-append-size-exceeded') {
      const max = (error as { maxAppendSize?: unknown }).maxAppendSize;
      if (typeof max === 'number' && max > 0) this.maxAppendSize = max;
    }
    const mapped = mapClientError(error, stream, 'any');
    if (mapped instanceof EventStoreInputError || mapped instanceof StreamDeletedError) throw mapped;
    if (typeof type === 'string' && OUTCOME_UNKNOWN.has(type)) return { kind: 'unknown', cause: error };
    throw mapped;
  }

  /**
   * The answer was lost. Look at the place the events were chained for (on the leader): there, they were written;
   * another writer's events there, they never will be (the expected revision is exact); nothing there yet, send
   * them again, which the server writes once (it answers a retry of the same ids at the same revision with the
   * first write's result). Reported unknown only when the store cannot be asked.
   */
  private async findOut(client: EsdbClientLike, write: Attempt, cause: unknown): Promise<Known> {
    const first = firstOf(write.rows);
    let last: unknown = cause;
    for (let attempt = 0; attempt < this.settings.outcomeAttempts; attempt++) {
      if (attempt > 0) await pause(100 * 2 ** attempt);
      try {
        const at = await this.reads.shapes(write.stream, first.revision, write.rows.length);
        if (at[0]?.id === first.id) {
          // An append is atomic: its first event there means all of it is.
          const stored = lastOf(at);
          return { kind: 'written', revision: stored.revision, position: stored.globalPosition };
        }
        const [now] = await this.reads.tail(write.stream, 1);
        if ((now?.revision ?? -1n) !== (write.head?.revision ?? -1n)) return { kind: 'retry' };
        const again = await this.sendOnce(client, write);
        if (again.kind !== 'unknown') return again;
        last = again.cause;
      } catch (error) {
        if (!(error instanceof EventStoreUnavailableError && error.code === 'STORE_UNAVAILABLE')) throw error;
        last = error;
      }
    }
    throw new EventStoreUnavailableError(
      'STORE_OUTCOME_UNKNOWN',
      `EventStoreDB did not confirm the append of ${write.rows.length} event(s) to '${write.stream}' ` +
        `(${describe(cause)}) and could not be asked since whether it was written (${describe(last)}): it may or ` +
        `may not be recorded. Retry with the same event ids (the service: the same Idempotency-Key); they are ` +
        `recognized if they were`,
      { cause },
    );
  }

  /** The result of a written append, once the server's numbering is Coup's. */
  private async written(write: Attempt, sent: Extract<Sent, { kind: 'written' }>): Promise<AppendResult> {
    const last = lastOf(write.rows);
    if (sent.revision !== last.revision) {
      throw new StreamDeletedError(
        write.stream,
        `EventStoreDB recorded the append to '${write.stream}' at revision ${sent.revision} where Coup chained it ` +
          `at ${last.revision}: the stream was deleted or truncated in EventStoreDB meanwhile, and its chain is ` +
          `broken from there`,
      );
    }
    if (sent.position !== null) return { nextExpectedRevision: last.revision, position: sent.position };
    const [stored] = await this.reads.shapes(write.stream, last.revision, 1);
    if (!stored)
      throw new EventStoreUnavailableError(
        'STORE_UNAVAILABLE',
        `Appended to '${write.stream}' but cannot read it back`,
      );
    return { nextExpectedRevision: last.revision, position: stored.globalPosition };
  }
}

function describe(error: unknown): string {
  if (error instanceof AppendTimeout) return 'no answer in time';
  const e = error as { type?: unknown; message?: unknown } | null;
  const text = typeof e?.message === 'string' && e.message ? e.message : String(e?.type ?? error);
  return typeof e?.type === 'string' && !text.includes(e.type) ? `${e.type}: ${text}` : text;
}
