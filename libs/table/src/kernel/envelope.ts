/** The envelope: `{ type, data, meta }` read by its own fields, the type known, the data's fields its spec's. */
import { ACTOR_ID_MAX_LENGTH, type CommandMeta, ISO_INSTANT_PATTERN, ROLES, type Role } from '../vocabulary';
import { type Data, isPlainObject, ownFields } from './fields';
import { Refusal, describe, refuse } from './refusal';
import type { AnySpec } from './spec';

export interface Envelope {
  readonly spec: AnySpec;
  readonly data: Data;
  readonly meta: CommandMeta;
  readonly atMs: number;
}

/** Reads the command by its own fields only (see ownFields): `data` is handed on as such a copy. */
export function envelope(raw: unknown, specs: Readonly<Record<string, AnySpec>>): Envelope | Refusal {
  if (!isPlainObject(raw)) return refuse('INVALID_COMMAND', 'A command is an object { type, data, meta }');
  const command = ownFields(raw);
  const type = command['type'];
  if (typeof type !== 'string' || !Object.hasOwn(specs, type)) {
    return refuse('INVALID_COMMAND', `Unknown command type ${describe(type)}`, { field: 'type' });
  }
  const spec = specs[type] as AnySpec;
  const data = dataOf(command['data'], spec);
  if (data instanceof Refusal) return data;
  const meta = metaOf(command['meta']);
  if (meta instanceof Refusal) return meta;
  return { spec, data, ...meta };
}

function dataOf(raw: unknown, spec: AnySpec): Data | Refusal {
  const rawData = raw === undefined ? {} : raw;
  if (!isPlainObject(rawData)) return refuse('INVALID_COMMAND', 'data must be an object', { field: 'data' });
  const data = ownFields(rawData);
  const allowed: readonly string[] = spec.fields;
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key) && data[key] !== undefined) {
      return refuse(
        'INVALID_COMMAND',
        `${spec.type} takes no field ${describe(key)} (fields: ${allowed.join(', ') || 'none'})`,
        {
          field: key,
        },
      );
    }
  }
  return data;
}

function metaOf(rawMeta: unknown): { meta: CommandMeta; atMs: number } | Refusal {
  const meta = isPlainObject(rawMeta) ? ownFields(rawMeta) : null;
  if (meta === null || !isPlainObject(meta['actor'])) {
    return refuse('INVALID_COMMAND', 'meta must be { actor: { id, role }, at }', { field: 'meta' });
  }
  const actor = ownFields(meta['actor']);
  const id = actor['id'];
  const role = actor['role'];
  if (typeof id !== 'string' || id.length < 1 || id.length > ACTOR_ID_MAX_LENGTH) {
    return refuse('INVALID_COMMAND', 'meta.actor.id must be 1 to 128 characters', { field: 'meta.actor.id' });
  }
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    return refuse('INVALID_COMMAND', `meta.actor.role must be one of ${ROLES.join(', ')}`, {
      field: 'meta.actor.role',
    });
  }
  const at = meta['at'];
  const atMs = typeof at === 'string' && ISO_INSTANT_PATTERN.test(at) ? Date.parse(at) : NaN;
  if (!Number.isFinite(atMs)) {
    return refuse('INVALID_COMMAND', `meta.at must be an ISO-8601 instant, got ${describe(at)}`, {
      field: 'meta.at',
    });
  }
  return { meta: { actor: { id, role: role as Role }, at: at as string }, atMs };
}
