/**
 * Every refusal the service gives has a stable `code` and an HTTP status. Domain errors come from the
 * decider (`@coup/table`); the rest are the edge's own (validation, auth, idempotency, storage).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  readonly statusCode: number;
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly correlationId?: string;
}
