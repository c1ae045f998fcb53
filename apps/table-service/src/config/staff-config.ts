/** The configuration of staff sign-in: password accounts, lockout, and OpenID Connect single sign-on. */
import { ConfigError, integer } from './config';

export interface OidcConfig {
  /** The provider's issuer URL (its discovery document is `<issuer>/.well-known/openid-configuration`). */
  readonly issuer: string;
  readonly clientId: string;
  /** null: a public client (PKCE alone); else sent to the token endpoint (client_secret_basic). */
  readonly clientSecret: string | null;
  /** The service's callback, registered with the provider: `https://<host>/api/auth/oidc/callback`. */
  readonly redirectUrl: string;
  /** The claim (a dotted path into the ID token's claims) whose values name Coup roles. */
  readonly rolesClaim: string;
  /** The claim naming the tables a dealer or supervisor may run (an empty one: no table). */
  readonly tablesClaim: string;
  /** What an ID token without the tables claim means: `none` (no table) or `all` (every table). */
  readonly tablesWhenAbsent: 'none' | 'all';
  readonly scopes: string;
  /** Where the browser lands after the sign-in, with `#token=...` (the console). */
  readonly afterSignInUrl: string;
}

export interface StaffConfig {
  /** How long a staff sign-in's token lasts, in hours (a shift). */
  readonly tokenHours: number;
  /** Wrong passwords in a row that lock an account. */
  readonly lockoutAttempts: number;
  /** How long a lock lasts, in minutes. */
  readonly lockoutMinutes: number;
  /** Sign-in attempts one client address may make a minute (429 beyond); 0: no limit. */
  readonly signInsPerMinutePerIp: number;
  readonly oidc: OidcConfig | null;
}

function url(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name] ?? '';
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, not '${value}'`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new ConfigError(`${name} must be an http(s) URL, not '${value}'`);
  return value;
}

/** COUP_OIDC_*: all of issuer, client id and redirect URL, or none (single sign-on off). */
function oidcOf(env: NodeJS.ProcessEnv): OidcConfig | null {
  const issuer = env['COUP_OIDC_ISSUER'] ?? '';
  const clientId = env['COUP_OIDC_CLIENT_ID'] ?? '';
  const redirect = env['COUP_OIDC_REDIRECT_URL'] ?? '';
  if (issuer === '' && clientId === '' && redirect === '') return null;
  if (issuer === '' || clientId === '' || redirect === '')
    throw new ConfigError(
      'single sign-on needs COUP_OIDC_ISSUER, COUP_OIDC_CLIENT_ID and COUP_OIDC_REDIRECT_URL together',
    );
  const claim = (name: string, fallback: string): string => {
    const value = env[name] || fallback;
    if (!/^[A-Za-z0-9_:/.-]{1,200}$/.test(value))
      throw new ConfigError(`${name} must be a claim name (or a dotted path to one), not '${value}'`);
    return value;
  };
  const scopes = env['COUP_OIDC_SCOPES'] || 'openid profile';
  if (!/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(scopes) || !scopes.split(' ').includes('openid'))
    throw new ConfigError(
      `COUP_OIDC_SCOPES must be space-separated scopes including openid, not '${scopes}'`,
    );
  const whenAbsent = env['COUP_OIDC_TABLES_WHEN_ABSENT'] || 'none';
  if (whenAbsent !== 'none' && whenAbsent !== 'all')
    throw new ConfigError(`COUP_OIDC_TABLES_WHEN_ABSENT must be none or all, not '${whenAbsent}'`);
  const after = env['COUP_OIDC_AFTER_SIGN_IN_URL'] || '/';
  // A path of this origin: not `//host`, nor `/\\host` (browsers read a backslash as a slash there).
  if (!after.startsWith('/') || after.startsWith('//') || after.includes('\\') || !sameOrigin(after))
    throw new ConfigError(`COUP_OIDC_AFTER_SIGN_IN_URL must be a path on this service, not '${after}'`);
  return {
    issuer: url(env, 'COUP_OIDC_ISSUER'),
    clientId,
    clientSecret: env['COUP_OIDC_CLIENT_SECRET'] || null,
    redirectUrl: url(env, 'COUP_OIDC_REDIRECT_URL'),
    rolesClaim: claim('COUP_OIDC_ROLES_CLAIM', 'roles'),
    tablesClaim: claim('COUP_OIDC_TABLES_CLAIM', 'coup_tables'),
    tablesWhenAbsent: whenAbsent,
    scopes,
    afterSignInUrl: after,
  };
}

/** Whether a path, resolved against an origin, stays on it. */
function sameOrigin(path: string): boolean {
  try {
    return new URL(path, 'http://coup.invalid').origin === 'http://coup.invalid';
  } catch {
    return false;
  }
}

export function staffConfigOf(env: NodeJS.ProcessEnv): StaffConfig {
  return {
    tokenHours: integer(env, 'COUP_STAFF_TOKEN_HOURS', 8, 1, 24),
    lockoutAttempts: integer(env, 'COUP_STAFF_LOCKOUT_ATTEMPTS', 5, 1, 100),
    lockoutMinutes: integer(env, 'COUP_STAFF_LOCKOUT_MINUTES', 15, 1, 1_440),
    signInsPerMinutePerIp: integer(env, 'COUP_SIGN_INS_PER_IP_PER_MINUTE', 30, 0, 100_000_000),
    oidc: oidcOf(env),
  };
}
