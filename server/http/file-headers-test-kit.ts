import { expect } from 'vitest';

/** A file answer: a sandboxed, named download whose type is final (file-headers.ts). */
export function expectFileHeaders(headers: Headers, name: string | RegExp) {
  const disposition = headers.get('content-disposition') ?? '';
  if (typeof name === 'string') expect(disposition).toBe(`attachment; filename="${name}"`);
  else expect(disposition).toMatch(name);
  expect(disposition).toMatch(/^attachment; filename="[A-Za-z0-9][A-Za-z0-9._-]*"$/);
  expect(headers.get('content-security-policy')).toMatch(/^sandbox(;|$)/);
  expect(headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}
