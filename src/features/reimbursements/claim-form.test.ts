import { describe, expect, it } from 'vitest';
import type { Reimbursement } from '../../../schema/entities/reimbursement.ts';
import { claimValues, createCommand, emptyClaimValues, prefillFromReceipt, updatePatch, type ClaimFormValues } from './claim-form.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const ID = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const GL = '5f0c9a0e-7a43-4b1e-9a51-0d7d3c2b1a00';
const values = (over: Partial<ClaimFormValues> = {}): ClaimFormValues => ({ ...emptyClaimValues('USD', '2026-03-09'), ...over });
const create = (type: Parameters<typeof createCommand>[0], over: Partial<ClaimFormValues>, submit = true) =>
  createCommand(type, values(over), { id: ID, submit, now: NOW });

describe('createCommand', () => {
  it('builds an out-of-pocket claim in minor units', () => {
    expect(create('OUT_OF_POCKET', { merchant: ' Blue Bottle ', amount: '12.5', memo: 'team coffee', gl_account_id: GL }, false)).toEqual({
      ok: true,
      name: 'reimbursement.create',
      input: {
        id: ID, submit: false, merchant: 'Blue Bottle', amount: 1250, currency: 'USD', transaction_date: '2026-03-09',
        memo: 'team coffee', gl_account_id: GL, department_id: null,
      },
    });
  });

  it('converts kilometres to miles for a mileage claim', () => {
    const result = create('MILEAGE', { distance: '100', unit: 'km', start_location: 'Office', end_location: 'Client' });
    expect(result).toMatchObject({ ok: true, name: 'reimbursement.createMileage', input: { distance_miles: 62.14, trip_date: '2026-03-09' } });
  });

  it('builds a per-diem claim', () => {
    const result = create('PER_DIEM', { location: 'Chicago', start_date: '2026-03-02', end_date: '2026-03-04' });
    expect(result).toMatchObject({ ok: true, name: 'reimbursement.createPerDiem', input: { location: 'Chicago', start_date: '2026-03-02', end_date: '2026-03-04' } });
  });

  it.each([
    ['OUT_OF_POCKET', { amount: '' }, { amount: 'Amount is required' }],
    ['OUT_OF_POCKET', { amount: '12.345' }, { amount: 'Amount must be a valid number' }],
    ['OUT_OF_POCKET', { amount: '-3' }, { amount: expect.stringMatching(/^Amount /) }],
    ['OUT_OF_POCKET', { amount: '5', transaction_date: '2026-04-01' }, { transaction_date: 'Date must not be in the future' }],
    ['MILEAGE', { distance: '', start_location: 'A', end_location: 'B' }, { distance: 'Distance is required' }],
    ['MILEAGE', { distance: '10', start_location: '', end_location: 'B' }, { start_location: 'From is required' }],
    ['MILEAGE', { distance: '10', start_location: 'A', end_location: 'B', trip_date: '2024-05-01' }, { trip_date: expect.stringMatching(/^Trip date must be in a year with a known mileage rate/) }],
    ['PER_DIEM', { location: 'Chicago', start_date: '2026-03-04', end_date: '2026-03-02' }, { end_date: 'End date must be on or after start date' }],
    ['PER_DIEM', { location: '' }, { location: 'Location is required' }],
  ] as const)('%s %j → %j', (type, over, errors) => {
    expect(create(type, over)).toEqual({ ok: false, errors });
  });
});

const claim = (over: Partial<Reimbursement> = {}): Reimbursement => ({
  id: ID, user_id: ID, business_id: ID, type: 'OUT_OF_POCKET', status: 'DRAFT', merchant: 'Taxi', amount: 2300, currency: 'USD',
  transaction_date: '2026-03-01', memo: null, gl_account_id: null, department_id: null, distance_miles: null, start_location: null,
  end_location: null, trip_date: null, location: null, start_date: null, end_date: null, rejection_reason: null, receipt_ids: [], submitted_at: null,
  created_at: '2026-03-01T10:00:00Z', change_seq: 3, updated_at: '2026-03-01T10:00:00Z', deleted: false, ...over,
});

describe('updatePatch', () => {
  it('sends only what changed', () => {
    const c = claim();
    expect(updatePatch(c, claimValues(c), NOW)).toEqual({ ok: true, patch: null });
    expect(updatePatch(c, { ...claimValues(c), amount: '24.00', memo: 'airport' }, NOW)).toEqual({ ok: true, patch: { amount: 2400, memo: 'airport' } });
  });

  it('checks the edited claim with the rules', () => {
    const c = claim({ type: 'MILEAGE', merchant: null, distance_miles: 10, start_location: 'A', end_location: 'B', trip_date: '2026-03-01' });
    expect(updatePatch(c, { ...claimValues(c), distance: '2500' }, NOW)).toEqual({ ok: false, errors: { distance: 'Distance must be at most 2000' } });
    expect(updatePatch(c, { ...claimValues(c), distance: '12' }, NOW)).toEqual({ ok: true, patch: { distance_miles: 12 } });
  });
});

describe("at the business's rates", () => {
  const rates = [
    { kind: 'PER_DIEM' as const, name: 'London', year: null, rate: 7500, currency: 'GBP' },
    { kind: 'MILEAGE' as const, name: null, year: 2026, rate: 800, currency: 'USD' },
  ];

  it('carries the rates in a mileage or per-diem command (for its optimistic amount), never in an out-of-pocket one', () => {
    const perDiem = createCommand('PER_DIEM', values({ location: 'London', start_date: '2026-03-02', end_date: '2026-03-04' }), { id: ID, submit: true, now: NOW, rates });
    expect(perDiem).toMatchObject({ ok: true, input: { location: 'London', rates } });
    const oop = createCommand('OUT_OF_POCKET', values({ merchant: 'Café', amount: '3' }), { id: ID, submit: true, now: NOW, rates });
    expect(oop.ok && oop.input).not.toHaveProperty('rates');
  });

  it('checks a claim at the rates: an override makes its year claimable', () => {
    const later = new Date('2027-02-01T12:00:00Z');
    const trip = values({ distance: '10', start_location: 'A', end_location: 'B', trip_date: '2027-01-15' });
    expect(createCommand('MILEAGE', trip, { id: ID, submit: true, now: later, rates })).toMatchObject({ ok: false, errors: { trip_date: expect.stringContaining('2027 has none') } });
    const with2027 = [...rates, { kind: 'MILEAGE' as const, name: null, year: 2027, rate: 750, currency: 'USD' }];
    expect(createCommand('MILEAGE', trip, { id: ID, submit: true, now: later, rates: with2027 })).toMatchObject({ ok: true });
  });
});

describe('prefillFromReceipt', () => {
  const today = '2026-03-09';
  const reading = { amount: { minor: 4210, currency: 'EUR' }, date: '2026-03-07', merchant: 'Café de Flore' };

  it('fills an untouched form: amount with its currency, the receipt date, the merchant', () => {
    const { values: v, filled } = prefillFromReceipt(values(), reading, today);
    expect(v).toMatchObject({ amount: '42.10', currency: 'EUR', transaction_date: '2026-03-07', merchant: 'Café de Flore' });
    expect(filled).toEqual(['amount', 'transaction_date', 'merchant']);
  });

  it('keeps what the person typed and a date they changed', () => {
    const { values: v, filled } = prefillFromReceipt(values({ amount: '40', merchant: 'Flore', transaction_date: '2026-03-01' }), reading, today);
    expect(v).toMatchObject({ amount: '40', currency: 'USD', transaction_date: '2026-03-01', merchant: 'Flore' });
    expect(filled).toEqual([]);
  });

  it('never takes a future date, and reads a zero-decimal currency', () => {
    const { values: v, filled } = prefillFromReceipt(values(), { amount: { minor: 5000, currency: 'JPY' }, date: '2026-04-01' }, today);
    expect(v).toMatchObject({ amount: '5000', currency: 'JPY', transaction_date: today });
    expect(filled).toEqual(['amount']);
  });
});

describe('receipts on a claim', () => {
  const R1 = '7a1f9c52-0d3e-4b8a-9f61-2c4d5e6f7a81';
  const R2 = '7a1f9c52-0d3e-4b8a-9f61-2c4d5e6f7a82';
  it('sends the receipts with a new out-of-pocket claim, and none when there are none', () => {
    expect(create('OUT_OF_POCKET', { merchant: 'Taxi', amount: '20', receipt_ids: [R1] })).toMatchObject({ ok: true, input: { receipt_ids: [R1] } });
    const bare = create('OUT_OF_POCKET', { merchant: 'Taxi', amount: '20' });
    expect(bare.ok && 'receipt_ids' in bare.input).toBe(false);
  });

  it('patches the whole set when it changed, including to empty', () => {
    const withOne = claim({ receipt_ids: [R1] });
    expect(updatePatch(withOne, { ...claimValues(withOne), receipt_ids: [R1, R2] }, NOW)).toEqual({ ok: true, patch: { receipt_ids: [R1, R2] } });
    expect(updatePatch(withOne, { ...claimValues(withOne), receipt_ids: [] }, NOW)).toEqual({ ok: true, patch: { receipt_ids: [] } });
    expect(updatePatch(withOne, claimValues(withOne), NOW)).toEqual({ ok: true, patch: null });
  });
});
