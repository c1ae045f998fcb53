/**
 * Idempotency-Key on the admins' staff commands, as on the table commands (ADR-5, ADR-14): a keyed command's events
 * get ids derived from (the staff key space, key, index) and its last event keeps the request's hash and the first
 * accepted answer. The staff stream is folded whole by every process (StaffStore), so its keys are folded with it
 * here: no key index file, and a key is found after a restart and on any process once its catch-up has read it.
 * StaffStore asks `recorded` after every catch-up, so a duplicate sent at once, or to another process, is never
 * decided twice. A keyed command that changes nothing is recorded as one StaffCommandUnchanged stamped here like
 * any last event, so its key is kept too (ADR-43).
 */
import { createHmac } from 'node:crypto';
import type { KeyedStaffCommand, staff } from '@coup/auth';
import type { JsonValue, RecordedEvent } from '@coup/event-store';
import { eventIdFor, firstAnswer, keyExpired, requestHash, type KeyEntry } from '../tables/idempotency';
import { keysCutoff } from '../tables/key-index-fill';
import { keyEntryOf } from '../tables/key-replies';

/** The ids' key space: no table id holds a '$', so a staff key's event ids are never a table key's. */
const KEY_SPACE = '$staff';

/** A keyed staff command: its key and the hash of its caller and request. */
export interface StaffKey {
  readonly key: string;
  readonly hash: string;
}

/** Staff answers are always kept whole in the event (they are small); one kept otherwise is not the service's. */
const notKeptWhole = (): never => {
  throw new Error(
    'a staff command kept its answer as events: the staff stream was not written by this service',
  );
};

export class StaffKeys {
  private readonly entries = new Map<string, KeyEntry>();

  /**
   * @param passwordKey keys the hash of a password in a request's hash (kept in the stream: a plain hash of a
   *   password there could be guessed offline).
   */
  constructor(
    private readonly days: number,
    private readonly passwordKey: Buffer,
  ) {}

  /** Folds the keys the staff events read carry (StaffStore's onRead); a key's first answer wins. */
  readonly fold = async (events: readonly RecordedEvent[]): Promise<void> => {
    for (const e of events) {
      const entry = await keyEntryOf(e, [], notKeptWhole);
      if (entry && !this.entries.has(entry.key)) this.entries.set(entry.key, entry);
    }
  };

  /** The key of a request of `type` by `caller` with `data` (a `password` in it is hashed with the key). */
  keyOf(
    key: string,
    type: string,
    caller: { readonly role: string; readonly id: string },
    data: Readonly<Record<string, unknown>>,
  ): StaffKey {
    const password = data['password'];
    const blinded =
      typeof password === 'string'
        ? { ...data, password: createHmac('sha256', this.passwordKey).update(password).digest('hex') }
        : data;
    return { key, hash: requestHash(type, caller, blinded) };
  }

  /** What StaffStore asks of a keyed command; `reply` makes its answer from the directory after its events. */
  keyed(
    { key, hash }: StaffKey,
    type: string,
    reply: (after: staff.StaffDirectory) => JsonValue,
  ): KeyedStaffCommand {
    return {
      recorded: () => this.entries.has(key),
      stamp: (index, last, after) => ({
        id: eventIdFor(KEY_SPACE, key, index),
        metadata: {
          commandId: key,
          commandType: type,
          ...(last ? { requestHash: hash, reply: reply(after) } : {}),
        },
      }),
    };
  }

  /**
   * The answer to a command whose key StaffStore found recorded: the first answer for the same caller and request;
   * 422 IDEMPOTENCY_KEY_REUSED for another, IDEMPOTENCY_KEY_EXPIRED past COUP_IDEMPOTENCY_DAYS.
   */
  answer({ key, hash }: StaffKey): unknown {
    const first = this.entries.get(key);
    if (!first) throw new Error(`the staff key ${key} was found recorded and is not folded`);
    if (first.recordedAt < keysCutoff(this.days)) throw keyExpired(this.days);
    const answer = firstAnswer(first, hash);
    if (!answer.ok) throw answer.error;
    return answer.reply;
  }
}
