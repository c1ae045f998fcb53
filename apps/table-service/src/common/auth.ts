import { CanActivate, ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TokenVerifier, type Principal, type Role } from '@coup/auth';
import { personalTableOwner, TABLE_ID_PATTERN } from '@coup/table';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import type { Caller } from './request-context';

export const ROLES_KEY = 'coup:roles';
export const PUBLIC_KEY = 'coup:public';

/** The roles that may call a route. Finer rules (a player bets for itself only) live in the decider. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);
/** A route anyone may call without a token (health, metrics, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/**
 * The app's one TokenVerifier (the configured secret and clock skew), shared by the HTTP guard and the WebSocket:
 * each token's signature is checked once, its exp, nbf and iat on every use.
 */
export const TOKEN_VERIFIER = Symbol('TOKEN_VERIFIER');

type AuthedRequest = FastifyRequest & { principal?: Principal };

/** Reads the bearer token from an Authorization header value; 401 with a reason when it is missing or bad. */
export function principalFromHeader(tokens: TokenVerifier, header: string | undefined): Principal {
  if (!header)
    throw new ApiError(401, 'UNAUTHENTICATED', 'a bearer token is required (Authorization: Bearer <token>)');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError(401, 'UNAUTHENTICATED', 'the Authorization header must be "Bearer <token>"');
  return tokens.verify(match[1]!);
}

/** May this caller act on this table? Dealers and supervisors may be limited to named tables. */
export function mayUseTable(principal: Principal, tableId: string | undefined): boolean {
  return !tableId || principal.tables === null || principal.tables.includes(tableId);
}

/**
 * Another player's personal online table (`online-<playerId>`) is that player's alone: a player may not see it
 * (its view, roads, live feed: its bets are one player's stakes), nor act on it. Staff may, for oversight.
 */
export function isOthersPersonalTable(principal: Principal, tableId: string | undefined): boolean {
  if (principal.role !== 'player' || !tableId) return false;
  const owner = personalTableOwner(tableId);
  return owner !== null && owner !== principal.id;
}

/**
 * The refusal of another player's personal table, for a read or a command alike and before the table is loaded
 * (403 FORBIDDEN, as its hands and the online routes answer; whether it exists is not told). Staff acting on a
 * personal table are the decider's to refuse: PERSONAL_TABLE.
 */
export function othersPersonalTable(tableId: string): ApiError {
  return new ApiError(403, 'FORBIDDEN', `${tableId} is another player's own table`);
}

/** May this caller list (and follow) this table? Its token's tables, and never another player's own table. */
export function maySeeTable(principal: Principal, tableId: string): boolean {
  return mayUseTable(principal, tableId) && !isOthersPersonalTable(principal, tableId);
}

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenVerifier,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const principal = principalFromHeader(this.tokens, request.headers.authorization);
    request.principal = principal;
    const params = request.params as Record<string, string> | undefined;
    const tableId = params && Object.hasOwn(params, 'tableId') ? params['tableId'] : undefined;
    authorize(principal, this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets), tableId);
    return true;
  }
}

/**
 * A route's access checks, in order (the guard's, and a live socket command's): the table id's form (a malformed
 * one is a 400 for every caller: parameters are checked before any authorization), the route's roles, the token's
 * tables.
 */
export function authorize(
  principal: Principal,
  roles: readonly Role[] | undefined,
  tableId: string | undefined,
): void {
  if (tableId !== undefined && !TABLE_ID_PATTERN.test(tableId)) {
    throw new ApiError(400, 'INVALID_PARAMETER', 'tableId must be 1 to 64 letters, digits, _ or -', {
      field: 'tableId',
    });
  }
  if (roles && !roles.includes(principal.role)) {
    throw new ApiError(
      403,
      'FORBIDDEN',
      `the ${principal.role} role may not do this (needs ${roles.join(' or ')})`,
    );
  }
  if (!mayUseTable(principal, tableId)) {
    throw new ApiError(403, 'FORBIDDEN', `this token is limited to tables ${principal.tables?.join(', ')}`);
  }
  if (isOthersPersonalTable(principal, tableId)) throw othersPersonalTable(tableId!);
}

/** The authenticated caller of this request, with the request's correlation id. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const request = context.switchToHttp().getRequest<AuthedRequest>();
  const principal = request.principal;
  if (!principal) throw new ApiError(401, 'UNAUTHENTICATED', 'a bearer token is required');
  return request.correlationId ? { ...principal, correlationId: request.correlationId } : principal;
});
