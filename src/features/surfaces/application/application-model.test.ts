import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import { FORM_STEPS, KYC_FIELDS, KYC_SCHEMA } from './application-steps.ts';
import { cacheApplication, cachedApplication, listDrafts, markDraftFailed, markDraftSent, saveDraft, sendOrder } from './draft-store.ts';
import { fieldErrors, labelsOf, persistable, removeRow, rowCount, toBody } from './step-fields.ts';
import { identityPeople, readyToSubmit, stepList } from './step-list-model.ts';
import { withSavedIds } from './saved-rows.ts';

const APP = '11111111-1111-4111-8111-111111111111';
const KYC_CONTROL = '22222222-2222-4222-8222-222222222222';
const KYC_OWNER = '33333333-3333-4333-8333-333333333333';
const OWNER = '44444444-4444-4444-8444-444444444444';
const SMALL = '55555555-5555-4555-8555-555555555555';

function app(over: Partial<FinancingApplication> = {}): FinancingApplication {
  const person = (id: string, control: boolean) => ({
    id, first_name: control ? 'Ada' : 'Bo', last_name: 'Lee', email: null, title: null, dob: null, ssn_last_four: null, address: null,
    citizenship: null, is_control_person: control, completed_at: null,
  });
  return {
    id: APP, status: 'DRAFT', version: 3, business_name: null, current_step: null, business_details: null, financial_details: null,
    company: null, leadership: null, products: null, checkbox: null,
    owners: [
      { id: OWNER, kind: 'INDIVIDUAL', name: 'Bo Lee', email: null, percent_bp: 6000, kyc_individual_id: KYC_OWNER },
      { id: SMALL, kind: 'INDIVIDUAL', name: 'Cy Small', email: null, percent_bp: 1000, kyc_individual_id: null },
    ],
    kyc_individuals: [person(KYC_CONTROL, true), person(KYC_OWNER, false)],
    documents: [], bank_accounts: [], invites: [], decision: null, business_id: null, submitted_at: null, created_at: '2026-11-30T06:00:00.000Z',
    missing: { business_details: ['Add the business details.'], [`owners.${OWNER}`]: ['Fill in their identity details.'] },
    ...over,
  };
}

describe('the application form values', () => {
  const owners = FORM_STEPS.find((s) => s.key === 'ownerships')!;
  const money = FORM_STEPS.find((s) => s.key === 'financial_details')!;
  it('gives rows typed here the id of the row the server saved for them, once each, by what was typed', () => {
    const typed = { 'owners.0.kind': 'INDIVIDUAL', 'owners.0.name': 'Bo Lee', 'owners.0.percent_bp': '60', 'owners.1.kind': 'ENTITY', 'owners.1.name': 'Nope', 'owners.1.percent_bp': '5' };
    expect(withSavedIds(typed, owners.list!, app())).toEqual({ ...typed, 'owners.0.id': OWNER });
    const named = { ...typed, 'owners.0.id': OWNER, 'owners.1.kind': 'INDIVIDUAL', 'owners.1.name': 'Bo Lee', 'owners.1.percent_bp': '60' };
    expect(withSavedIds(named, owners.list!, app())).toEqual(named);
    const accounts = FORM_STEPS.find((s) => s.key === 'bank_accounts')!;
    const saved = app({ bank_accounts: [{ id: APP, holder_name: 'Lee LLC', type: 'CHECKING', routing_last_four: '0021', account_last_four: '6789' }] });
    const row = { 'accounts.0.holder_name': 'Lee LLC', 'accounts.0.type': 'CHECKING', 'accounts.0.account_number': '000123456789' };
    expect(withSavedIds(row, accounts.list!, saved)).toEqual({ ...row, 'accounts.0.id': APP });
    expect(withSavedIds({ ...row, 'accounts.0.account_number': '000123450000' }, accounts.list!, saved)['accounts.0.id']).toBeUndefined();
  });
  it('shows the saved owners and bank accounts as the list form\'s rows, each with its id (a removal names it)', () => {
    expect(owners.fromAnswer(app())).toEqual({
      'owners.0.id': OWNER, 'owners.0.kind': 'INDIVIDUAL', 'owners.0.name': 'Bo Lee', 'owners.0.email': '', 'owners.0.percent_bp': '60',
      'owners.1.id': SMALL, 'owners.1.kind': 'INDIVIDUAL', 'owners.1.name': 'Cy Small', 'owners.1.email': '', 'owners.1.percent_bp': '10',
    });
    const accounts = FORM_STEPS.find((s) => s.key === 'bank_accounts')!;
    const saved = app({ bank_accounts: [{ id: APP, holder_name: 'Lee LLC', type: 'CHECKING', routing_last_four: '0021', account_last_four: '6789' }] });
    expect(accounts.fromAnswer(saved)).toEqual({ 'accounts.0.id': APP, 'accounts.0.holder_name': 'Lee LLC', 'accounts.0.type': 'CHECKING' });
    expect(rowCount(owners.fromAnswer(app())!, owners.list!)).toBe(2);
  });
  it('builds the body the server schema takes: lists, percent as basis points, money in cents, empty optional as null', () => {
    const values = { 'owners.0.kind': 'INDIVIDUAL', 'owners.0.name': 'Bo', 'owners.0.percent_bp': '60', 'owners.0.email': '', 'owners.1.kind': 'ENTITY', 'owners.1.name': 'Holdco', 'owners.1.percent_bp': '40.5' };
    expect(toBody(values, owners.fields, owners.list)).toEqual({
      owners: [{ kind: 'INDIVIDUAL', name: 'Bo', email: null, percent_bp: 6000 }, { kind: 'ENTITY', name: 'Holdco', email: null, percent_bp: 4050 }],
    });
    expect(owners.schema.safeParse(toBody(values, owners.fields, owners.list)).success).toBe(true);
    expect(toBody({ annual_revenue: '1,200.50', cash_on_hand: '0', monthly_spend_estimate: '' }, money.fields)).toEqual({
      annual_revenue: { amount: 120050, currency: 'USD' }, cash_on_hand: { amount: 0, currency: 'USD' },
    });
  });
  it('says each broken rule on its field, in words', () => {
    const body = toBody({ ssn: '123', first_name: 'Ada', dob: '' }, KYC_FIELDS);
    const errors = fieldErrors(KYC_SCHEMA.safeParse(body), labelsOf(KYC_FIELDS));
    expect(errors.ssn).toBe('SSN must be a valid SSN.');
    expect(errors.last_name).toBe('Last name is required.');
    expect(errors['address.city']).toBe('City is required.');
    expect(errors.first_name).toBeUndefined();
  });
  it('keeps secrets off the disk and renumbers removed rows', () => {
    const bank = FORM_STEPS.find((s) => s.key === 'bank_accounts')!;
    const values = { 'accounts.0.holder_name': 'A', 'accounts.0.account_number': '123456', 'accounts.1.holder_name': 'B', 'accounts.1.routing_number': '011000015' };
    expect(persistable(values, bank.fields, bank.list)).toEqual({ 'accounts.0.holder_name': 'A', 'accounts.1.holder_name': 'B' });
    expect(persistable({ ssn: '123-45-6789', dob: '1990-01-01' }, KYC_FIELDS)).toEqual({ dob: '1990-01-01' });
    expect(removeRow(values, bank.list!, 0)).toEqual({ 'accounts.0.holder_name': 'B', 'accounts.0.routing_number': '011000015' });
    expect(rowCount({}, bank.list!)).toBe(1);
  });
});

describe('the step list', () => {
  it('lists every step with identity checks for the control person and owners of 25 % or more, states from missing and drafts', () => {
    const a = app({ company: { industry_code: '5415', description: 'Software', employee_count: 3 } });
    expect(identityPeople(a).map((p) => p.id)).toEqual([KYC_CONTROL, KYC_OWNER]);
    const list = stepList(a, [{ step: 'financial_details', pending: true, error: null }, { step: 'leadership', pending: true, error: 'Not sent: boom' }]);
    expect(list.map((e) => e.slug)).toEqual([
      'business-details', 'financial-details', 'company', 'leadership', 'ownership', `identity-${KYC_CONTROL}`, `identity-${KYC_OWNER}`,
      'documents', 'products', 'bank-accounts', 'review',
    ]);
    const state = Object.fromEntries(list.map((e) => [e.key, e.state]));
    expect(state).toMatchObject({
      business_details: 'To do', financial_details: 'Saved on this device', company: 'Saved', leadership: 'Needs attention',
      ownerships: 'Saved', [`kyc:${KYC_OWNER}`]: 'To do',
    });
    expect(list.find((e) => e.key === 'leadership')!.messages).toEqual(['Not sent: boom']);
    expect(readyToSubmit(a, [])).toBe(false);
    expect(readyToSubmit(app({ missing: {} }), [{ step: 'company', pending: true, error: null }])).toBe(false);
    expect(readyToSubmit(app({ missing: {} }), [])).toBe(true);
  });
});

describe('the draft store', () => {
  it('keeps each step’s latest draft, sends in the steps’ order, and a draft changed while sending stays pending', async () => {
    await saveDraft(APP, 'products', { products: 'CARDS' }, new Date('2026-11-30T06:00:00Z'));
    await saveDraft(APP, 'business_details', { legal_name: 'A' }, new Date('2026-11-30T06:00:01Z'));
    const latest = await saveDraft(APP, 'business_details', { legal_name: 'Acme' }, new Date('2026-11-30T06:00:02Z'));
    const drafts = await listDrafts(APP);
    expect(drafts).toHaveLength(2);
    const order = stepList(app(), []).map((e) => e.key);
    expect(sendOrder(drafts, order).map((d) => [d.step, d.values])).toEqual([['business_details', { legal_name: 'Acme' }], ['products', { products: 'CARDS' }]]);
    await markDraftFailed(APP, 'products', 'Not sent: no');
    await markDraftSent(APP, 'business_details', '2026-11-30T06:00:01.000Z');
    expect((await listDrafts(APP)).find((d) => d.step === 'business_details')!.pending).toBe(true);
    await markDraftSent(APP, 'business_details', latest.saved_at);
    const after = await listDrafts(APP);
    expect(sendOrder(after, order).map((d) => [d.step, d.error])).toEqual([['products', 'Not sent: no']]);
    await cacheApplication(app(), new Date('2026-11-30T06:05:00Z'));
    expect(await cachedApplication(APP)).toMatchObject({ fetched_at: '2026-11-30T06:05:00.000Z', application: { version: 3 } });
  });
});
