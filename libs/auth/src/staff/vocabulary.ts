/**
 * Staff accounts: the names, events, commands and refusal codes of the account decider. Pure data: time, the
 * password hash and the actor come in with each command and are recorded in the events.
 */
import { TABLE_ID_PATTERN } from '@coup/table';

/** The roles a staff account may hold (players are the operator's, never accounts here). */
export const STAFF_ROLES = ['admin', 'dealer', 'supervisor', 'compliance', 'analyst'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

/** The one stream holding every staff account's events, in order (kept apart from the table streams). */
export const STAFF_STREAM = 'staff';

/**
 * The service's own actors, recorded as `by` and as table actors beside user names: no account may take one of
 * these names, so the audit trail never mistakes a person for the system (or the system for a person).
 */
export const SYSTEM_ACTOR_NAMES = ['cli', 'first-start', 'sso', 'betting-timer'] as const;

/**
 * A local account's user name: 1 to 64 of `a-z 0-9 . _ -`, starting with a letter. Lower case only, so `Ann` and
 * `ann` are one account (sign-in lowers what it is given). Never `online-...` (the online game's actors) nor one
 * of SYSTEM_ACTOR_NAMES.
 */
export const USERNAME_PATTERN = new RegExp(
  `^(?!online-|(?:${SYSTEM_ACTOR_NAMES.join('|')})$)[a-z][a-z0-9._-]{0,63}$`,
);
/** A single-sign-on identity's account: `sso:` and the provider's subject (or its hash, edge-made). */
export const SSO_USERNAME_PATTERN = /^sso:[A-Za-z0-9._@+-]{1,100}$/;
export { TABLE_ID_PATTERN };

/** Who made a change: an account's user name, or a named system actor (`cli`, `first-start`, `sso`). */
export type By = string;

export type AccountSource = 'password' | 'sso';

/** Every fact about staff accounts. `at` is the edge's ISO-8601 instant. */
export type StaffEvent =
  | {
      readonly type: 'StaffAccountCreated';
      readonly data: {
        readonly username: string;
        readonly roles: readonly StaffRole[];
        /** null: every table; else the tables a dealer or supervisor may run. */
        readonly tables: readonly string[] | null;
        /** The scrypt hash (`scrypt$...`); null for a single-sign-on account. */
        readonly passwordHash: string | null;
        readonly source: AccountSource;
        readonly by: By;
        readonly at: string;
      };
    }
  | StaffChange<'StaffRolesChanged', { readonly roles: readonly StaffRole[] }>
  | StaffChange<'StaffTablesChanged', { readonly tables: readonly string[] | null }>
  | StaffChange<'StaffAccountDisabled', { readonly reason: string }>
  | StaffChange<'StaffAccountEnabled', object>
  | StaffChange<'StaffPasswordReset', { readonly passwordHash: string }>
  | StaffChange<'StaffSignedOut', object>
  /**
   * A keyed command (Idempotency-Key) that found the account as it asked and changed nothing: recorded only to keep
   * its key and answer (ADR-43), so a retry answers that and is not decided again. Changes nothing when folded.
   */
  | StaffChange<'StaffCommandUnchanged', { readonly command: StaffCommand['type'] }>
  | {
      readonly type: 'StaffSignedIn';
      readonly data: {
        readonly username: string;
        readonly role: StaffRole;
        readonly method: AccountSource;
        /** The account's token generation the token carries (`gen`). */
        readonly generation: number;
        readonly expiresAt: string;
        readonly at: string;
      };
    }
  | {
      readonly type: 'StaffSignInFailed';
      readonly data: {
        readonly username: string;
        readonly reason: 'password' | 'disabled';
        /** Wrong passwords in a row (a lock or a successful sign-in starts the count again). */
        readonly failures: number;
        readonly at: string;
      };
    }
  | {
      readonly type: 'StaffAccountLocked';
      readonly data: { readonly username: string; readonly until: string; readonly at: string };
    };

type StaffChange<T extends string, D> = {
  readonly type: T;
  readonly data: D & { readonly username: string; readonly by: By; readonly at: string };
};

export type StaffEventType = StaffEvent['type'];

export const STAFF_EVENT_TYPES: readonly StaffEventType[] = [
  'StaffAccountCreated',
  'StaffRolesChanged',
  'StaffTablesChanged',
  'StaffAccountDisabled',
  'StaffAccountEnabled',
  'StaffPasswordReset',
  'StaffSignedOut',
  'StaffSignedIn',
  'StaffSignInFailed',
  'StaffAccountLocked',
  'StaffCommandUnchanged',
];

/** What the lockout policy says for this attempt: lock after this many wrong passwords in a row, until then. */
export interface LockoutPolicy {
  readonly attempts: number;
  /** The instant a lock made by this attempt would end (the edge adds the configured minutes to `at`). */
  readonly until: string;
}

export type StaffCommand =
  | {
      readonly type: 'CreateAccount';
      readonly username: string;
      readonly roles: readonly StaffRole[];
      readonly tables: readonly string[] | null;
      readonly passwordHash: string;
      readonly by: By;
      readonly at: string;
    }
  | AccountCommand<'ChangeRoles', { readonly roles: readonly StaffRole[] }>
  | AccountCommand<'ChangeTables', { readonly tables: readonly string[] | null }>
  | AccountCommand<'DisableAccount', { readonly reason: string }>
  | AccountCommand<'EnableAccount', object>
  | AccountCommand<'ResetPassword', { readonly passwordHash: string }>
  | AccountCommand<'SignOut', object>
  | {
      readonly type: 'SignIn';
      readonly username: string;
      /** The role to act in; null: the account's first role. */
      readonly role: StaffRole | null;
      /** Whether the password matched the account's hash (checked at the edge, in constant time). */
      readonly passwordMatches: boolean;
      readonly lockout: LockoutPolicy;
      readonly expiresAt: string;
      readonly at: string;
    }
  | {
      readonly type: 'SsoSignIn';
      readonly username: string;
      /** The Coup roles the provider's claim names (others dropped at the edge). */
      readonly roles: readonly StaffRole[];
      readonly tables: readonly string[] | null;
      readonly role: StaffRole | null;
      readonly expiresAt: string;
      readonly at: string;
    };

type AccountCommand<T extends string, D> = {
  readonly type: T;
  readonly username: string;
  readonly by: By;
  readonly at: string;
} & D;

export type StaffErrorCode =
  | 'INVALID_USERNAME'
  | 'INVALID_ROLES'
  | 'INVALID_TABLES'
  | 'INVALID_REASON'
  | 'INVALID_PASSWORD_HASH'
  | 'INVALID_INSTANT'
  | 'ACCOUNT_EXISTS'
  | 'UNKNOWN_ACCOUNT'
  | 'LAST_ADMIN'
  | 'NOT_A_PASSWORD_ACCOUNT'
  | 'INVALID_CREDENTIALS'
  | 'ACCOUNT_DISABLED'
  | 'ACCOUNT_LOCKED'
  | 'ROLE_NOT_HELD'
  | 'NO_STAFF_ROLE';

export interface StaffRefusal {
  readonly code: StaffErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, string | number>>;
}

/** The HTTP status the service answers each refusal with. */
export const STAFF_ERROR_STATUS: Readonly<Record<StaffErrorCode, number>> = {
  INVALID_USERNAME: 400,
  INVALID_ROLES: 400,
  INVALID_TABLES: 400,
  INVALID_REASON: 400,
  INVALID_PASSWORD_HASH: 400,
  INVALID_INSTANT: 400,
  ACCOUNT_EXISTS: 409,
  UNKNOWN_ACCOUNT: 404,
  LAST_ADMIN: 409,
  NOT_A_PASSWORD_ACCOUNT: 409,
  INVALID_CREDENTIALS: 401,
  ACCOUNT_DISABLED: 403,
  ACCOUNT_LOCKED: 423,
  ROLE_NOT_HELD: 403,
  NO_STAFF_ROLE: 403,
};

/**
 * A decision: the events to record, and whether the command is refused. A refused sign-in may still record events
 * (the failure, the lock): they are facts the audit trail keeps.
 */
export interface StaffDecision {
  readonly events: readonly StaffEvent[];
  readonly refusal: StaffRefusal | null;
}
