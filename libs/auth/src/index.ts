/**
 * Bearer tokens for Coup: HS256 JSON Web Tokens signed with the shared secret (`COUP_JWT_SECRET`), carrying
 * the caller's id (`sub`), one role, and for dealers optionally the tables they may run.
 */
export { ROLES, isRole, type Role, type Claims, type Principal } from './roles';
export {
  signToken,
  verifyToken,
  TokenVerifier,
  TokenError,
  type TokenErrorCode,
  type SignOptions,
  type VerifyOptions,
  DEFAULT_CLOCK_SKEW_SECONDS,
} from './jwt';
