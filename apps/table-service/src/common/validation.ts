import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error';

function describeValidation(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) =>
      m.startsWith('property ') && m.endsWith('should not exist')
        ? `unknown field '${path}'`
        : m.replace(e.property, path),
    );
    return [...own, ...describeValidation(e.children ?? [], path)];
  });
}

/**
 * Keys the stock pipeline drops without a word: Nest's proto-key stripping deletes `prototype` and `constructor`,
 * and class-transformer skips every key its new object already has through the prototype (`toString`,
 * `hasOwnProperty`, `valueOf`...). No DTO has a field by such a name.
 */
function shadowsPrototype(key: string): boolean {
  return key === 'prototype' || Object.hasOwn(Object.prototype, key);
}

const RAW_FIELDS = Symbol('coup:raw-fields');

/**
 * A DTO property that is a free-form JSON object handed on as sent to its own parser (table rules to
 * normalizeRules), which reads own keys only and refuses unknown ones. The pipe checks that it is an object and
 * keeps it away from class-transformer, whose copy drops keys like `toString` and fails on a `constructor` key.
 */
export function RawObject(): PropertyDecorator {
  return (target, property) => {
    // Whitelisted for class-validator, which sees the property (undefined) on the new DTO without its value.
    IsOptional()(target, property);
    const fields = (Reflect.getOwnMetadata(RAW_FIELDS, target.constructor) ?? []) as string[];
    Reflect.defineMetadata(RAW_FIELDS, [...fields, String(property)], target.constructor);
  };
}

/** A DTO class and a check that accepts only bodies its class-validator rules accept. */
export type FastBodyChecks = ReadonlyMap<abstract new () => object, (body: unknown) => boolean>;

/**
 * The service's one validation pipe: class-validator on every DTO (unknown fields refused, 400
 * VALIDATION_FAILED with every problem named). For the DTOs of hot routes (a bet) a hand-written check runs
 * first: a body it accepts becomes the DTO at once, anything else goes through class-validator, which accepts
 * or refuses it with the usual message. So a fast check can only ever be narrower than the DTO's rules (a
 * property test holds each one to that), never change an answer.
 */
export class CoupValidationPipe extends ValidationPipe {
  constructor(private readonly fast: FastBodyChecks = new Map()) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: true,
      exceptionFactory: (errors) =>
        new ApiError(
          400,
          'VALIDATION_FAILED',
          describeValidation(errors).join('; ') || 'the request body is not valid',
        ),
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype as (new () => object) | undefined;
    if (metadata.type === 'body' && metatype) {
      const check = this.fast.get(metatype);
      if (check?.(value)) return Promise.resolve(Object.assign(new metatype(), value));
      const raw = (Reflect.getOwnMetadata(RAW_FIELDS, metatype) ?? []) as string[];
      if (raw.length > 0 && typeof value === 'object' && value !== null && !Array.isArray(value))
        return this.withRawFields(value, raw, metadata);
    }
    return super.transform(value, metadata);
  }

  /** Validates the body without its raw fields, then puts them back as sent (each an object, or null as absent). */
  private async withRawFields(body: object, fields: readonly string[], metadata: ArgumentMetadata) {
    const rest: Record<string, unknown> = { ...body };
    const raw: [string, unknown][] = [];
    for (const field of fields) {
      if (!Object.hasOwn(body, field)) continue;
      raw.push([field, rest[field]]);
      delete rest[field];
    }
    const entity = (await super.transform(rest, metadata)) as object;
    const notObjects = raw.filter(([, v]) => v !== null && (typeof v !== 'object' || Array.isArray(v)));
    if (notObjects.length > 0) {
      const message = notObjects.map(([field]) => `${field} must be an object`).join('; ');
      throw new ApiError(400, 'VALIDATION_FAILED', message);
    }
    for (const [field, value] of raw)
      Object.defineProperty(entity, field, { value, enumerable: true, writable: true });
    return entity;
  }

  /**
   * Refuses what Nest's version deletes: a key named like a prototype member, at any depth, is an unknown field
   * (400), never dropped as if unsent (nor left for class-transformer, which fails on a nested `constructor`). Raw
   * fields never come here: their own parsers refuse such keys (table rules: INVALID_RULES). A loop, not recursion.
   */
  protected override stripProtoKeys(value: unknown): void {
    const pending: [unknown, string][] = [[value, '']];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [node, path] = next;
      if (typeof node !== 'object' || node === null) continue;
      for (const key of Object.keys(node)) {
        const at = path === '' ? key : `${path}.${key}`;
        if (shadowsPrototype(key)) throw new ApiError(400, 'VALIDATION_FAILED', `unknown field '${at}'`);
        pending.push([(node as Record<string, unknown>)[key], at]);
      }
    }
  }
}

/**
 * Whether JSON text nests arrays and objects deeper than `max` (the outermost value is level 1). One pass over the
 * characters with a counter, no recursion and no parse, so a hostile body costs its length and nothing more; exact
 * for valid JSON (brackets inside strings, escaped quotes included, do not count), and invalid JSON is refused by
 * the parser anyway.
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character, a quote ends the string.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * The service's only body parser: `application/json` (any other media type is 415, as is a body without one). The
 * depth is checked before the text is parsed, so nothing recursive (Nest's proto-key stripping, class-transformer,
 * class-validator) ever sees a deep body: 400 JSON_TOO_DEEP. Then Fastify's own parser (secure-json-parse) parses
 * it and refuses `__proto__` and `constructor.prototype` keys (400 INVALID_JSON); the body limit is the server's.
 */
export function installJsonBodyParser(fastify: FastifyInstance, maxDepth: number): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDeeperThan(text, maxDepth)) {
      done(
        new ApiError(
          400,
          'JSON_TOO_DEEP',
          `the JSON body nests arrays and objects deeper than ${maxDepth} levels`,
        ),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
