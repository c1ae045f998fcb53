/**
 * The staff account decider, given/when/then: given the events so far, when a command comes, then these events
 * are recorded and the command is accepted, or refused with a code (with the events a refusal still records).
 */
import {
  decide,
  evolveAll,
  EMPTY_DIRECTORY,
  tablesFor,
  type StaffCommand,
  type StaffErrorCode,
  type StaffEvent,
  type StaffRole,
} from './index';

const T0 = '2030-01-01T08:00:00.000Z';
const T1 = '2030-01-01T08:05:00.000Z';
const LATER = '2030-01-01T08:20:00.000Z';
const HASH = 'scrypt$15$8$3$c2FsdA$aGFzaA';
const HASH2 = 'scrypt$15$8$3$c2FsdDI$aGFzaDI';
const POLICY = { attempts: 3, until: '2030-01-01T08:15:00.000Z' };
const SHIFT_END = '2030-01-01T16:00:00.000Z';

function given(...events: StaffEvent[]) {
  const directory = evolveAll(EMPTY_DIRECTORY, events);
  return {
    directory,
    when(command: StaffCommand) {
      const decision = decide(command, directory);
      return {
        thenRecords(...expected: StaffEvent[]) {
          expect(decision.refusal).toBeNull();
          expect(decision.events).toEqual(expected);
          return evolveAll(directory, decision.events);
        },
        thenRefuses(code: StaffErrorCode, ...recorded: StaffEvent[]) {
          expect(decision.refusal?.code).toBe(code);
          expect(decision.events).toEqual(recorded);
          return decision.refusal!;
        },
      };
    },
  };
}

const created = (username: string, roles: StaffRole[], tables: string[] | null = null): StaffEvent => ({
  type: 'StaffAccountCreated',
  data: { username, roles, tables, passwordHash: HASH, source: 'password', by: 'cli', at: T0 },
});
const boss = created('boss', ['admin']);
const ann = created('ann', ['dealer', 'supervisor'], ['T1', 'T2']);

const signIn = (
  username: string,
  passwordMatches: boolean,
  at = T1,
  role: StaffRole | null = null,
): StaffCommand => ({
  type: 'SignIn',
  username,
  role,
  passwordMatches,
  lockout: POLICY,
  expiresAt: SHIFT_END,
  at,
});
const failed = (failures: number, at = T1): StaffEvent => ({
  type: 'StaffSignInFailed',
  data: { username: 'ann', reason: 'password', failures, at },
});

const signedIn = (
  username: string,
  role: StaffRole,
  at = T1,
  { method = 'password', generation = 0 }: { method?: 'password' | 'sso'; generation?: number } = {},
): StaffEvent => ({
  type: 'StaffSignedIn',
  data: { username, role, method, generation, expiresAt: SHIFT_END, at },
});

describe('creating accounts', () => {
  it('records the account with who made it', () => {
    const directory = given(boss)
      .when({
        type: 'CreateAccount',
        username: 'ann',
        roles: ['dealer', 'supervisor'],
        tables: ['T1', 'T2'],
        passwordHash: HASH,
        by: 'boss',
        at: T1,
      })
      .thenRecords({
        type: 'StaffAccountCreated',
        data: {
          username: 'ann',
          roles: ['dealer', 'supervisor'],
          tables: ['T1', 'T2'],
          passwordHash: HASH,
          source: 'password',
          by: 'boss',
          at: T1,
        },
      });
    expect(directory.get('ann')).toMatchObject({
      roles: ['dealer', 'supervisor'],
      disabled: false,
      generation: 0,
      createdBy: 'boss',
    });
  });

  it('refuses a second account of the same name', () => {
    given(boss)
      .when({
        type: 'CreateAccount',
        username: 'boss',
        roles: ['admin'],
        tables: null,
        passwordHash: HASH,
        by: 'cli',
        at: T1,
      })
      .thenRefuses('ACCOUNT_EXISTS');
  });

  it.each([
    ['Ann', 'INVALID_USERNAME'],
    ['online-ann', 'INVALID_USERNAME'],
    // the service's own actors: an account by such a name would pass for the system in the audit trail
    ['cli', 'INVALID_USERNAME'],
    ['first-start', 'INVALID_USERNAME'],
    ['sso', 'INVALID_USERNAME'],
    ['betting-timer', 'INVALID_USERNAME'],
    ['1ann', 'INVALID_USERNAME'],
    ['a'.repeat(65), 'INVALID_USERNAME'],
  ] as const)('refuses the user name %p', (username, code) => {
    given()
      .when({
        type: 'CreateAccount',
        username,
        roles: ['admin'],
        tables: null,
        passwordHash: HASH,
        by: 'cli',
        at: T0,
      })
      .thenRefuses(code);
  });

  it.each([[[]], [['player']], [['admin', 'admin']], [['root']]])('refuses the roles %j', (roles) => {
    given()
      .when({
        type: 'CreateAccount',
        username: 'ann',
        roles: roles as never,
        tables: null,
        passwordHash: HASH,
        by: 'cli',
        at: T0,
      })
      .thenRefuses('INVALID_ROLES');
  });

  it.each([[[]], [['T 1']], [['T1', 'T1']]])('refuses the tables %j', (tables) => {
    given()
      .when({
        type: 'CreateAccount',
        username: 'ann',
        roles: ['dealer'],
        tables,
        passwordHash: HASH,
        by: 'cli',
        at: T0,
      })
      .thenRefuses('INVALID_TABLES');
  });

  it('refuses a password that is not a scrypt hash, and a time that is not an instant', () => {
    given()
      .when({
        type: 'CreateAccount',
        username: 'ann',
        roles: ['dealer'],
        tables: null,
        passwordHash: 'hunter2',
        by: 'cli',
        at: T0,
      })
      .thenRefuses('INVALID_PASSWORD_HASH');
    given()
      .when({
        type: 'CreateAccount',
        username: 'ann',
        roles: ['dealer'],
        tables: null,
        passwordHash: HASH,
        by: 'cli',
        at: 'now',
      })
      .thenRefuses('INVALID_INSTANT');
  });
});

describe('changing accounts', () => {
  it('records role and table changes, each ending the tokens issued before (the generation moves on)', () => {
    const directory = given(boss, ann)
      .when({ type: 'ChangeRoles', username: 'ann', roles: ['supervisor'], by: 'boss', at: T1 })
      .thenRecords({
        type: 'StaffRolesChanged',
        data: { username: 'ann', roles: ['supervisor'], by: 'boss', at: T1 },
      });
    expect(directory.get('ann')).toMatchObject({ roles: ['supervisor'], generation: 1 });
    const after = given(boss, ann)
      .when({ type: 'ChangeTables', username: 'ann', tables: null, by: 'boss', at: T1 })
      .thenRecords({
        type: 'StaffTablesChanged',
        data: { username: 'ann', tables: null, by: 'boss', at: T1 },
      });
    expect(after.get('ann')).toMatchObject({ tables: null, generation: 1 });
  });

  it('records nothing when nothing changes', () => {
    given(boss, ann)
      .when({ type: 'ChangeRoles', username: 'ann', roles: ['dealer', 'supervisor'], by: 'boss', at: T1 })
      .thenRecords();
    given(boss, ann)
      .when({ type: 'ChangeTables', username: 'ann', tables: ['T1', 'T2'], by: 'boss', at: T1 })
      .thenRecords();
    given(boss, ann).when({ type: 'EnableAccount', username: 'ann', by: 'boss', at: T1 }).thenRecords();
  });

  it('disables and enables, with the reason', () => {
    const disabled: StaffEvent = {
      type: 'StaffAccountDisabled',
      data: { username: 'ann', reason: 'left the casino', by: 'boss', at: T1 },
    };
    const directory = given(boss, ann)
      .when({ type: 'DisableAccount', username: 'ann', reason: ' left the casino ', by: 'boss', at: T1 })
      .thenRecords(disabled);
    expect(directory.get('ann')).toMatchObject({ disabled: true, generation: 1 });
    given(boss, ann, disabled)
      .when({ type: 'DisableAccount', username: 'ann', reason: 'again', by: 'boss', at: T1 })
      .thenRecords();
    given(boss, ann)
      .when({ type: 'DisableAccount', username: 'ann', reason: 'no', by: 'boss', at: T1 })
      .thenRefuses('INVALID_REASON');
    // one line of visible text: no control, bidi or zero-width characters (REASON_TEXT)
    for (const reason of [
      'left\r\nACCOUNT CLEARED',
      'left \u001b[2J',
      'left \u202e',
      '\u200b\u200b\u200b',
      'le\u0000ft',
    ])
      given(boss, ann)
        .when({ type: 'DisableAccount', username: 'ann', reason, by: 'boss', at: T1 })
        .thenRefuses('INVALID_REASON');
    given(boss, ann)
      .when({ type: 'DisableAccount', username: 'ann', reason: 'a quitté le casino', by: 'boss', at: T1 })
      .thenRecords({
        type: 'StaffAccountDisabled',
        data: { username: 'ann', reason: 'a quitté le casino', by: 'boss', at: T1 },
      });
    const enabled = given(boss, ann, disabled)
      .when({ type: 'EnableAccount', username: 'ann', by: 'boss', at: LATER })
      .thenRecords({ type: 'StaffAccountEnabled', data: { username: 'ann', by: 'boss', at: LATER } });
    expect(enabled.get('ann')).toMatchObject({ disabled: false, generation: 1 });
  });

  it('never leaves the casino without an enabled admin', () => {
    given(boss, ann)
      .when({ type: 'DisableAccount', username: 'boss', reason: 'holiday', by: 'boss', at: T1 })
      .thenRefuses('LAST_ADMIN');
    given(boss, ann)
      .when({ type: 'ChangeRoles', username: 'boss', roles: ['analyst'], by: 'boss', at: T1 })
      .thenRefuses('LAST_ADMIN');
    const second = created('deputy', ['admin', 'analyst']);
    given(boss, second)
      .when({ type: 'DisableAccount', username: 'boss', reason: 'holiday', by: 'deputy', at: T1 })
      .thenRecords({
        type: 'StaffAccountDisabled',
        data: { username: 'boss', reason: 'holiday', by: 'deputy', at: T1 },
      });
  });

  it('resets a password, which also lifts a lock', () => {
    const locked: StaffEvent = {
      type: 'StaffAccountLocked',
      data: { username: 'ann', until: POLICY.until, at: T1 },
    };
    const directory = given(boss, ann, locked)
      .when({ type: 'ResetPassword', username: 'ann', passwordHash: HASH2, by: 'boss', at: T1 })
      .thenRecords({
        type: 'StaffPasswordReset',
        data: { username: 'ann', passwordHash: HASH2, by: 'boss', at: T1 },
      });
    expect(directory.get('ann')).toMatchObject({ passwordHash: HASH2, lockedUntil: null, generation: 1 });
  });

  it('refuses changes to an account that does not exist', () => {
    given(boss)
      .when({ type: 'EnableAccount', username: 'ghost', by: 'boss', at: T1 })
      .thenRefuses('UNKNOWN_ACCOUNT');
    given(boss)
      .when({ type: 'SignOut', username: 'ghost', by: 'ghost', at: T1 })
      .thenRefuses('UNKNOWN_ACCOUNT');
  });
});

describe('signing in and out', () => {
  it('signs in in the first role, or the one asked for, with the account generation', () => {
    given(boss, ann).when(signIn('ann', true)).thenRecords(signedIn('ann', 'dealer'));
    given(boss, ann)
      .when(signIn('ann', true, T1, 'supervisor'))
      .thenRecords(signedIn('ann', 'supervisor'));
    given(boss, ann)
      .when(signIn('ann', true, T1, 'admin'))
      .thenRefuses('ROLE_NOT_HELD');
  });

  it('answers an unknown user as a wrong password, recording nothing', () => {
    given(boss).when(signIn('ghost', false)).thenRefuses('INVALID_CREDENTIALS');
    given(boss).when(signIn('Not A Name', false)).thenRefuses('INVALID_CREDENTIALS');
  });

  it('records each wrong password, and locks at the policy attempts until the policy end', () => {
    given(boss, ann).when(signIn('ann', false)).thenRefuses('INVALID_CREDENTIALS', failed(1));
    given(boss, ann, failed(1)).when(signIn('ann', false)).thenRefuses('INVALID_CREDENTIALS', failed(2));
    const refusal = given(boss, ann, failed(1), failed(2))
      .when(signIn('ann', false))
      .thenRefuses('ACCOUNT_LOCKED', failed(3), {
        type: 'StaffAccountLocked',
        data: { username: 'ann', until: POLICY.until, at: T1 },
      });
    expect(refusal.details).toEqual({ until: POLICY.until });
  });

  it('while locked refuses even the right password and records nothing; after the lock it signs in', () => {
    const locked: StaffEvent = {
      type: 'StaffAccountLocked',
      data: { username: 'ann', until: POLICY.until, at: T1 },
    };
    const history = [boss, ann, failed(1), failed(2), failed(3), locked];
    given(...history)
      .when(signIn('ann', true, '2030-01-01T08:14:59.999Z'))
      .thenRefuses('ACCOUNT_LOCKED');
    given(...history)
      .when(signIn('ann', true, POLICY.until))
      .thenRecords(signedIn('ann', 'dealer', POLICY.until));
    // after a lock the count starts again
    given(...history)
      .when(signIn('ann', false, LATER))
      .thenRefuses('INVALID_CREDENTIALS', failed(1, LATER));
  });

  it('a successful sign-in starts the count of wrong passwords again', () => {
    const ok: StaffEvent = signedIn('ann', 'dealer');
    given(boss, ann, failed(1), failed(2), ok)
      .when(signIn('ann', false))
      .thenRefuses('INVALID_CREDENTIALS', failed(1));
  });

  it('refuses a disabled account with the right password, recorded; a wrong one counts as any', () => {
    const disabled: StaffEvent = {
      type: 'StaffAccountDisabled',
      data: { username: 'ann', reason: 'left', by: 'boss', at: T0 },
    };
    given(boss, ann, disabled)
      .when(signIn('ann', true))
      .thenRefuses('ACCOUNT_DISABLED', {
        type: 'StaffSignInFailed',
        data: { username: 'ann', reason: 'disabled', failures: 0, at: T1 },
      });
    given(boss, ann, disabled).when(signIn('ann', false)).thenRefuses('INVALID_CREDENTIALS', failed(1));
  });

  it('signing out moves the generation on: every token issued before is ended', () => {
    const directory = given(boss, ann)
      .when({ type: 'SignOut', username: 'ann', by: 'ann', at: T1 })
      .thenRecords({ type: 'StaffSignedOut', data: { username: 'ann', by: 'ann', at: T1 } });
    expect(directory.get('ann')!.generation).toBe(1);
  });
});

describe('single sign-on', () => {
  const sso = (
    roles: string[],
    tables: string[] | null = null,
    role: string | null = null,
  ): StaffCommand => ({
    type: 'SsoSignIn',
    username: 'sso:jane',
    roles: roles as never,
    tables,
    role: role as never,
    expiresAt: SHIFT_END,
    at: T1,
  });
  const made: StaffEvent = {
    type: 'StaffAccountCreated',
    data: {
      username: 'sso:jane',
      roles: ['supervisor'],
      tables: null,
      passwordHash: null,
      source: 'sso',
      by: 'sso',
      at: T1,
    },
  };

  it('makes the account at the first sign-in, with the roles the provider names', () => {
    given(boss)
      .when(sso(['supervisor', 'player', 'supervisor']))
      .thenRecords(made, signedIn('sso:jane', 'supervisor', T1, { method: 'sso' }));
  });

  it('records a change of roles before the sign-in, and the token carries the new generation', () => {
    given(boss, made)
      .when(sso(['dealer'], ['T1']))
      .thenRecords(
        { type: 'StaffRolesChanged', data: { username: 'sso:jane', roles: ['dealer'], by: 'sso', at: T1 } },
        { type: 'StaffTablesChanged', data: { username: 'sso:jane', tables: ['T1'], by: 'sso', at: T1 } },
        signedIn('sso:jane', 'dealer', T1, { method: 'sso', generation: 2 }),
      );
  });

  it('takes a provider naming no table: the account runs none (an empty list never means every table)', () => {
    const none: StaffEvent = { ...made, data: { ...made.data, roles: ['dealer'], tables: [] } };
    const directory = given(boss)
      .when(sso(['dealer'], []))
      .thenRecords(none, signedIn('sso:jane', 'dealer', T1, { method: 'sso' }));
    expect(tablesFor(directory.get('sso:jane')!, 'dealer')).toEqual([]);
    given(boss, made)
      .when(sso(['supervisor'], []))
      .thenRecords(
        { type: 'StaffTablesChanged', data: { username: 'sso:jane', tables: [], by: 'sso', at: T1 } },
        signedIn('sso:jane', 'supervisor', T1, { method: 'sso', generation: 1 }),
      );
    given(boss)
      .when(sso(['dealer'], ['T 1']))
      .thenRefuses('INVALID_TABLES');
  });

  it('refuses an identity with no Coup role, a disabled account, and a password reset', () => {
    given(boss)
      .when(sso(['player', 'guest']))
      .thenRefuses('NO_STAFF_ROLE');
    const disabled: StaffEvent = {
      type: 'StaffAccountDisabled',
      data: { username: 'sso:jane', reason: 'left', by: 'boss', at: T1 },
    };
    given(boss, made, disabled)
      .when(sso(['supervisor']))
      .thenRefuses('ACCOUNT_DISABLED', {
        type: 'StaffSignInFailed',
        data: { username: 'sso:jane', reason: 'disabled', failures: 0, at: T1 },
      });
    given(boss, made)
      .when({ type: 'ResetPassword', username: 'sso:jane', passwordHash: HASH, by: 'boss', at: T1 })
      .thenRefuses('NOT_A_PASSWORD_ACCOUNT');
    // nobody signs in with a password to a single-sign-on account
    given(boss, made).when(signIn('sso:jane', true)).thenRefuses('INVALID_CREDENTIALS');
  });
});
