import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RailVendor } from '../../../schema/payment-rails.ts';
import { payBlock } from './bill-actions.ts';
import { PayRailChoice } from './pay-rail-choice.tsx';
import { arrivalText, attemptRailText, initialRail, payNowWords, railOptions } from './pay-rails.ts';

/**
 * Issue 30, the pay confirmation's rail choice: offered only when more than one rail can pay the
 * vendor, each with its arrival and fee; the default rail is the server's; ACH words as before.
 */
const US = { line1: '1 Main St', line2: null, city: 'Denver', state: 'CO', postal_code: '80202', country: 'US' };
const verified = { verified_at: '2026-01-01T00:00:00Z' };
const both: RailVendor = { name: 'Acme', bank_account: verified, address: US };
const mailOnly: RailVendor = { name: 'Summit', bank_account: null, address: US };
const FRIDAY = '2026-11-20';

describe('pay rails in the confirmation', () => {
  it('labels each rail with its arrival and fee', () => {
    expect(railOptions(both, 'USD', FRIDAY).map((o) => o.label)).toEqual([
      'Bank transfer (ACH) · arrives Nov 24, 2026',
      'Mailed check · arrives Nov 30, 2026 – Dec 2, 2026',
      'Wire · same day · $15.00 fee',
    ]);
    expect(arrivalText('WIRE', '2026-11-21')).toBe('arrives Nov 23, 2026');
    expect(railOptions(mailOnly, 'USD', FRIDAY).map((o) => o.rail)).toEqual(['CHECK']);
    expect(railOptions(both, 'EUR', FRIDAY)).toEqual([]);
  });

  it('starts on the rail the server would take', () => {
    expect(initialRail(both, 'USD')).toBe('ACH');
    expect(initialRail(mailOnly, 'USD')).toBe('CHECK');
  });

  it('says what each rail does; ACH exactly as before rails', () => {
    const p = { amount: 150_050, currency: 'USD', invoice: 'INV-9', sendDay: FRIDAY };
    expect(payNowWords('ACH', p)).toEqual({
      description: 'The payment of invoice INV-9 is sent now, once, by ACH; it settles on Nov 24, 2026 and the bill shows as processing until then. If your business asks for payment approval, it goes to the approvers instead and is sent when they approve it.',
      confirm: 'Pay $1,500.50',
    });
    expect(payNowWords('CHECK', p).description).toContain('printed and mailed today, once. It arrives between Nov 30, 2026 and Dec 2, 2026');
    expect(payNowWords('CHECK', p).confirm).toBe('Mail a check for $1,500.50');
    expect(payNowWords('WIRE', p).description).toContain('wired now, once, and arrives today. The wire fee of $15.00');
    expect(payNowWords('WIRE', p).confirm).toBe('Wire $1,500.50 (+ $15.00 fee)');
  });

  it('renders a labelled radio group only when there is a choice', () => {
    const html = renderToStaticMarkup(<PayRailChoice options={railOptions(both, 'USD', FRIDAY)} value="WIRE" onChange={() => {}} />);
    expect(html).toContain('<legend>Pay by</legend>');
    expect(html.match(/type="radio"/g)).toHaveLength(3);
    expect(html).toMatch(/value="WIRE" checked=""|checked="" value="WIRE"/);
    expect(renderToStaticMarkup(<PayRailChoice options={railOptions(mailOnly, 'USD', FRIDAY)} value="CHECK" onChange={() => {}} />)).toBe('');
  });

  it('lets a vendor with only a mailing address be paid (by check), and still holds one with nothing', () => {
    const bill = { status: 'APPROVED' as const, currency: 'USD', payment_date: null, payment_attempt: 0, pending: null };
    expect(payBlock(bill, { name: 'Summit', bank_account: null, address: US }, FRIDAY)).toBeNull();
    expect(payBlock(bill, { name: 'Nowhere', bank_account: null, address: null }, FRIDAY)).toMatchObject({ reason: 'vendor', message: expect.stringContaining('Nowhere has no bank account on file') });
  });

  it('names an attempt by its rail', () => {
    expect(attemptRailText({ rail: 'CHECK', check_number: 1001, wire_fee: null }, 'USD')).toBe('Check #1001');
    expect(attemptRailText({ rail: 'WIRE', check_number: null, wire_fee: 1500 }, 'USD')).toBe('Wire ($15.00 fee)');
    expect(attemptRailText({ rail: 'ACH', check_number: null, wire_fee: null }, 'USD')).toBe('ACH');
  });
});
