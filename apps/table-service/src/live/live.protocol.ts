import { TABLE_ID_PATTERN } from '@coup/table';

/** The commands a socket may send for a table, answered by an `ack` frame with the REST route's answer. */
export type CommandType = 'bet' | 'clear' | 'rebet';

/** A socket command: its idempotency key and its fields as sent (checked as the REST route checks them). */
export interface CommandMessage {
  readonly type: CommandType;
  /** The Idempotency-Key: 1 to 128 characters (a string, so it can be echoed; its characters are checked later). */
  readonly key: string;
  /** The fields the REST route takes from its path and body, as sent (validated by the route's own rules). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * The live push's client messages, checked field by field against this schema before anything uses them. Only a
 * JSON object's own keys are read, and a key the schema does not name (`__proto__`, `constructor`, a typo) is
 * refused, so nothing a client sends reaches a prototype or a handler unchecked.
 */
export type ClientMessage =
  | {
      readonly type: 'subscribe';
      readonly tableId: string;
      /** The last revision the client has seen (-1: none); absent for a fresh view. */
      readonly fromRevision?: bigint;
      /** Every event as it comes (staff consoles), rather than other players' bets as periodic totals. */
      readonly every?: boolean;
    }
  | { readonly type: 'unsubscribe' }
  | { readonly type: 'ping'; readonly id?: string | number }
  | CommandMessage;

/** Why a message was refused: a 400 with a stable code, sent back as an error frame. */
export interface Refusal {
  readonly code: 'INVALID_JSON' | 'INVALID_MESSAGE';
  readonly message: string;
}

/** The highest revision a client may name: a JavaScript number keeps integers exact only up to here. */
const MAX_REVISION = Number.MAX_SAFE_INTEGER;
const PING_ID_MAX = 64;
const KEY_MAX = 128;

const FIELDS: Readonly<Record<ClientMessage['type'], readonly string[]>> = {
  subscribe: ['type', 'tableId', 'fromRevision', 'every'],
  unsubscribe: ['type'],
  ping: ['type', 'id'],
  bet: ['type', 'key', 'tableId', 'roundNo', 'playerId', 'spot', 'amount'],
  clear: ['type', 'key', 'tableId', 'roundNo', 'playerId'],
  rebet: ['type', 'key', 'tableId', 'roundNo', 'playerId'],
};

const TYPES = new Set<unknown>(Object.keys(FIELDS));

const USAGE =
  'send { "type": "subscribe", "tableId": "T1", "fromRevision"?: n, "every"?: true }, { "type": "unsubscribe" }, ' +
  '{ "type": "ping" }, or a command: { "type": "bet" | "clear" | "rebet", "key": "<idempotency key>", ... }';

const refuse = (message: string, code: Refusal['code'] = 'INVALID_MESSAGE') =>
  ({ ok: false, refusal: { code, message } }) as const;

type Parsed =
  { readonly ok: true; readonly message: ClientMessage } | { readonly ok: false; readonly refusal: Refusal };

/** Parses one text frame into a message of the protocol, or says why it is refused. Never throws. */
export function parseClientMessage(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('messages are JSON objects', 'INVALID_JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse(USAGE);
  const fields = value as Record<string, unknown>;
  const type = Object.hasOwn(fields, 'type') ? fields['type'] : undefined;
  if (!TYPES.has(type)) return refuse(USAGE);
  const kind = type as ClientMessage['type'];
  const allowed = FIELDS[kind];
  for (const key of Object.keys(fields)) {
    if (!allowed.includes(key))
      return refuse(
        `'${key.slice(0, 40)}' is not a field of a ${kind} message (fields: ${allowed.join(', ')})`,
      );
  }
  const own = (key: string): unknown => (Object.hasOwn(fields, key) ? fields[key] : undefined);

  switch (kind) {
    case 'unsubscribe':
      return { ok: true, message: { type: kind } };
    case 'ping':
      return pingOf(own('id'));
    case 'subscribe':
      return subscribeOf(own);
    default:
      return commandOf(kind, fields, own);
  }
}

function pingOf(id: unknown): Parsed {
  if (id === undefined) return { ok: true, message: { type: 'ping' } };
  if (
    (typeof id === 'string' && id.length <= PING_ID_MAX) ||
    (typeof id === 'number' && Number.isSafeInteger(id))
  )
    return { ok: true, message: { type: 'ping', id } };
  return refuse(`a ping's id is a string of at most ${PING_ID_MAX} characters or a whole number`);
}

function subscribeOf(own: (key: string) => unknown): Parsed {
  const tableId = own('tableId');
  if (typeof tableId !== 'string' || !TABLE_ID_PATTERN.test(tableId))
    return refuse('tableId must be 1 to 64 letters, digits, _ or -');
  const from = revisionOf(own('fromRevision'));
  if (from === null)
    return refuse(`fromRevision must be a whole number from -1 (nothing seen yet) to ${MAX_REVISION}`);
  const every = own('every');
  if (every !== undefined && typeof every !== 'boolean') return refuse('every must be true or false');
  return {
    ok: true,
    message: {
      type: 'subscribe',
      tableId,
      ...(from === undefined ? {} : { fromRevision: from }),
      ...(every === true ? { every } : {}),
    },
  };
}

/**
 * A command needs a key the ack can echo (a string of at most 128 characters); its other fields are handed on as
 * sent, to be checked by the REST route's own rules (so a bad amount gets the route's 400, in an ack).
 */
function commandOf(
  type: CommandType,
  fields: Record<string, unknown>,
  own: (key: string) => unknown,
): Parsed {
  const key = own('key');
  if (typeof key !== 'string' || key.length === 0 || key.length > KEY_MAX)
    return refuse(`a ${type} needs a key: its Idempotency-Key, 1 to ${KEY_MAX} visible ASCII characters`);
  // Only the schema's own names are copied (none of them a prototype member), into a plain object.
  const rest: Record<string, unknown> = {};
  for (const name of FIELDS[type])
    if (name !== 'type' && name !== 'key' && Object.hasOwn(fields, name)) rest[name] = fields[name];
  return { ok: true, message: { type, key, fields: rest } };
}

/** A revision given as a number or a string of digits; `undefined` when absent, `null` when not a valid one. */
function revisionOf(value: unknown): bigint | undefined | null {
  if (value === undefined) return undefined;
  let n: number;
  if (typeof value === 'string' && /^(-1|0|[1-9]\d{0,15})$/.test(value)) n = Number(value);
  else if (typeof value === 'number') n = value;
  else return null;
  return Number.isSafeInteger(n) && n >= -1 && n <= MAX_REVISION ? BigInt(n) : null;
}
