import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyToken } from '@coup/auth';
import { runCli } from '../cli';
import { fakeIo } from '../testing';

const SECRET = 's'.repeat(40);

describe('coup token', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('prints a token signed with COUP_JWT_SECRET that the service accepts', async () => {
    process.env['COUP_JWT_SECRET'] = SECRET;
    const io = fakeIo();
    expect(await runCli(['token', '--role', 'dealer', '--sub', 'd1', '--tables', 'T1,T2'], io)).toBe(0);
    expect(verifyToken(SECRET, io.out().trim())).toEqual({ id: 'd1', role: 'dealer', tables: ['T1', 'T2'] });
  });

  it('falls back to the local secret in the data folder', async () => {
    delete process.env['COUP_JWT_SECRET'];
    const dir = mkdtempSync(join(tmpdir(), 'coup-token-'));
    writeFileSync(join(dir, 'jwt-secret.local'), 'l'.repeat(64) + '\n');
    process.env['COUP_DATA_DIR'] = dir;
    const io = fakeIo();
    expect(await runCli(['token', '--role', 'player', '--sub', 'p1'], io)).toBe(0);
    expect(verifyToken('l'.repeat(64), io.out().trim()).id).toBe('p1');
  });

  /** The claims of a printed token (its payload, decoded). */
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
      iat: number;
      exp?: number;
    };

  it('signs tokens that expire in 12 hours by default', async () => {
    process.env['COUP_JWT_SECRET'] = SECRET;
    const io = fakeIo();
    expect(await runCli(['token', '--role', 'admin', '--sub', 'pit'], io)).toBe(0);
    const { iat, exp } = claimsOf(io.out().trim());
    expect(exp).toBe(iat + 12 * 3600);
  });

  it.each([
    ['90s', 90],
    ['30m', 30 * 60],
    ['12h', 12 * 3600],
    ['7d', 7 * 24 * 3600],
    ['366d', 366 * 24 * 3600],
  ])('--ttl %s: expires %i seconds after it was issued', async (ttl, seconds) => {
    process.env['COUP_JWT_SECRET'] = SECRET;
    const io = fakeIo();
    expect(await runCli(['token', '--role', 'player', '--sub', 'p1', '--ttl', ttl], io)).toBe(0);
    const { iat, exp } = claimsOf(io.out().trim());
    expect(exp).toBe(iat + seconds);
    expect(verifyToken(SECRET, io.out().trim(), iat + seconds - 1).id).toBe('p1');
    expect(() => verifyToken(SECRET, io.out().trim(), iat + seconds)).toThrow(/expired/);
  });

  it.each(['12', 'h', '1.5h', '-1h', '12 h', '59s', '367d', '1w', 'never'])(
    'refuses --ttl %p with exit 2',
    async (ttl) => {
      process.env['COUP_JWT_SECRET'] = SECRET;
      const io = fakeIo();
      expect(await runCli(['token', '--role', 'player', '--sub', 'p1', `--ttl=${ttl}`], io)).toBe(2);
      expect(io.err()).toMatch(/--ttl must be/);
    },
  );

  it.each([
    [['token', '--sub', 'x'], /--role/],
    [['token', '--role', 'god', '--sub', 'x'], /--role/],
    [['token', '--role', 'admin'], /--sub/],
    [['token', '--role', 'dealer', '--sub', 'd', '--tables', ','], /--tables/],
  ])('refuses %p with exit 2', async (args, message) => {
    process.env['COUP_JWT_SECRET'] = SECRET;
    const io = fakeIo();
    expect(await runCli(args, io)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});
