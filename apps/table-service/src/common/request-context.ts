import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from '@coup/auth';

/** Per-request context, available to the logger and handlers without threading it through every call. */
export interface RequestContext {
  correlationId: string;
  principal?: Principal;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentCorrelationId(): string | undefined {
  return requestContext.getStore()?.correlationId;
}
