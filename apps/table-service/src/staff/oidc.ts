/**
 * Single sign-on with OpenID Connect: the authorization code flow with PKCE (S256), through `openid-client`
 * (discovery, the authorization URL, the code exchange with its state, nonce and PKCE checks, and the ID token's
 * signature verified against the provider's JWKS: non-repudiation checks on). The flow's secrets (PKCE verifier,
 * state, nonce) wait in a cookie encrypted with a key derived from COUP_JWT_SECRET (`jose`, A256GCM), so any
 * instance of the service can finish a flow another began. Roles and tables come from configured claims of the ID
 * token (sso-claims.ts).
 */
import { hkdfSync } from 'node:crypto';
import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { staff } from '@coup/auth';
import type * as OpenIdClient from 'openid-client';
import { ApiError } from '../common/api-error';
import type { OidcConfig } from '../config/staff-config';
import { claimAt, claimValues, tablesOfClaim } from './sso-claims';
import type { RequestOrigin, SignedIn, StaffAccounts } from './staff-accounts';

/** The cookie that carries a flow in progress, sent back only to the callback. */
export const FLOW_COOKIE = 'coup_oidc';
const FLOW_SECONDS = 600;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

interface Flow {
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
}

// Loaded on first use: both are ES modules (Node 20.19+ requires them; Jest's CommonJS runtime never needs them).
const loadClient = (): Promise<typeof OpenIdClient> => import('openid-client');
const loadJose = () => import('jose');

/** The account name of a provider's subject: `sso:<sub>` when it is plain, else `sso:` and a hash of it. */
export function ssoUsername(issuer: string, subject: string): string {
  const plain = `sso:${subject}`;
  if (staff.SSO_USERNAME_PATTERN.test(plain)) return plain;
  return `sso:${createHash('sha256').update(`${issuer} ${subject}`).digest('hex').slice(0, 40)}`;
}

export class OidcSignIn {
  private readonly log = new Logger('oidc');
  private discovered: Promise<OpenIdClient.Configuration> | null = null;
  private readonly cookieKey: Uint8Array;

  constructor(
    readonly config: OidcConfig,
    jwtSecret: string,
    private readonly accounts: StaffAccounts,
  ) {
    this.cookieKey = new Uint8Array(hkdfSync('sha256', jwtSecret, 'coup', 'oidc-flow-cookie', 32));
  }

  /** The provider's configuration (discovered once; a failed discovery is tried again next time). */
  private async provider(): Promise<OpenIdClient.Configuration> {
    this.discovered ??= (async () => {
      const client = await loadClient();
      const { issuer, clientId, clientSecret } = this.config;
      // Plain http only for a provider on this machine (tests, a local identity provider).
      const insecure = new URL(issuer).protocol === 'http:' && LOOPBACK.has(new URL(issuer).hostname);
      return client.discovery(
        new URL(issuer),
        clientId,
        clientSecret ?? undefined,
        clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
        { execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])] },
      );
    })();
    try {
      return await this.discovered;
    } catch (error) {
      this.discovered = null;
      this.log.error({
        msg: 'OpenID Connect discovery failed',
        issuer: this.config.issuer,
        error: String(error),
      });
      throw new ApiError(502, 'SSO_UNAVAILABLE', 'the identity provider cannot be reached now');
    }
  }

  /** The authorization URL to send the browser to, and the cookie that keeps the flow's secrets. */
  async start(): Promise<{ readonly location: string; readonly cookie: string }> {
    const configuration = await this.provider();
    const client = await loadClient();
    const flow: Flow = {
      verifier: client.randomPKCECodeVerifier(),
      state: client.randomState(),
      nonce: client.randomNonce(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.config.redirectUrl,
      scope: this.config.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    const { EncryptJWT } = await loadJose();
    const sealed = await new EncryptJWT({ ...flow })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt()
      .setExpirationTime(`${FLOW_SECONDS}s`)
      .encrypt(this.cookieKey);
    return { location: url.href, cookie: this.cookie(sealed, FLOW_SECONDS) };
  }

  /** The cookie that ends a flow (sent with the callback's answer). */
  clearCookie(): string {
    return this.cookie('', 0);
  }

  private cookie(value: string, maxAge: number): string {
    const callback = new URL(this.config.redirectUrl);
    const secure = callback.protocol === 'https:' ? '; Secure' : '';
    return `${FLOW_COOKIE}=${value}; Path=${callback.pathname}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
  }

  /**
   * The provider sent the browser back: exchange the code (state, nonce and PKCE checked, the ID token's signature
   * verified against the provider's JWKS), read the roles, and sign the person in.
   */
  async callback(query: string, cookieHeader: string | undefined, origin: RequestOrigin): Promise<SignedIn> {
    const flow = await this.openFlow(cookieHeader);
    const configuration = await this.provider();
    const client = await loadClient();
    const current = new URL(this.config.redirectUrl);
    current.search = query;
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = { ...(tokens.claims() ?? {}) };
    } catch (error) {
      this.log.warn({
        msg: 'single sign-on refused',
        error: String(error),
        correlationId: origin.correlationId,
      });
      throw new ApiError(
        401,
        'SSO_FAILED',
        `the single sign-on did not complete: ${(error as Error).message}`,
      );
    }
    const subject = String(claims['sub']);
    const roles = claimValues(claimAt(claims, this.config.rolesClaim)).filter(staff.isStaffRole);
    const username = ssoUsername(configuration.serverMetadata().issuer, subject);
    let tables: readonly string[] | null;
    try {
      tables = tablesOfClaim(claimAt(claims, this.config.tablesClaim), this.config.tablesWhenAbsent);
    } catch (error) {
      this.log.warn({
        msg: 'single sign-on refused: the tables claim is not a list of table ids',
        username,
        claim: this.config.tablesClaim,
        correlationId: origin.correlationId,
      });
      throw error;
    }
    return this.accounts.ssoSignIn(username, roles, tables, origin);
  }

  private async openFlow(cookieHeader: string | undefined): Promise<Flow> {
    const sealed = (cookieHeader ?? '')
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${FLOW_COOKIE}=`))
      ?.slice(FLOW_COOKIE.length + 1);
    if (!sealed)
      throw new ApiError(
        400,
        'SSO_NO_FLOW',
        'no single sign-on in progress in this browser (start it again)',
      );
    try {
      const { jwtDecrypt } = await loadJose();
      const { payload } = await jwtDecrypt(sealed, this.cookieKey);
      const { verifier, state, nonce } = payload as Record<string, unknown>;
      if (typeof verifier !== 'string' || typeof state !== 'string' || typeof nonce !== 'string')
        throw new Error('the flow cookie lacks its secrets');
      return { verifier, state, nonce };
    } catch {
      throw new ApiError(
        400,
        'SSO_NO_FLOW',
        'the single sign-on in progress expired or is not ours (start it again)',
      );
    }
  }
}
