import { TokenError, type TokenVerifier } from '@coup/auth';
import type { FastifyInstance } from 'fastify';
import type { StaffAccounts } from './staff-accounts';

/**
 * Before an /api request with a staff sign-in's token is authenticated, the staff stream is folded up to now, so a
 * sign-out, a change or a disabling recorded by any process (another instance on the same store) counts at once.
 * Other tokens cost a lookup in the verifier's memory. Installed before the edge's limits, which verify too.
 */
export function installStaffCatchUp(
  fastify: FastifyInstance,
  tokens: TokenVerifier,
  accounts: StaffAccounts,
): void {
  fastify.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (route === undefined || !route.startsWith('/api/') || token === undefined) return;
    try {
      if (tokens.verify(token).generation === undefined) return;
    } catch (error) {
      // A staff token this process cannot place yet (an account or a generation it has not folded) is read again
      // after the catch-up; any other bad token is the guard's to refuse.
      if (!(error instanceof TokenError) || error.code !== 'TOKEN_REVOKED') return;
    }
    await accounts.fresh();
  });
}
