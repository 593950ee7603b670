import { describe, expect, it } from 'vitest';
import { cadenceOf, isRecurring, suggestedLimit } from '../../../schema/switching.ts';
import { merchantKey, readCardStatement, statementAmount } from './read-statement.ts';

describe('reading a card statement CSV', () => {
  it('reads amounts as issuers write them', () => {
    expect(statementAmount('$1,234.56', 'USD')).toBe(123456);
    expect(statementAmount('(12.00)', 'USD')).toBe(-1200);
    expect(statementAmount('12.00-', 'USD')).toBe(-1200);
    expect(statementAmount('-$9.99', 'USD')).toBe(-999);
    expect(statementAmount('USD 9.99', 'USD')).toBe(999);
    expect(statementAmount('45.10 CR', 'USD')).toBe(-4510);
    expect(statementAmount('1500', 'JPY')).toBe(1500);
    expect(statementAmount('15.5', 'JPY')).toBeNull();
    expect(statementAmount('twelve', 'USD')).toBeNull();
    expect(statementAmount('', 'USD')).toBeNull();
  });

  it('names one vendor for every charge of it', () => {
    expect(merchantKey('NETFLIX.COM 866-579-7172 CA')).toBe('NETFLIX.COM');
    expect(merchantKey('NETFLIX.COM')).toBe('NETFLIX.COM');
    expect(merchantKey('SQ *BLUE BOTTLE COFFEE #12 OAKLAND')).toBe('BLUE BOTTLE COFFEE');
    expect(merchantKey('PAYPAL *NOTION LABS')).toBe('NOTION LABS');
    expect(merchantKey('AMZN MKTP US*2K3L81')).toBe('AMZN MKTP');
    expect(merchantKey('GITHUB, INC. SAN FRANCISCO CA')).toBe('GITHUB INC. SAN');
    expect(merchantKey('12345')).toBe('');
  });

  it('takes the majority sign as charges (Amex positive) and counts payments as credits', () => {
    const csv = [
      'Date,Description,Amount',
      '10/03/2026,NETFLIX.COM 866-579-7172 CA,15.49',
      '11/03/2026,NETFLIX.COM 866-579-7172 CA,15.49',
      '11/05/2026,AUTOPAY PAYMENT - THANK YOU,-500.00',
      '11/07/2026,"FIGMA, INC.","1,200.00"',
    ].join('\n');
    const r = readCardStatement(csv, 'USD');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.credits).toBe(1);
    expect(r.charges.map((c) => [c.charged_on, c.merchant_key, c.amount])).toEqual([
      ['2026-10-03', 'NETFLIX.COM', 1549], ['2026-11-03', 'NETFLIX.COM', 1549], ['2026-11-07', 'FIGMA INC.', 120000],
    ]);
  });

  it('takes negative charges (Chase) and debit columns (Capital One), day-first dates when they can only be that', () => {
    const chase = readCardStatement('Transaction Date,Post Date,Description,Category,Type,Amount\n10/31/2026,11/01/2026,SLACK T0123,Software,Sale,-8.75\n11/30/2026,12/01/2026,SLACK T0123,Software,Sale,-8.75\n12/01/2026,12/01/2026,Payment,,Payment,100.00', 'USD');
    expect(chase.ok && chase.charges.map((c) => [c.charged_on, c.amount])).toEqual([['2026-10-31', 875], ['2026-11-30', 875]]);
    const capOne = readCardStatement('Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit\n31/10/2026,01/11/2026,1234,ZOOM.US 888-799-9666,Software,14.99,\n05/11/2026,06/11/2026,1234,PAYMENT,,,"300.00"', 'EUR');
    expect(capOne.ok && capOne.charges.map((c) => [c.charged_on, c.merchant_key, c.amount])).toEqual([['2026-10-31', 'ZOOM.US', 1499]]);
    expect(capOne.ok && capOne.credits).toBe(1);
  });

  it('refuses what is no card statement, saying why', () => {
    const noColumns = readCardStatement('Name,Email\nA,a@example.com', 'USD');
    expect(noColumns).toMatchObject({ ok: false, message: expect.stringContaining('"Name", "Email"') });
    const bad = readCardStatement('Date,Description,Amount\nyesterday,X,1\n10/01/2026,Y,2', 'USD');
    expect(bad).toMatchObject({ ok: false, message: '1 of 2 rows could not be read, so the file was not imported.', problems: [{ row: 2, message: '"yesterday" is not a date.' }] });
    expect(readCardStatement('Date,Description,Debit,Credit\n10/01/2026,Refund,,2.00\n10/02/2026,Payment,,50.00', 'USD')).toMatchObject({ ok: false, message: expect.stringContaining('no charges') });
    expect(readCardStatement('Date,Description,Amount', 'USD')).toMatchObject({ ok: false, message: 'The file has no rows under its header row.' });
  });

  it('keeps a file with a few unreadable rows, naming them', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `10/${String(i + 1).padStart(2, '0')}/2026,LINEAR APP,10.00`);
    const r = readCardStatement(['Date,Description,Amount', ...lines, '10/40/2026,LINEAR APP,10.00'].join('\n'), 'USD');
    expect(r).toMatchObject({ ok: true, unreadable: 1, problems: [{ row: 22, message: '"10/40/2026" is not a date.' }] });
  });
});

describe('cadence and the suggested limit', () => {
  it('reads the cadence from the median gap', () => {
    expect(cadenceOf(['2026-01-03', '2026-02-03', '2026-03-03', '2026-03-20'])).toBe('MONTHLY');
    expect(cadenceOf(['2026-01-01', '2026-01-08', '2026-01-15'])).toBe('WEEKLY');
    expect(cadenceOf(['2025-02-01', '2026-02-01'])).toBe('YEARLY');
    expect(cadenceOf(['2026-01-01', '2026-04-02', '2026-07-01'])).toBe('QUARTERLY');
    expect(cadenceOf(['2026-01-01', '2026-01-02'])).toBe('IRREGULAR');
    expect(cadenceOf(['2026-01-01'])).toBe('IRREGULAR');
  });

  it('lists recurring vendors only', () => {
    expect(isRecurring(2, 2, 'MONTHLY')).toBe(true);
    expect(isRecurring(1, 1, 'IRREGULAR')).toBe(false);
    expect(isRecurring(5, 2, 'IRREGULAR')).toBe(false);
    expect(isRecurring(3, 3, 'IRREGULAR')).toBe(true);
  });

  it('sizes the limit by cadence with 10 % headroom, rounded up to a whole unit, exactly', () => {
    expect(suggestedLimit('MONTHLY', 1000, 1000, 'USD')).toEqual({ amount: 1100, interval: 'MONTHLY' });
    expect(suggestedLimit('MONTHLY', 1549, 1549, 'USD')).toEqual({ amount: 1800, interval: 'MONTHLY' });
    expect(suggestedLimit('WEEKLY', 2000, 8000, 'USD')).toEqual({ amount: 11000, interval: 'MONTHLY' });
    expect(suggestedLimit('QUARTERLY', 30000, 30000, 'EUR')).toEqual({ amount: 132000, interval: 'YEARLY' });
    expect(suggestedLimit('IRREGULAR', 500, 4321, 'USD')).toEqual({ amount: 4800, interval: 'MONTHLY' });
    expect(suggestedLimit('YEARLY', 999, 999, 'JPY')).toEqual({ amount: 1099, interval: 'YEARLY' });
  });
});
