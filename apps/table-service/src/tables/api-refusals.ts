/**
 * The refusals a command route documents in the OpenAPI document: each stable code under its HTTP status (the
 * decider's `ERROR_HTTP_STATUS`; the edge's own codes by hand), so a client finds every code a route can answer.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_HTTP_STATUS, type DomainErrorCode } from '@coup/table';

/** Codes the edge answers before the decider (validation, parameters). */
const EDGE_STATUS: Readonly<Record<string, number>> = {
  VALIDATION_FAILED: 400,
  INVALID_PARAMETER: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
};

/** `@ApiResponse` per status, naming the codes of that status this route can answer. */
export function ApiRefusals(
  ...codes: readonly (DomainErrorCode | keyof typeof EDGE_STATUS)[]
): MethodDecorator & ClassDecorator {
  return refusalResponses(codes, (code) => EDGE_STATUS[code] ?? ERROR_HTTP_STATUS[code as DomainErrorCode]);
}

/** `@ApiResponse` per status for `codes`, each code's status given by `statusOf` (shared by other route groups). */
export function refusalResponses(
  codes: readonly string[],
  statusOf: (code: string) => number,
): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: `{ statusCode, code, message, details? } with code ${list.join(', ')}`,
      }),
    ),
  );
}

/** What the dealing and correction routes can answer (kept here: the controller stays a list of routes). */
export const CONFIRM_REFUSALS = [
  'INVALID_PARAMETER',
  'FORBIDDEN',
  'UNKNOWN_TABLE',
  'TABLE_CLOSED',
  'WRONG_PHASE',
  'WRONG_ROUND',
  'WRONG_DEALING_MODE',
  'CARD_NOT_DUE',
] as const;
export const CORRECT_REFUSALS = [
  'VALIDATION_FAILED',
  'INVALID_PARAMETER',
  'INVALID_CARD',
  'INVALID_INDEX',
  'INVALID_REASON',
  'FORBIDDEN',
  'UNKNOWN_TABLE',
  'WRONG_PHASE',
  'WRONG_ROUND',
  'WRONG_DEALING_MODE',
  'CARD_NOT_IN_SHOE',
  'CORRECTION_CONFLICT',
  'CORRECTION_WINDOW_CLOSED',
] as const;
export const VOID_REFUSALS = [
  'VALIDATION_FAILED',
  'INVALID_PARAMETER',
  'INVALID_REASON',
  'FORBIDDEN',
  'UNKNOWN_TABLE',
  'WRONG_PHASE',
  'WRONG_ROUND',
  'CORRECTION_CONFLICT',
  'CORRECTION_WINDOW_CLOSED',
] as const;
