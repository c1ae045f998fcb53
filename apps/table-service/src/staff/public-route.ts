import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { Public } from '../common/auth';

/** Marks a route under /api that takes no token: the edge's auth-failure count skips it (request-limits.ts). */
export const PUBLIC_API_ROUTE = 'coupPublic';

/** A route anyone may call without a token, under /api (a sign-in). */
export const PublicApi = () => applyDecorators(Public(), RouteConfig({ [PUBLIC_API_ROUTE]: true }));
