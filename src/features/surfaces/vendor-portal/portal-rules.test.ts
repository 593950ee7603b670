import { describe, expect, it } from 'vitest';
import {
  bankFormErrors, DOCUMENT_MAX_BYTES, documentFileError, documentFileName, inviteFormErrors, inviteTokenOf, paymentStatusText, prefilledText,
  propagationText, tinError,
} from './portal-rules.ts';

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

  it('checks a document before upload: PDF, PNG or JPEG, not empty, at most 10 MB', () => {
    expect(documentFileError({ type: 'application/pdf', size: 1200 })).toBeNull();
    expect(documentFileError({ type: 'image/jpeg', size: DOCUMENT_MAX_BYTES })).toBeNull();
    expect(documentFileError({ type: 'image/png', size: DOCUMENT_MAX_BYTES + 1 })).toMatch(/larger than 10 MB/);
    expect(documentFileError({ type: 'image/gif', size: 10 })).toBe('Choose a PDF, PNG or JPEG file.');
    expect(documentFileError({ type: 'application/pdf', size: 0 })).toMatch(/empty/);
  });

  it('names a downloaded document by its kind, day and type', () => {
    expect(documentFileName({ kind: 'W9', content_type: 'application/pdf', uploaded_at: '2026-11-30T09:00:00.000Z' })).toBe('W9-2026-11-30.pdf');
    expect(documentFileName({ kind: 'OTHER', content_type: 'image/jpeg', uploaded_at: '2026-01-02T00:00:00.000Z' })).toBe('document-2026-01-02.jpg');
  });

  it('says what the profile prefilled in a new application', () => {
    expect(prefilledText(['business_name', 'bank_accounts'])).toBe('Prefilled from your vendor profile: your business name and your bank account. Check them as you go.');
    expect(prefilledText(['business_name', 'kyb_documents'])).toContain('your business name and kyb documents');
    expect(prefilledText([])).toMatch(/Nothing was prefilled/);
  });
});
