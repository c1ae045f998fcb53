/**
 * The service's staff accounts: the `staff` stream folded (StaffStore), password sign-in with lockout, tokens a
 * shift long, sign-out, the admins' changes, and the check every staff token passes on every use.
 */
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import {
  DEFAULT_SCRYPT,
  hashPassword,
  signToken,
  spendPasswordCheck,
  staff,
  StaffStore,
  TokenError,
  verifyPassword,
  type KeyedStaffCommand,
  type Principal,
  type ScryptParams,
  type SessionCheck,
  type StaffOutcome,
} from '@coup/auth';
import { ApiError } from '../common/api-error';
import type { ServiceConfig } from '../config/config';
import { isStoreUnavailable } from '../store/store-startup';
import type { Clock } from '../tables/edge-inputs';
import type { EventStore, JsonValue } from '@coup/event-store';
import { StaffKeys, type StaffKey } from './staff-keys';

/** What a sign-in answers: the token and what it carries. */
export interface SignedIn {
  readonly token: string;
  readonly expiresAt: string;
  readonly username: string;
  readonly role: staff.StaffRole;
  readonly roles: readonly staff.StaffRole[];
  readonly tables: readonly string[] | null;
}

/** An account as the API shows it (never its password hash). */
export interface AccountView {
  readonly username: string;
  readonly roles: readonly staff.StaffRole[];
  readonly tables: readonly string[] | null;
  readonly source: staff.AccountSource;
  readonly disabled: boolean;
  readonly lockedUntil: string | null;
  readonly failures: number;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly lastSignInAt: string | null;
}

/** Where a request comes from, for the events' metadata and the logs. */
export interface RequestOrigin {
  readonly ip?: string;
  readonly correlationId?: string;
}

/** An admin's change to an account: the command without who and when (the edge adds them). */
export type AccountChange = DistributiveOmit<
  Exclude<staff.StaffCommand, { type: 'SignIn' | 'SsoSignIn' | 'SignOut' }>,
  'by' | 'at'
>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A refusal of the decider as the API answers it. */
export function refusalError(refusal: staff.StaffRefusal): ApiError {
  const status = staff.STAFF_ERROR_STATUS[refusal.code];
  return new ApiError(status, refusal.code, refusal.message, refusal.details);
}

export function viewOf(a: staff.StaffAccount): AccountView {
  return {
    username: a.username,
    roles: a.roles,
    tables: a.tables,
    source: a.source,
    disabled: a.disabled,
    lockedUntil: a.lockedUntil,
    failures: a.failures,
    createdAt: a.createdAt,
    createdBy: a.createdBy,
    lastSignInAt: a.lastSignInAt,
  };
}

export class StaffAccounts implements OnApplicationBootstrap {
  private readonly log = new Logger('staff');
  readonly store: StaffStore;
  /** The Idempotency-Keys of the admins' changes, folded from the staff stream. */
  readonly keys: StaffKeys;
  /** The catch-up running now, and the one queued after it (a request that arrives during a read waits for the next). */
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** Keys the hash a refused sign-in logs in place of a user name that names no account. */
  private readonly logKey: Buffer;

  constructor(
    events: EventStore,
    private readonly config: ServiceConfig,
    private readonly clock: Clock,
    private readonly scrypt: ScryptParams = DEFAULT_SCRYPT,
  ) {
    this.logKey = Buffer.from(hkdfSync('sha256', config.jwtSecret, 'coup', 'log-user-name', 32));
    const passwordKey = Buffer.from(hkdfSync('sha256', config.jwtSecret, 'coup', 'key-password', 32));
    this.keys = new StaffKeys(config.idempotencyDays, passwordKey);
    this.store = new StaffStore(events, { onRead: this.keys.fold });
  }

  /**
   * Folds the staff stream before the service takes requests. A store down at start does not stop the service
   * (issue 20): every staff token's use folds the stream first, so the directory fills once the store answers.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.fresh().catch((error: unknown) => {
      if (!isStoreUnavailable(error)) throw error;
      this.log.warn({
        msg: 'the event store does not answer: staff folded on first use',
        error: String(error),
      });
    });
  }

  /**
   * Brings the directory up to the stream: every staff event recorded before this call (by any process) is folded
   * when it resolves. Calls during a read share the next read.
   */
  fresh(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.startRead();
    const next = this.running.then(
      () => this.startRead(),
      () => this.startRead(),
    );
    this.queued = next;
    return next;
  }

  private startRead(): Promise<void> {
    this.queued = null;
    const read = this.store.catchUp().then(() => undefined);
    this.running = read;
    const clear = () => {
      if (this.running === read) this.running = null;
    };
    read.then(clear, clear);
    return read;
  }

  /**
   * The check every staff sign-in's token passes on every use (the HTTP edge folds the stream first): its account
   * exists, is enabled, and is still at the token's generation.
   */
  readonly checkSession: SessionCheck = (principal) => {
    const account = this.store.directory.get(principal.id);
    if (!account) throw new TokenError('TOKEN_REVOKED', 'the staff account of this token does not exist');
    if (account.disabled) throw new TokenError('TOKEN_REVOKED', 'the staff account is disabled');
    if (principal.generation !== account.generation)
      throw new TokenError(
        'TOKEN_REVOKED',
        'this sign-in has ended (signed out, or the account changed since): sign in again',
      );
  };

  /** A password sign-in: the token, or the refusal (recorded when it is a fact: a wrong password, a lock). */
  async signIn(
    username: string,
    password: string,
    role: staff.StaffRole | null,
    origin: RequestOrigin,
  ): Promise<SignedIn> {
    const name = username.toLowerCase();
    await this.fresh();
    const account = this.store.directory.get(name);
    const at = this.clock.now();
    // A locked account's password is not even checked; an unknown user costs what a wrong password costs.
    const matches =
      account?.passwordHash && !staff.isLocked(account, at)
        ? await verifyPassword(password, account.passwordHash)
        : await spendPasswordCheck(password, this.scrypt);
    const outcome = await this.store.execute(
      {
        type: 'SignIn',
        username: name,
        role,
        passwordMatches: matches,
        lockout: {
          attempts: this.config.staff.lockoutAttempts,
          until: this.plus(at, this.config.staff.lockoutMinutes * 60),
        },
        expiresAt: this.plus(at, this.config.staff.tokenHours * 3600),
        at,
      },
      { actor: staff.USERNAME_PATTERN.test(name) ? name : 'unknown', ...this.correlation(origin) },
    );
    return this.issue(outcome, name, 'password', origin);
  }

  /** A single-sign-on sign-in, the provider's identity and roles already verified. */
  async ssoSignIn(
    username: string,
    roles: readonly staff.StaffRole[],
    tables: readonly string[] | null,
    origin: RequestOrigin,
  ): Promise<SignedIn> {
    const at = this.clock.now();
    const outcome = await this.store.execute(
      {
        type: 'SsoSignIn',
        username,
        roles,
        tables,
        role: null,
        expiresAt: this.plus(at, this.config.staff.tokenHours * 3600),
        at,
      },
      { actor: username, ...this.correlation(origin) },
    );
    return this.issue(outcome, username, 'sso', origin);
  }

  /** The token of an accepted sign-in, or the refusal as an error; either way logged. */
  private issue(
    outcome: Awaited<ReturnType<StaffStore['execute']>>,
    username: string,
    method: string,
    origin: RequestOrigin,
  ): SignedIn {
    const { refusal, events } = outcome.decision;
    const locked = events.some((e) => e.type === 'StaffAccountLocked');
    if (refusal) {
      this.log.warn({
        msg: locked ? 'staff account locked after repeated wrong passwords' : 'staff sign-in refused',
        ...this.who(username, outcome.directory),
        method,
        code: refusal.code,
        recorded: events.map((e) => e.type),
        ip: origin.ip,
        correlationId: origin.correlationId,
      });
      throw refusalError(refusal);
    }
    const signed = events.find((e) => e.type === 'StaffSignedIn');
    const account = outcome.directory.get(username);
    if (!signed || signed.type !== 'StaffSignedIn' || !account)
      throw new Error(`the sign-in of ${username} recorded no StaffSignedIn`);
    const { role, generation, expiresAt } = signed.data;
    const tables = staff.tablesFor(account, role);
    const token = signToken(this.config.jwtSecret, {
      sub: username,
      role,
      ...(tables ? { tables } : {}),
      expiresInSeconds: this.config.staff.tokenHours * 3600,
      session: { roles: account.roles, generation },
    });
    this.log.log({
      msg: 'staff signed in',
      username,
      role,
      method,
      ip: origin.ip,
      correlationId: origin.correlationId,
    });
    return { token, expiresAt, username, role, roles: account.roles, tables };
  }

  /** Ends every sign-in of the caller's account (its token generation moves on). */
  async signOut(caller: Principal, origin: RequestOrigin): Promise<void> {
    if (caller.generation === undefined)
      throw new ApiError(
        409,
        'NOT_A_SIGN_IN',
        'this token was not issued by a sign-in: it lasts until it expires or COUP_JWT_SECRET changes',
      );
    await this.run(
      { type: 'SignOut', username: caller.id, by: caller.id, at: this.clock.now() },
      caller.id,
      origin,
    );
    this.log.log({ msg: 'staff signed out', username: caller.id, correlationId: origin.correlationId });
  }

  /**
   * An admin's change (or the first start's): the account after it. With a `key` (Idempotency-Key), the first
   * accepted answer under it, recorded with its events, is the answer to it and to every retry.
   */
  async change(
    change: AccountChange,
    by: string,
    origin: RequestOrigin,
    key?: StaffKey,
  ): Promise<AccountView> {
    const command = { ...change, by, at: this.clock.now() } as staff.StaffCommand;
    const view = (directory: staff.StaffDirectory) => {
      const account = directory.get(change.username);
      if (!account) throw new Error(`no account ${change.username} after ${change.type}`);
      return viewOf(account);
    };
    const keyed = key && this.keys.keyed(key, change.type, (after) => view(after) as unknown as JsonValue);
    const outcome = await this.run(command, by, origin, keyed);
    // Accepted, a keyed command's key was just folded with what it recorded (its events, or its no-op's marker).
    if (key) return this.keys.answer(key) as AccountView;
    return view(outcome.directory);
  }

  private async run(
    command: staff.StaffCommand,
    actor: string,
    origin: RequestOrigin,
    keyed?: KeyedStaffCommand,
  ): Promise<StaffOutcome> {
    const outcome = await this.store.execute(command, {
      actor,
      ...this.correlation(origin),
      ...(keyed ? { keyed } : {}),
    });
    const { decision } = outcome;
    if (decision.refusal) throw refusalError(decision.refusal);
    if (decision.events.length > 0)
      this.log.log({
        msg: 'staff account changed',
        by: actor,
        events: decision.events.map((e) => `${e.type} ${e.data.username}`),
        correlationId: origin.correlationId,
      });
    return outcome;
  }

  /** A password's hash with the service's scrypt parameters. */
  hash(password: string): Promise<string> {
    return hashPassword(password, this.scrypt);
  }

  async list(): Promise<AccountView[]> {
    await this.fresh();
    return [...this.store.directory.values()]
      .map(viewOf)
      .sort((a, b) => a.username.localeCompare(b.username));
  }

  async get(username: string): Promise<AccountView> {
    await this.fresh();
    const account = this.store.directory.get(username);
    if (!account) throw refusalError({ code: 'UNKNOWN_ACCOUNT', message: `no staff account ${username}` });
    return viewOf(account);
  }

  /**
   * At a first local start (see `firstLocalAdminDue`): when no staff account exists, an `admin` account with a
   * random password, returned to be printed once. Null when any account exists (or another process made it first).
   */
  async firstLocalAdmin(): Promise<string | null> {
    await this.fresh();
    if (this.store.directory.size > 0) return null;
    const password = randomBytes(15).toString('base64url');
    const outcome = await this.store.execute(
      {
        type: 'CreateAccount',
        username: 'admin',
        roles: ['admin'],
        tables: null,
        passwordHash: await this.hash(password),
        by: 'first-start',
        at: this.clock.now(),
      },
      { actor: 'first-start' },
    );
    return outcome.decision.refusal ? null : password;
  }

  /**
   * Who a refused sign-in was for, as logged: the account when one has this name; else never the name typed (it may
   * be a password typed into the wrong field), but a keyed hash of it (the same for the same name).
   */
  private who(username: string, directory: staff.StaffDirectory): Record<string, string | null> {
    if (directory.has(username)) return { account: username };
    const hash = createHmac('sha256', this.logKey).update(username).digest('hex').slice(0, 16);
    return { account: null, usernameHash: hash };
  }

  private plus(at: string, seconds: number): string {
    return new Date(Date.parse(at) + seconds * 1000).toISOString();
  }

  private correlation(origin: RequestOrigin): { correlationId?: string } {
    return origin.correlationId ? { correlationId: origin.correlationId } : {};
  }
}

/**
 * Whether this start prints a first admin's password: only on the local embedded store with the secret generated
 * into the data folder (no COUP_JWT_SECRET: `npm start` on one machine), never when NODE_ENV is production.
 */
export function firstLocalAdminDue(config: ServiceConfig, env: NodeJS.ProcessEnv = process.env): boolean {
  return config.eventStore.kind === 'sqlite' && config.jwtSecretGenerated && env['NODE_ENV'] !== 'production';
}
