/**
 * The error answers in the OpenAPI document: one `ErrorResponse` schema (the exception filter's format), and for
 * each operation every status it can answer with the stable codes of that status. The codes come from what the
 * operation is: a token (UNAUTHENTICATED, FORBIDDEN where the access matrix refuses a role), a command's body and
 * limits, path parameters, an Idempotency-Key, the table commands it sends (their refusals from the decider's
 * specs, command-refusals.ts), and what a route declares of its own (`@ApiRefusals`). Statuses and meanings are
 * the catalogue's (error-catalogue.ts).
 */
import { ApiExtension, type OpenAPIObject } from '@nestjs/swagger';
import type { DomainErrorCode, TableCommandType } from '@coup/table';
import { ACCESS } from '../common/access';
import { commandRefusals } from './command-refusals';
import {
  ANY_REQUEST_CODES,
  COMMAND_CODES,
  ERROR_CODES,
  TABLE_READ_CODES,
  type ErrorCodeInfo,
  type ServiceErrorCode,
} from './error-catalogue';

export const ERROR_SCHEMA = 'ErrorResponse';
export const ERROR_SCHEMA_REF = `#/components/schemas/${ERROR_SCHEMA}`;
const REFUSALS = 'x-coup-refusals';
const SENDS = 'x-coup-sends';
const READS = 'x-coup-reads-read-models';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface Sends {
  readonly types: readonly TableCommandType[];
  readonly renamed: Readonly<Partial<Record<DomainErrorCode, ServiceErrorCode>>>;
}
interface Operation {
  parameters?: readonly { readonly in?: string; readonly name?: string }[];
  requestBody?: unknown;
  security?: readonly unknown[];
  responses?: Record<string, unknown>;
  [REFUSALS]?: readonly ServiceErrorCode[];
  [SENDS]?: Sends;
  [READS]?: boolean;
}

/** The codes a route answers beyond what its shape says (its own checks, its reads). */
export function ApiRefusals(...codes: readonly ServiceErrorCode[]): MethodDecorator {
  return ApiExtension(REFUSALS, codes);
}

/** On a controller: each of its routes reads the read models, so may answer READ_MODELS_UNAVAILABLE. */
export function ApiReadsReadModels(): ClassDecorator {
  return ApiExtension(READS, true) as ClassDecorator;
}

/**
 * The table commands a route sends to the decider: each one's refusals are listed. `renamed`: decider codes the
 * route answers with another code.
 */
export function ApiSends(
  types: TableCommandType | readonly TableCommandType[],
  renamed: Sends['renamed'] = {},
): MethodDecorator {
  return ApiExtension(SENDS, { types: [types].flat(), renamed } satisfies Sends);
}

/** The shape of every error answer (common/exception.filter.ts). */
function errorSchema(): Record<string, unknown> {
  return {
    type: 'object',
    description:
      'Every refusal, in one format. Match on `code` (stable), never on `message` (for people; it may change).',
    required: ['statusCode', 'code', 'message'],
    additionalProperties: false,
    properties: {
      statusCode: { type: 'integer', description: 'the HTTP status of the answer', example: 409 },
      code: {
        type: 'string',
        description:
          'what went wrong, stable: one of these codes (an HTTP error of the framework with no code of its own reads HTTP_<status>)',
        anyOf: [{ enum: Object.keys(ERROR_CODES).sort() }, { pattern: '^HTTP_[45][0-9][0-9]$' }],
        example: 'WRONG_PHASE',
      },
      message: { type: 'string', description: 'for people', example: 'Not now: the table is in phase idle' },
      details: {
        type: 'object',
        additionalProperties: true,
        description:
          'for programs, by code: `field` (the parameter or body field at fault), `retryAfterSeconds` (429, also ' +
          'in Retry-After), `until` (ACCOUNT_LOCKED), `spot`, `min`, `max`, `spotTotal` (BET_LIMIT), `players` ' +
          '(PLAYERS_SEATED), the phase and round of a phase or round refusal',
        properties: {
          field: { type: 'string' },
          retryAfterSeconds: { type: 'integer', minimum: 1 },
        },
      },
      correlationId: {
        type: 'string',
        description: "the request's correlation id (also the x-correlation-id answer header), in the logs",
      },
    },
  };
}

/** `METHOD /path/:param` rows of the access matrix whose route refuses some role (`no` or `own`). */
const RESTRICTED: ReadonlySet<string> = new Set(
  ACCESS.filter((row) => Object.values(row.access).some((a) => a !== 'yes')).map((row) => row.route),
);

/** The operation's codes: its own first (the commands it sends, what it declares), then what its shape gives. */
function codesOf(method: string, path: string, op: Operation): ServiceErrorCode[] {
  const codes = new Set<ServiceErrorCode>(['INTERNAL_ERROR']);
  const own = new Set<ServiceErrorCode>(op[REFUSALS] ?? []);
  const add = (list: readonly ServiceErrorCode[]) => list.forEach((c) => codes.add(c));
  const params = op.parameters ?? [];
  const sends = op[SENDS];
  if ((op.security ?? []).length > 0) {
    add(['UNAUTHENTICATED', 'TOO_MANY_AUTH_FAILURES']);
    const route = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
    // The route's roles, a token limited to tables, or the decider's own role checks.
    if (RESTRICTED.has(route) || path.includes('{tableId}') || sends) add(['FORBIDDEN']);
  }
  if (path.startsWith('/api/') && method !== 'get') add(COMMAND_CODES);
  if (op.requestBody) add(['VALIDATION_FAILED']);
  if (op[READS]) add(['READ_MODELS_UNAVAILABLE']);
  if (params.some((p) => p.in === 'path')) add(['INVALID_PARAMETER', 'PARAMETER_TOO_LONG']);
  if (params.some((p) => p.in === 'query' && p.name === 'cursor')) add(['INVALID_CURSOR']);
  if (params.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key'))
    add(['INVALID_IDEMPOTENCY_KEY', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_EXPIRED']);
  if (sends) {
    add([...TABLE_READ_CODES, 'STORE_INCONSISTENT']);
    for (const type of sends.types)
      for (const code of commandRefusals(type)) own.add(sends.renamed[code] ?? code);
  }
  return [...new Set([...[...own].sort(), ...[...codes].sort()])];
}

function infoOf(code: string): ErrorCodeInfo {
  const info = ERROR_CODES[code];
  if (!info) throw new Error(`the OpenAPI document lists ${code}, which is not in the error catalogue`);
  return info;
}

/**
 * One response per status: its codes, each with its meaning (the first is the example), and the schema narrowed
 * to them.
 */
function errorResponses(codes: readonly ServiceErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const { status } = infoOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const [first = 'INTERNAL_ERROR'] = list;
    responses[String(status)] = {
      description: list.map((code) => `- \`${code}\`: ${infoOf(code).meaning}`).join('\n'),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: ERROR_SCHEMA_REF },
              { type: 'object', properties: { statusCode: { enum: [status] }, code: { enum: list } } },
            ],
          },
          example: { statusCode: status, code: first, message: infoOf(first).meaning },
        },
      },
    };
  }
  return responses;
}

const ANY_REQUEST_NOTE =
  '\n\n**Errors.** Every refusal is an `ErrorResponse` `{ statusCode, code, message, details?, correlationId? }` ' +
  'with a stable `code`; each operation lists the statuses and codes it can answer. Any request, whatever its ' +
  'route, may also be refused before it reaches one:\n\n' +
  ANY_REQUEST_CODES.map((c) => `- ${infoOf(c).status} \`${c}\`: ${infoOf(c).meaning}`).join('\n');

/** The document with its error answers (changed in place and returned). */
export function documentErrors(doc: OpenAPIObject): OpenAPIObject {
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, [ERROR_SCHEMA]: errorSchema() },
  };
  doc.info.description = `${doc.info.description ?? ''}${ANY_REQUEST_NOTE}`;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      const codes = codesOf(method, path, op);
      delete op[REFUSALS];
      delete op[SENDS];
      delete op[READS];
      op.responses = { ...op.responses, ...errorResponses(codes) };
    }
  }
  return doc;
}
