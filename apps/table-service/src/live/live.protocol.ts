import { TABLE_ID_PATTERN } from '@coup/table';

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
    }
  | { readonly type: 'unsubscribe' }
  | { readonly type: 'ping'; readonly id?: string | number };

/** Why a message was refused: a 400 with a stable code, sent back as an error frame. */
export interface Refusal {
  readonly code: 'INVALID_JSON' | 'INVALID_MESSAGE';
  readonly message: string;
}

/** The highest revision a client may name: a JavaScript number keeps integers exact only up to here. */
const MAX_REVISION = Number.MAX_SAFE_INTEGER;
const PING_ID_MAX = 64;

const FIELDS: Readonly<Record<ClientMessage['type'], readonly string[]>> = {
  subscribe: ['type', 'tableId', 'fromRevision'],
  unsubscribe: ['type'],
  ping: ['type', 'id'],
};

const USAGE =
  'send { "type": "subscribe", "tableId": "T1", "fromRevision"?: n }, { "type": "unsubscribe" } or { "type": "ping" }';

const refuse = (message: string, code: Refusal['code'] = 'INVALID_MESSAGE') =>
  ({ ok: false, refusal: { code, message } }) as const;

/** Parses one text frame into a message of the protocol, or says why it is refused. Never throws. */
export function parseClientMessage(
  text: string,
):
  { readonly ok: true; readonly message: ClientMessage } | { readonly ok: false; readonly refusal: Refusal } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('messages are JSON objects', 'INVALID_JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse(USAGE);
  const fields = value as Record<string, unknown>;
  const type = Object.hasOwn(fields, 'type') ? fields['type'] : undefined;
  if (type !== 'subscribe' && type !== 'unsubscribe' && type !== 'ping') return refuse(USAGE);
  const allowed = FIELDS[type];
  for (const key of Object.keys(fields)) {
    if (!allowed.includes(key))
      return refuse(
        `'${key.slice(0, 40)}' is not a field of a ${type} message (fields: ${allowed.join(', ')})`,
      );
  }
  const own = (key: string): unknown => (Object.hasOwn(fields, key) ? fields[key] : undefined);

  if (type === 'unsubscribe') return { ok: true, message: { type } };
  if (type === 'ping') {
    const id = own('id');
    if (id === undefined) return { ok: true, message: { type } };
    if (
      (typeof id === 'string' && id.length <= PING_ID_MAX) ||
      (typeof id === 'number' && Number.isSafeInteger(id))
    )
      return { ok: true, message: { type, id } };
    return refuse(`a ping's id is a string of at most ${PING_ID_MAX} characters or a whole number`);
  }
  const tableId = own('tableId');
  if (typeof tableId !== 'string' || !TABLE_ID_PATTERN.test(tableId))
    return refuse('tableId must be 1 to 64 letters, digits, _ or -');
  const from = revisionOf(own('fromRevision'));
  if (from === null)
    return refuse(`fromRevision must be a whole number from -1 (nothing seen yet) to ${MAX_REVISION}`);
  return {
    ok: true,
    message: from === undefined ? { type, tableId } : { type, tableId, fromRevision: from },
  };
}

/** A revision given as a number or a string of digits; `undefined` when absent, `null` when not a valid one. */
function revisionOf(value: unknown): bigint | undefined | null {
  if (value === undefined) return undefined;
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^(-1|0|[1-9]\d{0,15})$/.test(value)) n = Number(value);
  else return null;
  return Number.isSafeInteger(n) && n >= -1 && n <= MAX_REVISION ? BigInt(n) : null;
}
