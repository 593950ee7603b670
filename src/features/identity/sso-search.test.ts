import { describe, expect, it } from 'vitest';
import { parseSignInSearch } from './sign-in-page.tsx';
import { parseSsoCompleteSearch } from './sso-complete-page.tsx';

describe('sign-in and SSO completion search parameters', () => {
  it.each([
    [{}, {}],
    [{ redirect: '/bills' }, { redirect: '/bills' }],
    [{ sso_error: 'No Ledgerline account uses this email.' }, { sso_error: 'No Ledgerline account uses this email.' }],
    [{ redirect: '', sso_error: '' }, {}],
    [{ redirect: 3, sso_error: ['x'] }, {}],
  ])('sign-in %j → %j', (raw, parsed) => expect(parseSignInSearch(raw)).toEqual(parsed));

  it('an sso_error is cut to 500 characters (it is shown as text, never as markup)', () => {
    expect(parseSignInSearch({ sso_error: 'x'.repeat(2000) }).sso_error).toHaveLength(500);
  });

  it.each([
    [{ code: 'abc_DEF-123' }, { code: 'abc_DEF-123' }],
    [{}, {}],
    [{ code: '' }, {}],
    [{ code: 42 }, {}],
  ])('/sso/complete %j → %j', (raw, parsed) => expect(parseSsoCompleteSearch(raw)).toEqual(parsed));
});
