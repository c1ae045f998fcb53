import { scryptSync } from 'node:crypto';
import { DEFAULT_SCRYPT, hashPassword, isPasswordHash, spendPasswordCheck, verifyPassword } from './password';

// Cheap parameters keep the suite fast; one case checks the defaults once.
const CHEAP = { log2N: 10, r: 8, p: 1 };

describe('staff passwords (scrypt)', () => {
  it("hashes with the default parameters, one of OWASP's scrypt settings, and checks them", async () => {
    // OWASP Password Storage Cheat Sheet: N=2^17 p=1, 2^16 p=2, 2^15 p=3, 2^14 p=5 or 2^13 p=10, each with r=8.
    const owasp = [
      [17, 1],
      [16, 2],
      [15, 3],
      [14, 5],
      [13, 10],
    ].map(([log2N, p]) => ({ log2N, r: 8, p }));
    expect(owasp).toContainEqual({ ...DEFAULT_SCRYPT });
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$15\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    // two hashes at the production cost (about 0.1 s of CPU each with 96 MiB), which a loaded machine can stretch
    // far past jest's default 5 s: the time is compute, not a wait on anything
  }, 60_000);

  it('is scrypt itself: the stored key is scrypt(password, salt) with the stored parameters', async () => {
    const hash = await hashPassword('correct horse battery', CHEAP);
    const [, , , , salt, key] = hash.split('$');
    const expected = scryptSync('correct horse battery', Buffer.from(salt!, 'base64url'), 32, {
      N: 1024,
      r: 8,
      p: 1,
    });
    expect(Buffer.from(key!, 'base64url').equals(expected)).toBe(true);
  });

  it('refuses a wrong password, and salts each hash', async () => {
    const a = await hashPassword('correct horse battery', CHEAP);
    const b = await hashPassword('correct horse battery', CHEAP);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats composed and decomposed accents as the same password (NFC)', async () => {
    const hash = await hashPassword('caf\u00e9 au lait!!', CHEAP);
    expect(await verifyPassword('cafe\u0301 au lait!!', hash)).toBe(true);
  });

  it.each([
    'hunter2',
    'scrypt$10$8$1$c2FsdA$',
    'scrypt$30$8$1$c2FsdHNhbHQ$' + 'A'.repeat(43),
    'scrypt$10$99$1$c2FsdHNhbHQ$' + 'A'.repeat(43),
    'bcrypt$10$8$1$c2FsdHNhbHQ$' + 'A'.repeat(43),
  ])('a hash that is not ours (or asks for too much memory) is false, never an error: %p', async (hash) => {
    expect(isPasswordHash(hash)).toBe(false);
    expect(await verifyPassword('whatever', hash)).toBe(false);
  });

  it('spends a check for unknown users, and refuses out-of-bounds parameters when hashing', async () => {
    expect(await spendPasswordCheck('whatever', CHEAP)).toBe(false);
    await expect(hashPassword('x', { log2N: 25, r: 8, p: 1 })).rejects.toThrow(RangeError);
  });
});
