import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DEFAULT_ERROR_MESSAGE,
  ERROR_CATALOGUE,
  errorBody,
  errorV2Schema,
  messageForError,
  validationMessages,
} from './errors.ts';

describe('error catalogue', () => {
  it('carries the §8 messages verbatim', () => {
    expect(ERROR_CATALOGUE.AUTH_7026.message).toBe(
      'You have a pending invite. Check your email and accept it to log in.',
    );
    expect(ERROR_CATALOGUE.AUTH_7027.message).toBe(
      'You have an expired invite. Request a new invite from your admin to log in.',
    );
    expect(ERROR_CATALOGUE.TIMEOUT.message).toBe('The request timed out. Refresh the page to try again.');
    expect(ERROR_CATALOGUE.AUTH_7002.message).toBe('Failed to resolve authenticated state');
    expect(DEFAULT_ERROR_MESSAGE).toBe('There was an error.');
  });

  it('every §8 code is present', () => {
    const spec = ['4005', '4011', '4014', 'BILLING_7001', 'BILLING_7002', 'BILLING_7003', 'BILL_PAY_7017',
      'PROFILE_7016', 'PROFILE_7017', 'PROFILE_7027', 'TIMEOUT', '6020', '6019', '6014', 'PAYEE_1007',
      'INFRA_7001', 'BUSINESS_7004', 'BUSINESS_7014', 'AUTH_7016', 'AUTH_7022', 'AUTH_7018', 'AUTH_7030',
      'AUTH_7042', 'AUTH_7021', 'AUTH_7028', 'AUTH_7025', 'AUTH_7002', 'AUTH_7026', 'AUTH_7027',
      'SWITCHING_7002', 'ACCESS_7006'];
    for (const code of spec) expect(Object.keys(ERROR_CATALOGUE)).toContain(code);
  });

  it('maps codes to messages, preferring the server message, defaulting otherwise', () => {
    expect(messageForError('AUTH_7026')).toBe(ERROR_CATALOGUE.AUTH_7026.message);
    expect(messageForError('AUTH_7026', 'Server says')).toBe('Server says');
    expect(messageForError('NOPE_1')).toBe('There was an error.');
    expect(messageForError(undefined)).toBe('There was an error.');
  });

  it('builds error_v2 bodies that parse', () => {
    const body = errorBody('REQUEST_7001', undefined, { email: 'email is required' });
    expect(errorV2Schema.parse(body)).toEqual({
      error_v2: { message: 'The request is invalid.', error_code: 'REQUEST_7001', errors: { email: 'email is required' } },
    });
  });
});

describe('§5 validation messages', () => {
  const schema = z.object({
    email: z.email(),
    amount: z.number(),
    site: z.url(),
    nested: z.object({ id: z.uuid() }),
  });
  it.each([
    [{}, 'email', 'email is required'],
    [{ email: 'a@b.co', amount: 'x' }, 'amount', 'amount must be a valid number'],
    [{ email: 'nope' }, 'email', 'email must be a valid email'],
    [{ email: 'a@b.co', amount: 1, site: 'not a url' }, 'site', 'Invalid URL'],
    [{ email: 'a@b.co', amount: 1, site: 'https://x.io', nested: {} }, 'nested.id', 'nested.id is required'],
    [{ email: 'a@b.co', amount: 1, site: 'https://x.io', nested: { id: 'x' } }, 'nested.id', 'nested.id must be a valid uuid'],
  ])('%j → %s: %s', (input, path, message) => {
    const r = schema.safeParse(input);
    expect(r.success).toBe(false);
    if (!r.success) expect(validationMessages(r.error, input)[path]).toBe(message);
  });
});
