import { describe, expect, it } from 'vitest';
import { parseSignedAmount, parseStatementText, signedAmountText, statementPeriod } from './statement-lines.ts';

const today = '2026-11-29';

/** A checking statement as tesseract reads a scanned page: columns squashed, a wrapped description, page furniture. */
const RUNNING_BALANCE = `FIRST NATIONAL BANK OF OREGON
Business Checking Statement
Account Number: ****6789
Statement Period: 10/01/2026 - 10/31/2026
Date  Description                      Withdrawals   Deposits    Balance
10/01 Beginning Balance                                          12,345.67
10/02 ACH CREDIT STRIPE TRANSFER                     1,250.00    13,595.67
      ST-9QX2 PAYOUT
10/03 CHECK #1043                        450.00                  13,145.67
10/05 POS PURCHASE AMAZON MKTPL          89.99                   13,055.68
10/15 LEDGERLINE WALLET TRANSFER       5,000.00                   8,055.68
10/20 ZEN PAYROLL SERVICES               3,210.4O                 4,845.28
10/31 Ending Balance                                              4,845.28
Total Withdrawals 8,750.39
Page 1 of 2`;

describe('parseStatementText', () => {
  it('reads a statement with a running balance: the balance tells each sign', () => {
    const r = parseStatementText(RUNNING_BALANCE, { today });
    expect(r.period_start).toBe('2026-10-01');
    expect(r.period_end).toBe('2026-10-31');
    expect(r.lines).toEqual([
      { date: '2026-10-02', description: 'ACH CREDIT STRIPE TRANSFER ST-9QX2 PAYOUT', amount: 125_000, sign: 'balance' },
      { date: '2026-10-03', description: 'CHECK #1043', amount: -45_000, sign: 'balance' },
      { date: '2026-10-05', description: 'POS PURCHASE AMAZON MKTPL', amount: -8_999, sign: 'balance' },
      { date: '2026-10-15', description: 'LEDGERLINE WALLET TRANSFER', amount: -500_000, sign: 'balance' },
      // "4O" is OCR's 0.
      { date: '2026-10-20', description: 'ZEN PAYROLL SERVICES', amount: -321_040, sign: 'balance' },
    ]);
  });

  it('reads signs written on the amount: minus, parentheses, trailing minus, CR/DR', () => {
    const text = `Transactions
2026-11-02 Wire in from Acme Corp 12,000.00
2026-11-03 Card 4242 Delta Air Lines -612.40
2026-11-04 Monthly service fee (15.00)
11/05/2026 Returned deposit item 250.00-
11/06/26 Interest 1.23 CR
Nov 7, 2026 Vendor ACH Globex 980.00 DR`;
    expect(parseStatementText(text, { today }).lines).toEqual([
      { date: '2026-11-02', description: 'Wire in from Acme Corp', amount: 1_200_000, sign: 'words' },
      { date: '2026-11-03', description: 'Card 4242 Delta Air Lines', amount: -61_240, sign: 'written' },
      { date: '2026-11-04', description: 'Monthly service fee', amount: -1_500, sign: 'written' },
      { date: '2026-11-05', description: 'Returned deposit item', amount: -25_000, sign: 'written' },
      { date: '2026-11-06', description: 'Interest', amount: 123, sign: 'written' },
      { date: '2026-11-07', description: 'Vendor ACH Globex', amount: -98_000, sign: 'written' },
    ]);
  });

  it('falls back on the words, and marks a line it cannot tell as a guess', () => {
    const text = `Oct 08 Mobile deposit 300.00
Oct 09 Online transfer to savings 1,000.00
Oct 10 ACME SUPPLY CO 42.10`;
    const r = parseStatementText(text, { today });
    expect(r.lines.map((l) => [l.date, l.amount, l.sign])).toEqual([
      ['2026-10-08', 30_000, 'words'],
      ['2026-10-09', -100_000, 'words'],
      ['2026-10-10', -4_210, 'guess'],
    ]);
  });

  it('gives December the year before on a statement ending in January', () => {
    const text = `Statement period December 16, 2026 through January 15, 2027
12/30 Deposit 500.00
01/02 ATM withdrawal 60.00`;
    const r = parseStatementText(text, { today: '2027-01-20' });
    expect(r.lines.map((l) => l.date)).toEqual(['2026-12-30', '2027-01-02']);
    expect([r.period_start, r.period_end]).toEqual(['2026-12-16', '2027-01-15']);
  });

  it('reads day-first dates and leaves out balance and total lines', () => {
    const text = `Opening balance 1,000.00
03 Nov 2026 Card payment Tesco 23.45
Closing balance 976.55
Total debits 23.45`;
    expect(parseStatementText(text, { today }).lines).toEqual([
      { date: '2026-11-03', description: 'Card payment Tesco', amount: -2_345, sign: 'words' },
    ]);
  });

  it('reads nothing from text that is no statement, and no false amount from a check number beside one', () => {
    expect(parseStatementText('Thank you for banking with us.\nCall 1-800-555-0100', { today }).lines).toEqual([]);
    expect(parseStatementText('10/03 CHECK 1043 450.00', { today }).lines).toEqual([
      { date: '2026-10-03', description: 'CHECK 1043', amount: -45_000, sign: 'words' },
    ]);
  });
});

describe('statementPeriod', () => {
  it('reads the common ways a period is written', () => {
    expect(statementPeriod('Period: 2026-10-01 to 2026-10-31')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(statementPeriod('From 1 Oct 2026 - 31 Oct 2026')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(statementPeriod('no period here')).toBeNull();
  });
});

describe('parseSignedAmount', () => {
  it('reads what a person types in the review', () => {
    expect(parseSignedAmount('12.34')).toBe(1_234);
    expect(parseSignedAmount('-1,250.00')).toBe(-125_000);
    expect(parseSignedAmount('(450)')).toBe(-45_000);
    expect(parseSignedAmount('$5')).toBe(500);
    expect(parseSignedAmount('1.5')).toBe(150);
    expect(parseSignedAmount('12.345')).toBeNull();
    expect(parseSignedAmount('(12.00')).toBeNull();
    expect(parseSignedAmount('abc')).toBeNull();
    expect(signedAmountText(-8_999)).toBe('-89.99');
    expect(signedAmountText(125_000)).toBe('1250.00');
  });
});
