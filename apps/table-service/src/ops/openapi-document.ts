/**
 * The OpenAPI document as served at /docs/openapi.json: Nest's generated document, finished with what its
 * decorators cannot say: typed path parameters, the error answers of every operation, the ledger's fields, and the
 * Idempotency-Key header on commands only (the controllers declare it once for all their routes).
 */
import type { OpenAPIObject } from '@nestjs/swagger';
import { documentErrors } from './openapi-errors';
import { documentLedger } from './openapi-ledger';
import { typePathParameters } from './openapi-params';

/** A read takes no Idempotency-Key: its header is dropped from GET operations. */
function keysOnCommandsOnly(doc: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(doc.paths)) {
    const get = item.get as { parameters?: { in?: string; name?: string }[] } | undefined;
    if (get?.parameters)
      get.parameters = get.parameters.filter(
        (p) => !(p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key'),
      );
  }
  return doc;
}

/** The document finished (changed in place and returned). */
export function finishDocument(doc: OpenAPIObject): OpenAPIObject {
  return documentLedger(documentErrors(keysOnCommandsOnly(typePathParameters(doc))));
}
