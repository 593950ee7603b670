import { describe, expect, it } from 'vitest';
import { errorText } from './error-text.ts';

describe('errorText', () => {
  it.each([
    ['server words first', { error_code: 'AUTH_7001', message: 'Nope.' }, 'Nope.'],
    ['catalogue message for a known code', { error_code: 'AUTH_7002', message: '' }, 'Failed to resolve authenticated state'],
    ['default otherwise', { error_code: 'WHAT', message: '' }, 'There was an error.'],
    ['nothing at all', null, 'There was an error.'],
  ])('%s', (_n, e, text) => expect(errorText(e)).toBe(text));
});
