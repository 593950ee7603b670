import { describe, expect, it } from 'vitest';
import { contactProblems, resetQuestion } from './settings-words.ts';

describe('company settings words', () => {
  it('a reset names the value it leaves and the default it returns to, and what that changes', () => {
    expect(resetQuestion({ type: 'merchant_restrictions', summary: '1 category blocked: Gambling', default_summary: 'No categories blocked' })).toBe(
      'It goes from “1 category blocked: Gambling” back to “No categories blocked”. Cards can be used at every merchant category their own rules allow.',
    );
    expect(resetQuestion({ type: 'security_contact', summary: 'Sam <sam@example.com>', default_summary: 'None: admins only' })).toContain('The contact is told by email');
  });

  it('checks the security contact as the server does', () => {
    expect(contactProblems({ name: 'Sam', email: 'sam@example.com', phone: '' })).toEqual({});
    expect(contactProblems({ name: 'Sam', email: 'sam@example.com', phone: '+1 (415) 555-0100' })).toEqual({});
    expect(contactProblems({ name: ' ', email: 'sam@', phone: 'call me' })).toEqual({
      name: 'Enter the contact’s name.', email: 'Enter an email address like name@example.com.', phone: 'Enter a phone number: digits, with + and spaces if you like.',
    });
  });
});
