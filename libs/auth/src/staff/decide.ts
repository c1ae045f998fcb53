/**
 * The staff account decider: `decide(command, directory)` gives the events to record and, when the command is
 * refused, why. No clock, no randomness, no hashing inside: the edge stamps `at`, hashes passwords and checks
 * them, and passes the lockout policy with each sign-in.
 */
import { REASON_TEXT } from '@coup/table';
import { activeAdmins, evolveAll, isLocked, type StaffAccount, type StaffDirectory } from './directory';
import {
  isStaffRole,
  SSO_USERNAME_PATTERN,
  STAFF_ROLES,
  TABLE_ID_PATTERN,
  USERNAME_PATTERN,
  type StaffCommand,
  type StaffDecision,
  type StaffErrorCode,
  type StaffEvent,
  type StaffRefusal,
  type StaffRole,
} from './vocabulary';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const MAX_TABLES = 1000;
const PASSWORD_HASH = /^scrypt\$/;

const refuse = (
  code: StaffErrorCode,
  message: string,
  details?: StaffRefusal['details'],
  events: readonly StaffEvent[] = [],
): StaffDecision => ({ events, refusal: { code, message, ...(details ? { details } : {}) } });
const accept = (...events: StaffEvent[]): StaffDecision => ({ events, refusal: null });

/** A command's own field, checked: the refusal, or null when it is well formed. */
function malformed(command: StaffCommand): StaffDecision | null {
  const sso = command.type === 'SsoSignIn';
  if (!usernameOk(command))
    return command.type === 'SignIn'
      ? refuse('INVALID_CREDENTIALS', 'wrong user name or password')
      : refuse(
          'INVALID_USERNAME',
          'a user name is 1 to 64 of a-z 0-9 . _ -, starting with a letter (not online-)',
        );
  if (!isInstant(command.at)) return refuse('INVALID_INSTANT', 'at must be an ISO-8601 UTC instant');
  const roles = 'roles' in command && !sso ? rolesProblem(command.roles) : null;
  if (roles) return refuse('INVALID_ROLES', roles);
  const tables = 'tables' in command ? tablesProblem(command.tables, sso) : null;
  if (tables) return refuse('INVALID_TABLES', tables);
  if (
    'passwordHash' in command &&
    (typeof command.passwordHash !== 'string' || !PASSWORD_HASH.test(command.passwordHash))
  )
    return refuse('INVALID_PASSWORD_HASH', 'the password hash must be a scrypt hash');
  if (command.type === 'DisableAccount' && !reasonOk(command.reason))
    return refuse(
      'INVALID_REASON',
      'a reason is 3 to 500 characters, one line of visible text: no control, bidi or zero-width characters',
    );
  if ((command.type === 'SignIn' || command.type === 'SsoSignIn') && !isInstant(command.expiresAt))
    return refuse('INVALID_INSTANT', 'expiresAt must be an ISO-8601 UTC instant');
  return null;
}

/** A new local account and a password sign-in take a local name, an SSO sign-in an SSO name, the rest either. */
function usernameOk(command: StaffCommand): boolean {
  const name = command.username;
  if (typeof name !== 'string') return false;
  if (command.type === 'CreateAccount' || command.type === 'SignIn') return USERNAME_PATTERN.test(name);
  if (command.type === 'SsoSignIn') return SSO_USERNAME_PATTERN.test(name);
  return USERNAME_PATTERN.test(name) || SSO_USERNAME_PATTERN.test(name);
}

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));
}

function reasonOk(reason: unknown): boolean {
  return (
    typeof reason === 'string' &&
    reason.trim().length >= 3 &&
    reason.length <= 500 &&
    REASON_TEXT.test(reason)
  );
}

function rolesProblem(roles: unknown): string | null {
  if (!Array.isArray(roles) || roles.length === 0)
    return `an account needs at least one of ${STAFF_ROLES.join(', ')}`;
  if (!roles.every(isStaffRole)) return `roles are among ${STAFF_ROLES.join(', ')}`;
  if (new Set(roles).size !== roles.length) return 'a role is listed twice';
  return null;
}

/** `none`: an empty list is taken (no table: a provider's claim that names none); else 1 or more. */
function tablesProblem(tables: unknown, none: boolean): string | null {
  if (tables === null) return null;
  const least = none ? 0 : 1;
  if (!Array.isArray(tables) || tables.length < least || tables.length > MAX_TABLES)
    return `tables is null (every table) or ${least} to ${MAX_TABLES} table ids`;
  if (!tables.every((t) => typeof t === 'string' && TABLE_ID_PATTERN.test(t)))
    return 'a table id is 1 to 64 letters, digits, _ or -';
  if (new Set(tables).size !== tables.length) return 'a table is listed twice';
  return null;
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((x, i) => x === b[i]);

/** Decides one command against the directory. */
export function decide(command: StaffCommand, directory: StaffDirectory): StaffDecision {
  const bad = malformed(command);
  if (bad) return bad;
  if (command.type === 'CreateAccount') return create(command, directory);
  if (command.type === 'SsoSignIn') return ssoSignIn(command, directory);
  const account = directory.get(command.username);
  if (!account)
    return command.type === 'SignIn'
      ? refuse('INVALID_CREDENTIALS', 'wrong user name or password')
      : refuse('UNKNOWN_ACCOUNT', `no staff account ${command.username}`, { username: command.username });
  return onAccount(command, account, directory);
}

function create(
  command: Extract<StaffCommand, { type: 'CreateAccount' }>,
  directory: StaffDirectory,
): StaffDecision {
  if (directory.has(command.username))
    return refuse('ACCOUNT_EXISTS', `the account ${command.username} exists`, { username: command.username });
  const { username, roles, tables, passwordHash, by, at } = command;
  return accept({
    type: 'StaffAccountCreated',
    data: {
      username,
      roles: [...roles],
      tables: tables === null ? null : [...tables],
      passwordHash,
      source: 'password',
      by,
      at,
    },
  });
}

type OnAccount = Exclude<StaffCommand, { type: 'CreateAccount' | 'SsoSignIn' }>;

function onAccount(command: OnAccount, account: StaffAccount, directory: StaffDirectory): StaffDecision {
  const { username, at } = command;
  switch (command.type) {
    case 'SignIn':
      return signIn(command, account);
    case 'ChangeRoles': {
      if (sameList(command.roles, account.roles)) return accept();
      if (!command.roles.includes('admin') && isLastAdmin(account, directory))
        return refuse('LAST_ADMIN', `${username} is the last enabled admin: make another admin first`);
      return accept({
        type: 'StaffRolesChanged',
        data: { username, roles: [...command.roles], by: command.by, at },
      });
    }
    case 'ChangeTables': {
      if (sameList(command.tables, account.tables)) return accept();
      const tables = command.tables === null ? null : [...command.tables];
      return accept({ type: 'StaffTablesChanged', data: { username, tables, by: command.by, at } });
    }
    case 'DisableAccount':
      if (account.disabled) return accept();
      if (isLastAdmin(account, directory))
        return refuse('LAST_ADMIN', `${username} is the last enabled admin: make another admin first`);
      return accept({
        type: 'StaffAccountDisabled',
        data: { username, reason: command.reason.trim(), by: command.by, at },
      });
    case 'EnableAccount':
      return account.disabled
        ? accept({ type: 'StaffAccountEnabled', data: { username, by: command.by, at } })
        : accept();
    case 'ResetPassword':
      if (account.source !== 'password')
        return refuse(
          'NOT_A_PASSWORD_ACCOUNT',
          `${username} signs in through single sign-on: it has no password here`,
        );
      return accept({
        type: 'StaffPasswordReset',
        data: { username, passwordHash: command.passwordHash, by: command.by, at },
      });
    case 'SignOut':
      return accept({ type: 'StaffSignedOut', data: { username, by: command.by, at } });
  }
}

function isLastAdmin(account: StaffAccount, directory: StaffDirectory): boolean {
  const admins = activeAdmins(directory);
  return admins.length === 1 && admins[0] === account.username;
}

/**
 * A password sign-in. A locked account is refused before anything else (nothing recorded: the lock is). A wrong
 * password is recorded with the count of wrong ones in a row, and the one that reaches the policy's attempts locks
 * the account until the policy's `until`. A disabled account with the right password is refused and recorded.
 */
function signIn(command: Extract<StaffCommand, { type: 'SignIn' }>, account: StaffAccount): StaffDecision {
  const { username, at } = command;
  if (account.lockedUntil !== null && isLocked(account, at)) {
    const until = account.lockedUntil;
    return refuse('ACCOUNT_LOCKED', `too many wrong passwords: ${username} is locked until ${until}`, {
      until,
    });
  }
  if (account.passwordHash === null || !command.passwordMatches) {
    const failures = account.failures + 1;
    const failed: StaffEvent = {
      type: 'StaffSignInFailed',
      data: { username, reason: 'password', failures, at },
    };
    if (failures < command.lockout.attempts)
      return refuse('INVALID_CREDENTIALS', 'wrong user name or password', undefined, [failed]);
    const until = command.lockout.until;
    return refuse(
      'ACCOUNT_LOCKED',
      `too many wrong passwords: ${username} is locked until ${until}`,
      { until },
      [failed, { type: 'StaffAccountLocked', data: { username, until, at } }],
    );
  }
  if (account.disabled)
    return refuse('ACCOUNT_DISABLED', `the account ${username} is disabled`, undefined, [
      { type: 'StaffSignInFailed', data: { username, reason: 'disabled', failures: account.failures, at } },
    ]);
  return signedIn(account, command.role, 'password', command);
}

/** The role the token acts in (the asked one if the account holds it, else its first), and the event. */
function signedIn(
  account: StaffAccount,
  asked: StaffRole | null,
  method: 'password' | 'sso',
  command: { readonly at: string; readonly expiresAt: string },
  before: readonly StaffEvent[] = [],
): StaffDecision {
  const role = asked ?? account.roles[0];
  if (role === undefined || !account.roles.includes(role))
    return refuse(
      'ROLE_NOT_HELD',
      `${account.username} does not hold the ${role} role (holds ${account.roles.join(', ')})`,
    );
  return accept(...before, {
    type: 'StaffSignedIn',
    data: {
      username: account.username,
      role,
      method,
      generation: account.generation,
      expiresAt: command.expiresAt,
      at: command.at,
    },
  });
}

/**
 * A single-sign-on sign-in: the provider vouched for the person and names the roles. The first sign-in makes the
 * account; later ones record a change of roles or tables (which ends the older tokens) before the sign-in.
 */
function ssoSignIn(
  command: Extract<StaffCommand, { type: 'SsoSignIn' }>,
  directory: StaffDirectory,
): StaffDecision {
  const { username, at } = command;
  const roles = [...new Set(command.roles.filter(isStaffRole))];
  if (roles.length === 0)
    return refuse('NO_STAFF_ROLE', `the identity provider gives ${username} no Coup staff role`);
  const tables = command.tables === null ? null : [...command.tables];
  const by = 'sso';
  const existing = directory.get(username);
  const changes: StaffEvent[] = [];
  if (!existing) {
    changes.push({
      type: 'StaffAccountCreated',
      data: { username, roles, tables, passwordHash: null, source: 'sso', by, at },
    });
  } else {
    if (existing.source !== 'sso')
      return refuse('INVALID_CREDENTIALS', `${username} is not a single-sign-on account`);
    if (existing.disabled)
      return refuse('ACCOUNT_DISABLED', `the account ${username} is disabled`, undefined, [
        {
          type: 'StaffSignInFailed',
          data: { username, reason: 'disabled', failures: existing.failures, at },
        },
      ]);
    if (!sameList(roles, existing.roles))
      changes.push({ type: 'StaffRolesChanged', data: { username, roles, by, at } });
    if (!sameList(tables, existing.tables))
      changes.push({ type: 'StaffTablesChanged', data: { username, tables, by, at } });
  }
  // The token carries the generation the changes leave the account at.
  const account = evolveAll(directory, changes).get(username) ?? existing;
  if (!account) throw new Error(`the sign-in of ${username} left no account`);
  return signedIn(account, command.role, 'sso', command, changes);
}
