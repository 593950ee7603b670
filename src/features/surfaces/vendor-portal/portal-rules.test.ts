import { describe, expect, it } from 'vitest';
import { bankFormErrors, inviteFormErrors, inviteTokenOf, paymentStatusText, propagationText, tinError } from './portal-rules.ts';

const TOKEN = 'abcDEF123_-abcDEF123_-';

describe('vendor portal rules', () => {
  it('reads the invite token from the link, else the one kept before sign-in; a malformed one is none', () => {
    expect(inviteTokenOf(`#token=${TOKEN}`, null)).toBe(TOKEN);
    expect(inviteTokenOf('', TOKEN)).toBe(TOKEN);
    expect(inviteTokenOf('#token=short', null)).toBeNull();
    expect(inviteTokenOf('', null)).toBeNull();
  });

  it('checks the join form', () => {
    expect(inviteFormErrors({ first_name: ' ', last_name: 'Doe', password: 'short' })).toEqual({ first_name: 'Enter your first name.', password: 'Use at least 10 characters.' });
    expect(inviteFormErrors({ first_name: 'Jo', last_name: 'Doe', password: 'long enough pw' })).toEqual({});
  });

  it('checks routing numbers with the ABA rule and account digits, as the server does', () => {
    expect(bankFormErrors({ holder_name: 'Acme', routing_number: '021000021', account_number: '1234 5678' }, true)).toEqual({});
    expect(bankFormErrors({ holder_name: '', routing_number: '021000022', account_number: '12' }, true)).toEqual({
      holder_name: 'Enter the name on the account.', routing_number: 'Enter a valid 9-digit ABA routing number.', account_number: 'Enter 4 to 17 digits.',
    });
    expect(bankFormErrors({ holder_name: '', routing_number: '021000021', account_number: '1234' }, false)).toEqual({});
  });

  it('checks EIN and SSN shapes', () => {
    expect(tinError('EIN', '12-3456789')).toBeNull();
    expect(tinError('EIN', '123')).toMatch(/EIN like/);
    expect(tinError('SSN', '666-12-3456')).toMatch(/not a valid SSN/);
  });

  it('says what a save did at each payer', () => {
    expect(propagationText('bank account', [{ business_name: 'Acme', outcome: 'filled' }, { business_name: 'Globex', outcome: 'proposed' }]))
      .toBe('Your bank account is saved. Acme now has it, marked verified by vendor. Sent as a change for Globex to accept.');
    expect(propagationText('tax ID', [{ business_name: 'Acme', outcome: 'unchanged' }])).toBe('Your tax ID is saved. Your payers already had it.');
  });

  it('words a payment’s state', () => {
    expect(paymentStatusText({ bill_status: 'PAID', payment_status: 'SETTLED' })).toBe('Paid');
    expect(paymentStatusText({ bill_status: 'SCHEDULED', payment_status: 'PENDING' })).toBe('On its way');
    expect(paymentStatusText({ bill_status: 'APPROVED', payment_status: null })).toBe('Scheduled');
    expect(paymentStatusText({ bill_status: 'DRAFT', payment_status: null })).toBe('Not paid yet');
  });
});
