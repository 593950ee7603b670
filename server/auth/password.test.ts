import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('demo-password-1', FAST);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('demo-password-1', stored)).toBe(true);
    expect(await verifyPassword('demo-password-2', stored)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same', FAST)).not.toBe(await hashPassword('same', FAST));
  });

  it('uses the parameters stored in the hash (so defaults can change)', async () => {
    const stored = await hashPassword('pw', { N: 2 ** 11, r: 4, p: 1 });
    expect(await verifyPassword('pw', stored)).toBe(true);
  });

  it.each(['', 'bcrypt$x', 'scrypt$3$8$1$abc$def', 'scrypt$1024$8$1$abc$', 'scrypt$99999999$8$1$a$b'])(
    'never matches a malformed stored hash %j',
    async (stored) => {
      expect(await verifyPassword('pw', stored)).toBe(false);
    },
  );

  it('dummy verification always fails', async () => {
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });
});
