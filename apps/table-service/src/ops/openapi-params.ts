/**
 * Path parameters typed in the OpenAPI document: Nest documents every `@Param` as a plain string; the routes take
 * a round number (integer from 1), a card index (0 to 5), and table and player ids of the decider's patterns.
 * One place, by parameter name, so every route (and every later one) reads the same.
 */
import type { OpenAPIObject } from '@nestjs/swagger';
import { PLAYER_ID_PATTERN, TABLE_ID_PATTERN } from '@coup/table';

const SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = {
  roundNo: { type: 'integer', minimum: 1, example: 1 },
  index: { type: 'integer', minimum: 0, maximum: 5, description: 'dealing order: P B P B P3 B3', example: 3 },
  tableId: { type: 'string', pattern: TABLE_ID_PATTERN.source, example: 'T1' },
  playerId: { type: 'string', pattern: PLAYER_ID_PATTERN.source, example: 'p1' },
};

/** The document with its known path parameters typed (the document is changed in place and returned). */
export function typePathParameters(doc: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as {
      parameters?: { in?: string; name?: string; schema?: unknown }[];
    }[]) {
      for (const p of op?.parameters ?? []) {
        const schema = p.in === 'path' && p.name !== undefined ? SCHEMAS[p.name] : undefined;
        if (schema) p.schema = schema;
      }
    }
  }
  return doc;
}
