import { describe, expect, it } from 'vitest';
import { parseSeedArgs } from './cli.ts';

describe('parseSeedArgs', () => {
  it.each([
    { argv: [], expected: { transactions: 20_000, reimbursements: 4_000, 'without-receipts': false, reset: false } },
    { argv: ['--transactions', '100000'], expected: { transactions: 100_000, reimbursements: 20_000 } },
    { argv: ['-n', '2000', '--reimbursements', '0'], expected: { transactions: 2_000, reimbursements: 0 } },
    { argv: ['--reimbursements', '25000', '--without-receipts'], expected: { transactions: 20_000, reimbursements: 25_000, 'without-receipts': true } },
    { argv: ['-n', '5', '--reset'], expected: { transactions: 5, reset: true } },
    { argv: ['--now', '2026-01-02'], expected: { now: new Date('2026-01-02T00:00:00.000Z') } },
    { argv: ['--now', '2026-01-02T10:00:00+02:00'], expected: { now: new Date('2026-01-02T08:00:00.000Z') } },
    { argv: ['--business-name', 'Acme Corp', '--email-domain', 'acme.example'], expected: { 'business-name': 'Acme Corp', 'email-domain': 'acme.example' } },
    { argv: ['--seed', '7'], expected: { seed: 7 } },
  ])('accepts $argv', ({ argv, expected }) => {
    const parsed = parseSeedArgs(argv);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.args).toMatchObject(expected);
  });

  it.each([
    { argv: ['--transactions', 'many'], message: '--transactions' },
    { argv: ['--transactions', '-3'], message: '--transactions' },
    { argv: ['--transactions', '1.5'], message: '--transactions' },
    { argv: ['--now', 'yesterday'], message: '--now' },
    { argv: ['--email-domain', 'not a domain'], message: '--email-domain' },
    { argv: ['--colour', 'blue'], message: 'Unknown option' },
    { argv: ['--reimbursements', '-1'], message: '--reimbursements' },
    { argv: ['--reimbursements', 'lots'], message: '--reimbursements' },
  ])('refuses $argv with a message naming the problem and the usage', ({ argv, message }) => {
    const parsed = parseSeedArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toContain(message);
      expect(parsed.message).toContain('Usage: npm run seed');
    }
  });

  it('takes the reimbursement count from SEED_REIMBURSEMENTS when the flag is absent, the flag first', () => {
    const env = { SEED_REIMBURSEMENTS: '1234' };
    expect(parseSeedArgs([], env)).toMatchObject({ ok: true, args: { reimbursements: 1_234 } });
    expect(parseSeedArgs(['--reimbursements', '7'], env)).toMatchObject({ ok: true, args: { reimbursements: 7 } });
    const bad = parseSeedArgs([], { SEED_REIMBURSEMENTS: 'many' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain('SEED_REIMBURSEMENTS');
  });

  it('takes the bill count from --bills, else SEED_BILLS, else one per five transactions', () => {
    expect(parseSeedArgs(['--transactions', '1000'])).toMatchObject({ ok: true, args: { bills: 200 } });
    expect(parseSeedArgs(['--transactions', '1000'], { SEED_BILLS: '30' })).toMatchObject({ ok: true, args: { bills: 30 } });
    expect(parseSeedArgs(['--bills', '0'], { SEED_BILLS: '30' })).toMatchObject({ ok: true, args: { bills: 0 } });
    const bad = parseSeedArgs([], { SEED_BILLS: '-3' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain('--bills (env SEED_BILLS)');
  });
});
