import { createHmac } from 'node:crypto';
import { DEFAULT_CLOCK_SKEW_SECONDS, signToken, verifyToken, TokenError, TokenVerifier } from './index';

const secret = 'a'.repeat(40);
const now = 1_800_000_000;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return e instanceof TokenError ? e.code : `not a TokenError: ${String(e)}`;
  }
  return 'no error';
}

describe('bearer tokens', () => {
  it('round-trips sub, role and tables', () => {
    const token = signToken(secret, { sub: 'd1', role: 'dealer', tables: ['T1'], now });
    expect(verifyToken(secret, token, now)).toEqual({ id: 'd1', role: 'dealer', tables: ['T1'] });
    expect(verifyToken(secret, signToken(secret, { sub: 'p1', role: 'player', now }), now)).toEqual({
      id: 'p1',
      role: 'player',
      tables: null,
    });
  });

  it('keeps an empty list of tables: the token may run no table (only an absent claim means every table)', () => {
    const token = signToken(secret, { sub: 'd1', role: 'dealer', tables: [], now });
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({
      tables: [],
    });
    expect(verifyToken(secret, token, now)).toEqual({ id: 'd1', role: 'dealer', tables: [] });
  });

  it('tells a holder when the token expires (null: never), remembered or not', () => {
    const verifier = new TokenVerifier(secret);
    const lasting = signToken(secret, { sub: 'p1', role: 'player', expiresInSeconds: 60, now });
    for (let i = 0; i < 2; i++)
      expect(verifier.verifyWithExpiry(lasting, now)).toEqual({
        principal: { id: 'p1', role: 'player', tables: null },
        expiresAt: now + 60,
      });
    expect(
      verifier.verifyWithExpiry(signToken(secret, { sub: 'a', role: 'admin', now }), now).expiresAt,
    ).toBe(null);
    expect(codeOf(() => verifier.verifyWithExpiry(lasting, now + 60))).toBe('TOKEN_EXPIRED');
  });

  it('refuses a token signed with another secret', () => {
    const token = signToken('b'.repeat(40), { sub: 'd1', role: 'admin', now });
    expect(codeOf(() => verifyToken(secret, token, now))).toBe('TOKEN_SIGNATURE');
  });

  it('refuses a tampered payload', () => {
    const [h, , s] = signToken(secret, { sub: 'p1', role: 'player', now }).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'p1', role: 'admin', iat: now })).toString('base64url');
    expect(codeOf(() => verifyToken(secret, `${h}.${forged}.${s}`, now))).toBe('TOKEN_SIGNATURE');
  });

  it('refuses alg none and other algorithms even when "signed"', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'x', role: 'admin' })).toString('base64url');
    const sig = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
    expect(codeOf(() => verifyToken(secret, `${header}.${payload}.${sig}`, now))).toBe('TOKEN_MALFORMED');
  });

  it('honours expiry', () => {
    const token = signToken(secret, { sub: 'a', role: 'admin', now, expiresInSeconds: 60 });
    expect(verifyToken(secret, token, now + 59).id).toBe('a');
    expect(codeOf(() => verifyToken(secret, token, now + 60))).toBe('TOKEN_EXPIRED');
  });

  describe('nbf and iat, with a small clock skew', () => {
    it('refuses a token not valid before a later time (nbf), until then less the skew', () => {
      const token = signToken(secret, { sub: 'a', role: 'admin', now, notBefore: now + 365 * 24 * 3600 });
      expect(codeOf(() => verifyToken(secret, token, now))).toBe('TOKEN_NOT_YET_VALID');
      const soon = signToken(secret, { sub: 'a', role: 'admin', now, notBefore: now + 100 });
      expect(codeOf(() => verifyToken(secret, soon, now + 100 - DEFAULT_CLOCK_SKEW_SECONDS - 1))).toBe(
        'TOKEN_NOT_YET_VALID',
      );
      expect(verifyToken(secret, soon, now + 100 - DEFAULT_CLOCK_SKEW_SECONDS).id).toBe('a');
      expect(verifyToken(secret, soon, now + 100).id).toBe('a');
    });

    it('refuses a token issued in the future (iat), beyond the skew', () => {
      const later = signToken(secret, { sub: 'a', role: 'admin', now: now + 3600 });
      expect(codeOf(() => verifyToken(secret, later, now))).toBe('TOKEN_NOT_YET_VALID');
      const skewed = signToken(secret, { sub: 'a', role: 'admin', now: now + 20 });
      expect(verifyToken(secret, skewed, now).id).toBe('a');
    });

    it('takes the skew as an option, 0 included', () => {
      const skewed = signToken(secret, { sub: 'a', role: 'admin', now: now + 20 });
      expect(codeOf(() => verifyToken(secret, skewed, now, { clockSkewSeconds: 0 }))).toBe(
        'TOKEN_NOT_YET_VALID',
      );
      expect(verifyToken(secret, skewed, now + 20, { clockSkewSeconds: 0 }).id).toBe('a');
      const far = signToken(secret, { sub: 'a', role: 'admin', now: now + 200 });
      expect(verifyToken(secret, far, now, { clockSkewSeconds: 300 }).id).toBe('a');
    });

    it('does not stretch exp by the skew', () => {
      const token = signToken(secret, { sub: 'a', role: 'admin', now, expiresInSeconds: 60 });
      expect(codeOf(() => verifyToken(secret, token, now + 60, { clockSkewSeconds: 300 }))).toBe(
        'TOKEN_EXPIRED',
      );
    });

    it.each([
      ['nbf', 'soon'],
      ['iat', '1800000000'],
      ['exp', null],
      ['nbf', [1]],
    ])('refuses a %s claim that is not a number of seconds (%p)', (claim, value) => {
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const payload = Buffer.from(JSON.stringify({ sub: 'x', role: 'admin', [claim]: value })).toString(
        'base64url',
      );
      const sig = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
      expect(codeOf(() => verifyToken(secret, `${header}.${payload}.${sig}`, now))).toBe('TOKEN_CLAIMS');
    });
  });

  it('reads only the claims the token itself carries, never inherited ones', () => {
    const token = signToken(secret, { sub: 'a', role: 'admin', now });
    const proto = Object.prototype as Record<string, unknown>;
    proto['exp'] = now - 1;
    proto['nbf'] = now + 3600;
    proto['tables'] = ['T9'];
    try {
      expect(verifyToken(secret, token, now)).toEqual({ id: 'a', role: 'admin', tables: null });
    } finally {
      delete proto['exp'];
      delete proto['nbf'];
      delete proto['tables'];
    }
  });

  it.each(['', 'abc', 'a.b', 'a..c', 'a.b.c.d', '!!!.###.$$$'])('refuses the malformed token %p', (token) => {
    expect(codeOf(() => verifyToken(secret, token, now))).toBe('TOKEN_MALFORMED');
  });

  it('refuses unknown roles and missing subjects', () => {
    const forge = (claims: object) => {
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`;
    };
    expect(codeOf(() => verifyToken(secret, forge({ sub: 'x', role: 'god' }), now))).toBe('TOKEN_CLAIMS');
    expect(codeOf(() => verifyToken(secret, forge({ role: 'admin' }), now))).toBe('TOKEN_CLAIMS');
    expect(codeOf(() => verifyToken(secret, forge({ sub: 'x', role: 'dealer', tables: [1] }), now))).toBe(
      'TOKEN_CLAIMS',
    );
  });

  it('refuses short secrets', () => {
    expect(codeOf(() => signToken('short', { sub: 'a', role: 'admin' }))).toBe('TOKEN_SECRET');
  });
});

describe('TokenVerifier (remembers verified tokens)', () => {
  it('answers like verifyToken, and a remembered token still expires on time', () => {
    const verifier = new TokenVerifier(secret);
    const token = signToken(secret, { sub: 'p1', role: 'player', now, expiresInSeconds: 60 });
    expect(verifier.verify(token, now)).toEqual(verifyToken(secret, token, now));
    expect(verifier.verify(token, now + 59)).toEqual({ id: 'p1', role: 'player', tables: null });
    expect(codeOf(() => verifier.verify(token, now + 60))).toBe('TOKEN_EXPIRED');
  });

  it('a remembered token is still not valid before its nbf, even if the clock goes back', () => {
    const verifier = new TokenVerifier(secret);
    const token = signToken(secret, { sub: 'p1', role: 'player', now, notBefore: now + 100 });
    expect(codeOf(() => verifier.verify(token, now))).toBe('TOKEN_NOT_YET_VALID');
    expect(verifier.verify(token, now + 100).id).toBe('p1');
    // the clock steps back (NTP, a VM resumed): the remembered token is not valid yet again
    expect(codeOf(() => verifier.verify(token, now))).toBe('TOKEN_NOT_YET_VALID');
    const issued = signToken(secret, { sub: 'p2', role: 'player', now: now + 100 });
    expect(verifier.verify(issued, now + 100).id).toBe('p2');
    expect(codeOf(() => verifier.verify(issued, now))).toBe('TOKEN_NOT_YET_VALID');
  });

  it('uses its configured skew for remembered tokens too', () => {
    const verifier = new TokenVerifier(secret, { clockSkewSeconds: 0 });
    const token = signToken(secret, { sub: 'p1', role: 'player', now: now + 5 });
    expect(codeOf(() => verifier.verify(token, now))).toBe('TOKEN_NOT_YET_VALID');
    expect(verifier.verify(token, now + 5).id).toBe('p1');
    expect(codeOf(() => verifier.verify(token, now + 4))).toBe('TOKEN_NOT_YET_VALID');
    expect(() => new TokenVerifier(secret, { clockSkewSeconds: -1 })).toThrow(RangeError);
  });

  it('never remembers a failure: a forged token fails every time, and a tampered copy of a good one fails', () => {
    const verifier = new TokenVerifier(secret);
    const good = signToken(secret, { sub: 'p1', role: 'player', now });
    const forged = signToken('b'.repeat(40), { sub: 'p1', role: 'admin', now });
    expect(verifier.verify(good, now).role).toBe('player');
    expect(codeOf(() => verifier.verify(forged, now))).toBe('TOKEN_SIGNATURE');
    expect(codeOf(() => verifier.verify(forged, now))).toBe('TOKEN_SIGNATURE');
    const [h, , s] = good.split('.');
    const admin = Buffer.from(JSON.stringify({ sub: 'p1', role: 'admin', iat: now })).toString('base64url');
    expect(codeOf(() => verifier.verify(`${h}.${admin}.${s}`, now))).toBe('TOKEN_SIGNATURE');
  });

  it('checks the signature only once per token, and keeps at most maxEntries tokens', () => {
    const verifier = new TokenVerifier(secret, { maxEntries: 2 });
    const tokens = ['p1', 'p2', 'p3'].map((sub) => signToken(secret, { sub, role: 'player', now }));
    const calls = jest.spyOn(Buffer, 'from');
    verifier.verify(tokens[0]!, now);
    const firstCost = calls.mock.calls.length;
    calls.mockClear();
    verifier.verify(tokens[0]!, now);
    expect(calls.mock.calls.length).toBe(0); // remembered: nothing decoded, no HMAC
    verifier.verify(tokens[1]!, now);
    verifier.verify(tokens[2]!, now); // p1 is dropped (the oldest)
    calls.mockClear();
    verifier.verify(tokens[0]!, now);
    expect(calls.mock.calls.length).toBe(firstCost); // verified again from scratch
    calls.mockRestore();
  });
});

describe('staff sign-in tokens (roles and generation)', () => {
  const session = { roles: ['dealer', 'supervisor'] as const, generation: 3 };

  it('carry the account roles and generation, and verify to them', () => {
    const token = signToken(secret, { sub: 'ann', role: 'dealer', tables: ['T1'], session, now });
    expect(verifyToken(secret, token, now)).toEqual({
      id: 'ann',
      role: 'dealer',
      tables: ['T1'],
      roles: ['dealer', 'supervisor'],
      generation: 3,
    });
  });

  it('are checked against their account on every use, remembered or not; other tokens are not', () => {
    let current = 3;
    const checked: string[] = [];
    const verifier = new TokenVerifier(secret, {
      sessions: (principal) => {
        checked.push(principal.id);
        if (principal.generation !== current) throw new TokenError('TOKEN_REVOKED', 'signed out');
      },
    });
    const token = signToken(secret, { sub: 'ann', role: 'dealer', session, now });
    expect(verifier.verify(token, now).id).toBe('ann');
    expect(verifier.verify(token, now).id).toBe('ann');
    current = 4;
    expect(codeOf(() => verifier.verify(token, now))).toBe('TOKEN_REVOKED');
    expect(verifier.verify(signToken(secret, { sub: 'p1', role: 'player', now }), now).id).toBe('p1');
    expect(checked).toEqual(['ann', 'ann', 'ann']);
  });

  it.each([
    [{ gen: -1, roles: ['dealer'] }],
    [{ gen: 1.5, roles: ['dealer'] }],
    [{ gen: 1 }],
    [{ roles: ['dealer'] }],
    [{ gen: 1, roles: [] }],
    [{ gen: 1, roles: ['god'] }],
  ])('refuse malformed session claims %j', (extra) => {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'x', role: 'dealer', ...extra })).toString('base64url');
    const sig = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
    expect(codeOf(() => verifyToken(secret, `${header}.${payload}.${sig}`, now))).toBe('TOKEN_CLAIMS');
  });
});
