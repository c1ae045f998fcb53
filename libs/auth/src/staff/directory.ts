/** The staff accounts as their events leave them: a fold, no clock, no I/O. */
import type { AccountSource, StaffEvent, StaffRole } from './vocabulary';

export interface StaffAccount {
  readonly username: string;
  /** The roles in the order the admin gave them: the first is the default at sign-in. */
  readonly roles: readonly StaffRole[];
  /** null: every table; else the tables this account may run as a dealer or supervisor. */
  readonly tables: readonly string[] | null;
  readonly passwordHash: string | null;
  readonly source: AccountSource;
  readonly disabled: boolean;
  /**
   * The token generation: a token carries the generation it was issued at (`gen`) and is good only while the
   * account is still at it. Sign-out, a change of roles, tables or password, and disabling move it on.
   */
  readonly generation: number;
  /** Wrong passwords in a row since the last successful sign-in or lock. */
  readonly failures: number;
  /** The end of the current (or last) lock, ISO-8601; null if never locked. */
  readonly lockedUntil: string | null;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly lastSignInAt: string | null;
}

/** Every account by user name. */
export type StaffDirectory = ReadonlyMap<string, StaffAccount>;

export const EMPTY_DIRECTORY: StaffDirectory = new Map();

/** The directory after `events` (one copy of the map, then the events applied in order). */
export function evolveAll(directory: StaffDirectory, events: Iterable<StaffEvent>): StaffDirectory {
  const next = new Map(directory);
  for (const event of events) apply(next, event);
  return next;
}

/** The directory after one event. */
export function evolve(directory: StaffDirectory, event: StaffEvent): StaffDirectory {
  return evolveAll(directory, [event]);
}

function apply(accounts: Map<string, StaffAccount>, event: StaffEvent): void {
  if (event.type === 'StaffAccountCreated') {
    const d = event.data;
    accounts.set(d.username, {
      username: d.username,
      roles: [...d.roles],
      tables: d.tables === null ? null : [...d.tables],
      passwordHash: d.passwordHash,
      source: d.source,
      disabled: false,
      generation: 0,
      failures: 0,
      lockedUntil: null,
      createdAt: d.at,
      createdBy: d.by,
      lastSignInAt: null,
    });
    return;
  }
  const account = accounts.get(event.data.username);
  if (!account) return; // an event about an account this fold never saw created: nothing to change
  accounts.set(account.username, changed(account, event));
}

/** One account after an event about it. */
function changed(a: StaffAccount, event: Exclude<StaffEvent, { type: 'StaffAccountCreated' }>): StaffAccount {
  const next = { ...a, generation: a.generation + 1 };
  switch (event.type) {
    case 'StaffRolesChanged':
      return { ...next, roles: [...event.data.roles] };
    case 'StaffTablesChanged':
      return { ...next, tables: event.data.tables === null ? null : [...event.data.tables] };
    case 'StaffAccountDisabled':
      return { ...next, disabled: true };
    case 'StaffAccountEnabled':
      return { ...a, disabled: false };
    case 'StaffPasswordReset':
      // An admin's reset also lifts a lock.
      return { ...next, passwordHash: event.data.passwordHash, failures: 0, lockedUntil: null };
    case 'StaffSignedOut':
      return next;
    case 'StaffSignedIn':
      return { ...a, failures: 0, lastSignInAt: event.data.at };
    case 'StaffSignInFailed':
      return event.data.reason === 'password' ? { ...a, failures: event.data.failures } : a;
    case 'StaffAccountLocked':
      return { ...a, failures: 0, lockedUntil: event.data.until };
    case 'StaffCommandUnchanged':
      return a;
  }
}

/** Is the account locked at `at` (ISO-8601)? */
export function isLocked(account: StaffAccount, at: string): boolean {
  return account.lockedUntil !== null && Date.parse(at) < Date.parse(account.lockedUntil);
}

/** The accounts that can act as admin today: enabled, with the admin role. */
export function activeAdmins(directory: StaffDirectory): string[] {
  return [...directory.values()]
    .filter((a) => !a.disabled && a.roles.includes('admin'))
    .map((a) => a.username);
}

/**
 * The tables a token for this role carries: an account's tables limit it when it acts as a dealer or supervisor
 * (as `coup token --tables` does); other roles are not limited by table.
 */
export function tablesFor(account: StaffAccount, role: StaffRole): readonly string[] | null {
  return role === 'dealer' || role === 'supervisor' ? account.tables : null;
}
