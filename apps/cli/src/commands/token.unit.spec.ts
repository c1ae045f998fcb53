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
