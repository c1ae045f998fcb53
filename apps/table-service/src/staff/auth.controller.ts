import { Controller, Get, HttpCode, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { CurrentPrincipal, Roles } from '../common/auth';
import { PublicApi } from './public-route';
import type { Caller } from '../common/request-context';
import { ValidBody } from '../tables/dto';
import { SignInDto } from './staff.dto';
import { OidcSignIn } from './oidc';
import { StaffAccounts, type RequestOrigin, type SignedIn } from './staff-accounts';
import { ApiRefusals } from '../ops/openapi-errors';

/** The limit on sign-in attempts per client address (COUP_SIGN_INS_PER_IP_PER_MINUTE), with its per-minute window. */
export const SIGN_IN_LIMIT = Symbol('SIGN_IN_LIMIT');

const STAFF = ['admin', 'dealer', 'supervisor', 'compliance', 'analyst'] as const;

const originOf = (request: FastifyRequest): RequestOrigin => ({
  ip: request.ip,
  correlationId: request.correlationId,
});

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  private limiter: ReturnType<FastifyInstance['createRateLimit']> | null | undefined;

  constructor(
    private readonly accounts: StaffAccounts,
    private readonly adapter: HttpAdapterHost,
    @Inject(SIGN_IN_LIMIT) private readonly signInsPerMinute: number,
    @Optional() @Inject(OidcSignIn) private readonly oidc?: OidcSignIn,
  ) {}

  @Get('options')
  @PublicApi()
  @ApiOperation({
    summary: 'How staff sign in here: a password, and single sign-on when configured (no token)',
  })
  options() {
    return { password: true, sso: this.oidc ? { start: '/api/auth/oidc/start' } : null };
  }

  @Post('sign-in')
  @HttpCode(200)
  @PublicApi()
  @ApiOperation({
    summary: 'Sign in with a user name and password (no token): a token for a shift (COUP_STAFF_TOKEN_HOURS)',
    description:
      'Answers { token, expiresAt, username, role, roles, tables }. Wrong passwords in a row lock the account ' +
      '(COUP_STAFF_LOCKOUT_ATTEMPTS, for COUP_STAFF_LOCKOUT_MINUTES); each is recorded. An unknown user name and ' +
      'a wrong password get the same answer.',
  })
  @ApiRefusals(
    'VALIDATION_FAILED',
    'INVALID_CREDENTIALS',
    'ACCOUNT_DISABLED',
    'ACCOUNT_LOCKED',
    'ROLE_NOT_HELD',
    'RATE_LIMITED',
  )
  async signIn(@ValidBody() body: SignInDto, @Req() request: FastifyRequest): Promise<SignedIn> {
    await this.limit(request);
    return this.accounts.signIn(body.username, body.password, body.role ?? null, originOf(request));
  }

  @Post('sign-out')
  @HttpCode(204)
  @Roles(...STAFF)
  @ApiBearerAuth()
  @ApiOperation({ summary: "Sign out: every token of the caller's account issued before ends" })
  @ApiRefusals('NOT_A_SIGN_IN')
  async signOut(@CurrentPrincipal() p: Caller): Promise<void> {
    await this.accounts.signOut(p, p.correlationId ? { correlationId: p.correlationId } : {});
  }

  @Get('oidc/start')
  @PublicApi()
  @ApiOperation({
    summary: "Single sign-on: redirects to the casino's identity provider (authorization code with PKCE)",
  })
  @ApiResponse({ status: 302, description: "To the provider's authorization endpoint" })
  @ApiRefusals('SSO_NOT_CONFIGURED', 'SSO_UNAVAILABLE')
  async start(@Res() reply: FastifyReply): Promise<void> {
    const { location, cookie } = await this.sso().start();
    await reply.code(302).header('set-cookie', cookie).header('location', location).send();
  }

  @Get('oidc/callback')
  @PublicApi()
  @ApiOperation({
    summary: 'Single sign-on: where the provider sends the browser back',
    description:
      'Exchanges the code (state, nonce, PKCE; the ID token verified against the JWKS), takes the roles from ' +
      'COUP_OIDC_ROLES_CLAIM and the tables from COUP_OIDC_TABLES_CLAIM, and redirects to COUP_OIDC_AFTER_SIGN_IN_URL with #token=...; with ' +
      '`Accept: application/json` it answers what a sign-in answers instead.',
  })
  @ApiRefusals(
    'SSO_NOT_CONFIGURED',
    'SSO_UNAVAILABLE',
    'SSO_NO_FLOW',
    'SSO_FAILED',
    'NO_STAFF_ROLE',
    'SSO_INVALID_TABLES',
    'ACCOUNT_DISABLED',
    'STORE_UNAVAILABLE',
  )
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const oidc = this.sso();
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const signedIn = await oidc.callback(query, request.headers.cookie, originOf(request));
    void reply.header('set-cookie', oidc.clearCookie()).header('cache-control', 'no-store');
    if ((request.headers.accept ?? '').includes('application/json')) {
      await reply.code(200).send(signedIn);
      return;
    }
    const fragment = new URLSearchParams({ token: signedIn.token, expiresAt: signedIn.expiresAt });
    await reply.code(302).header('location', `${oidc.config.afterSignInUrl}#${fragment}`).send();
  }

  private sso(): OidcSignIn {
    if (!this.oidc)
      throw new ApiError(
        404,
        'SSO_NOT_CONFIGURED',
        'single sign-on is not configured here (COUP_OIDC_ISSUER)',
      );
    return this.oidc;
  }

  /** Sign-in attempts per client address and minute (the edge's rate-limit counters): 429 beyond. */
  private async limit(request: FastifyRequest): Promise<void> {
    if (this.limiter === undefined) {
      const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
      this.limiter =
        this.signInsPerMinute > 0 && typeof fastify.createRateLimit === 'function'
          ? fastify.createRateLimit({ max: this.signInsPerMinute, timeWindow: 60_000 })
          : null;
    }
    const verdict = this.limiter ? await this.limiter(request) : null;
    if (verdict && !verdict.isAllowed && verdict.isExceeded) {
      const seconds = Math.max(1, verdict.ttlInSeconds);
      throw new ApiError(429, 'RATE_LIMITED', `too many sign-ins from this address: retry in ${seconds} s`, {
        retryAfterSeconds: seconds,
      });
    }
  }
}
