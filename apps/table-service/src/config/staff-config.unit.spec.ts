import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';

const base = () => ({
  COUP_SEED_KEY: '5e'.repeat(32),
  COUP_DATA_DIR: mkdtempSync(join(tmpdir(), 'coup-staff-config-')),
});
const OIDC = {
  COUP_OIDC_ISSUER: 'https://sso.casino.example',
  COUP_OIDC_CLIENT_ID: 'coup',
  COUP_OIDC_REDIRECT_URL: 'https://coup.casino.example/api/auth/oidc/callback',
};

describe('staff sign-in configuration', () => {
  it('defaults: a token of 8 hours, locked for 15 minutes after 5 wrong passwords, 30 sign-ins a minute, no SSO', () => {
    expect(loadConfig(base()).staff).toEqual({
      tokenHours: 8,
      lockoutAttempts: 5,
      lockoutMinutes: 15,
      signInsPerMinutePerIp: 30,
      oidc: null,
    });
  });

  it('reads the keys, and single sign-on with its defaults', () => {
    const c = loadConfig({
      ...base(),
      COUP_STAFF_TOKEN_HOURS: '12',
      COUP_STAFF_LOCKOUT_ATTEMPTS: '3',
      COUP_STAFF_LOCKOUT_MINUTES: '60',
      COUP_SIGN_INS_PER_IP_PER_MINUTE: '0',
      ...OIDC,
    });
    expect(c.staff).toEqual({
      tokenHours: 12,
      lockoutAttempts: 3,
      lockoutMinutes: 60,
      signInsPerMinutePerIp: 0,
      oidc: {
        ...{ issuer: OIDC.COUP_OIDC_ISSUER, clientId: 'coup', redirectUrl: OIDC.COUP_OIDC_REDIRECT_URL },
        clientSecret: null,
        rolesClaim: 'roles',
        tablesClaim: 'coup_tables',
        tablesWhenAbsent: 'none',
        scopes: 'openid profile',
        afterSignInUrl: '/',
      },
    });
    const custom = loadConfig({
      ...base(),
      ...OIDC,
      COUP_OIDC_CLIENT_SECRET: 's3cret',
      COUP_OIDC_ROLES_CLAIM: 'realm_access.roles',
      COUP_OIDC_SCOPES: 'openid profile coup',
      COUP_OIDC_AFTER_SIGN_IN_URL: '/console/',
      COUP_OIDC_TABLES_WHEN_ABSENT: 'all',
    }).staff.oidc;
    expect(custom).toMatchObject({
      tablesWhenAbsent: 'all',
      clientSecret: 's3cret',
      rolesClaim: 'realm_access.roles',
      scopes: 'openid profile coup',
      afterSignInUrl: '/console/',
    });
  });

  it.each([
    [{ COUP_STAFF_TOKEN_HOURS: '0' }, /COUP_STAFF_TOKEN_HOURS/],
    [{ COUP_STAFF_TOKEN_HOURS: '25' }, /COUP_STAFF_TOKEN_HOURS/],
    [{ COUP_STAFF_LOCKOUT_ATTEMPTS: '0' }, /COUP_STAFF_LOCKOUT_ATTEMPTS/],
    [{ COUP_STAFF_LOCKOUT_MINUTES: 'soon' }, /COUP_STAFF_LOCKOUT_MINUTES/],
    [{ COUP_SIGN_INS_PER_IP_PER_MINUTE: '-1' }, /COUP_SIGN_INS_PER_IP_PER_MINUTE/],
    [{ COUP_OIDC_ISSUER: 'https://sso.casino.example' }, /together/],
    [{ ...OIDC, COUP_OIDC_ISSUER: 'sso.casino.example' }, /COUP_OIDC_ISSUER/],
    [{ ...OIDC, COUP_OIDC_REDIRECT_URL: 'ftp://x/cb' }, /COUP_OIDC_REDIRECT_URL/],
    [{ ...OIDC, COUP_OIDC_ROLES_CLAIM: 'roles claim' }, /COUP_OIDC_ROLES_CLAIM/],
    [{ ...OIDC, COUP_OIDC_SCOPES: 'profile email' }, /COUP_OIDC_SCOPES/],
    [{ ...OIDC, COUP_OIDC_AFTER_SIGN_IN_URL: 'https://elsewhere.example/' }, /COUP_OIDC_AFTER_SIGN_IN_URL/],
    // browsers read a backslash after the first slash as a slash: another host
    [{ ...OIDC, COUP_OIDC_AFTER_SIGN_IN_URL: '/\\evil.example' }, /COUP_OIDC_AFTER_SIGN_IN_URL/],
    [{ ...OIDC, COUP_OIDC_AFTER_SIGN_IN_URL: '//evil.example' }, /COUP_OIDC_AFTER_SIGN_IN_URL/],
    [{ ...OIDC, COUP_OIDC_TABLES_WHEN_ABSENT: 'every' }, /COUP_OIDC_TABLES_WHEN_ABSENT/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ ...base(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), ...env })).toThrow(message);
  });
});
