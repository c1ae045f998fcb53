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
  type SessionCheck,
  DEFAULT_CLOCK_SKEW_SECONDS,
} from './jwt';
export {
  DEFAULT_SCRYPT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  hashPassword,
  isPasswordHash,
  spendPasswordCheck,
  verifyPassword,
  type ScryptParams,
} from './password';
export * as staff from './staff';
export {
  StaffStore,
  type KeyedStaffCommand,
  type StaffCommandContext,
  type StaffOutcome,
  type StaffStoreOptions,
} from './staff-store';
