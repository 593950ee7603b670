import { describe, expect, it } from 'vitest';
import {
  APPLICATION_STATUSES, ageOn, applicationTransition, decide, decideKyb, dobRefusal, isEditable, isValidEin, isValidNaics, isValidSsn,
  submitRefusal, type ApplicationAction, type ApplicationSnapshot, type ApplicationStatus,
} from './application-rules.ts';
import type { SanctionsEntry } from './sanctions.ts';

const TODAY = '2026-11-30';
const LIST: SanctionsEntry[] = [
  { id: 'T1', kind: 'PERSON', name: 'Boris Q. Sanctionedov', aliases: ['B. Q. Sanctionedov'] },
  { id: 'T2', kind: 'ENTITY', name: 'Forbidden Trading Company', aliases: ['Forbidden Trading'] },
];

/** A complete application that the engine approves. */
function complete(): ApplicationSnapshot {
  return {
    applicant_name: 'Ada Lovelace',
    business_details: { legal_name: 'Analytical Engines LLC', dba: null, entity_type: 'LLC', ein: '12-3456789', incorporation_date: '2020-01-15' },
    financial_details: { annual_revenue: { amount: 1, currency: 'USD' } },
    company: { industry_code: '5415' },
    leadership: { control_person: { first_name: 'Ada', last_name: 'Lovelace' } },
    products: ['CARDS'],
    checkbox: { certify_owners: true, accept_terms: true },
    owners: [
      { id: 'o1', kind: 'INDIVIDUAL', name: 'Ada Lovelace', percent_bp: 6000, kyc_individual_id: 'k1' },
      { id: 'o2', kind: 'INDIVIDUAL', name: 'Charles Babbage', percent_bp: 2000, kyc_individual_id: 'k2' },
      { id: 'o3', kind: 'ENTITY', name: 'Holdings Inc', percent_bp: 2000, kyc_individual_id: null },
    ],
    individuals: [
      { id: 'k1', first_name: 'Ada', last_name: 'Lovelace', dob: '1990-12-10', ssn_valid: true, is_control_person: true, completed: true, kyc_document_pages: 1 },
      { id: 'k2', first_name: 'Charles', last_name: 'Babbage', dob: null, ssn_valid: false, is_control_person: false, completed: false, kyc_document_pages: 0 },
    ],
    kyb_document_pages: [2],
    bank_accounts: [{ id: 'b1', routing_number: '021000021' }],
  };
}

describe('application status machine', () => {
  const ACTIONS: ApplicationAction[] = ['submit', 'approve', 'reject', 'review', 'withdraw'];
  const EXPECTED: Partial<Record<`${ApplicationStatus}:${ApplicationAction}`, ApplicationStatus>> = {
    'DRAFT:submit': 'SUBMITTED', 'DRAFT:withdraw': 'WITHDRAWN',
    'SUBMITTED:approve': 'APPROVED', 'SUBMITTED:review': 'MANUAL_REVIEW', 'SUBMITTED:reject': 'REJECTED',
    'MANUAL_REVIEW:approve': 'APPROVED', 'MANUAL_REVIEW:reject': 'REJECTED',
  };
  for (const status of APPLICATION_STATUSES) {
    for (const action of ACTIONS) {
      it(`${status} --${action}--> ${EXPECTED[`${status}:${action}`] ?? 'refused'}`, () => {
        expect(applicationTransition(status, action)).toBe(EXPECTED[`${status}:${action}`] ?? null);
      });
    }
  }
  it('only a draft is editable', () => {
    expect(APPLICATION_STATUSES.filter(isEditable)).toEqual(['DRAFT']);
  });
});

describe('validators', () => {
  it.each([
    ['123-45-6789', true], ['123456789', true], ['000-45-6789', false], ['666-45-6789', false], ['900-45-6789', false],
    ['123-00-6789', false], ['123-45-0000', false], ['12-345-6789', false], ['12345678', false],
  ])('SSN %s → %s', (ssn, valid) => expect(isValidSsn(ssn)).toBe(valid));
  it.each([
    ['12-3456789', true], ['123456789', true], ['00-3456789', false], ['07-3456789', false], ['89-3456789', false],
    ['99-3456789', true], ['1-23456789', false], ['12-345678', false],
  ])('EIN %s → %s', (ein, valid) => expect(isValidEin(ein)).toBe(valid));
  it.each([['54', true], ['541511', true], ['5415111', false], ['5', false], ['99', false], ['10', false], ['4x', false]])(
    'NAICS %s → %s', (code, valid) => expect(isValidNaics(code)).toBe(valid));
  it('age counts whole years to the day', () => {
    expect(ageOn('2008-11-30', TODAY)).toBe(18);
    expect(ageOn('2008-12-01', TODAY)).toBe(17);
  });
  it.each([
    ['2008-11-30', null], ['2008-12-01', 'must be at least 18 years ago'], ['2026-02-30', 'must be a valid date'],
    ['1900-01-01', 'must be a real date of birth'],
  ])('dob %s → %s', (dob, refusal) => expect(dobRefusal(dob, TODAY)).toBe(refusal));
});

describe('submitRefusal', () => {
  it('a complete application (a 20 % owner without KYC is fine) → null', () => {
    expect(submitRefusal(complete(), TODAY)).toBeNull();
  });
  it('each missing step is named', () => {
    const app = { ...complete(), business_details: null, financial_details: null, company: null, products: [], checkbox: null, bank_accounts: [], kyb_document_pages: [0] };
    const refusal = submitRefusal(app, TODAY)!;
    expect(Object.keys(refusal.steps).sort()).toEqual(['bank_accounts', 'business_details', 'checkbox', 'company', 'financial_details', 'kyb_documents', 'products']);
  });
  it('an owner of 25 % or more without a completed KYC individual is named by id', () => {
    const app = complete();
    app.owners = app.owners.map((o) => (o.id === 'o2' ? { ...o, percent_bp: 2500 } : { ...o, percent_bp: o.id === 'o1' ? 5500 : o.percent_bp }));
    expect(submitRefusal(app, TODAY)).toEqual({ steps: {}, owners: { o2: ['Fill in their identity details.'] } });
  });
  it('a completed owner without a KYC document page, a minor, a bad SSN', () => {
    const app = complete();
    app.individuals = [{ ...app.individuals[0]!, dob: '2010-01-01', ssn_valid: false, kyc_document_pages: 0 }, app.individuals[1]!];
    const refusal = submitRefusal(app, TODAY)!;
    expect(refusal.owners.o1).toEqual(['Date of birth must be at least 18 years ago.', 'The SSN is not valid.', 'Upload an identity document.']);
    expect(refusal.owners.control_person).toEqual(refusal.owners.o1);
  });
  it('the control person needs KYC even when not an owner', () => {
    const app = complete();
    app.individuals = [{ ...app.individuals[0]!, is_control_person: false }, { ...app.individuals[1]!, is_control_person: true }];
    expect(submitRefusal(app, TODAY)!.owners).toEqual({ control_person: ['Fill in their identity details.'] });
  });
  it('ownership over 100 % and a bad EIN are refused', () => {
    const app = complete();
    app.owners = [...app.owners, { id: 'o4', kind: 'ENTITY', name: 'Extra', percent_bp: 1, kyc_individual_id: null }];
    app.business_details = { ...app.business_details!, ein: '00-1234567' };
    expect(submitRefusal(app, TODAY)!.steps).toEqual({ business_details: ['The EIN is not valid.'], ownerships: ['Ownership adds up to more than 100%.'] });
  });
});

describe('decide', () => {
  it('a clean application is approved, everyone PASSED', () => {
    expect(decide(complete(), LIST, TODAY)).toEqual({ outcome: 'APPROVED', reasons: [], ofac: { application: 'PASSED', individuals: { k1: 'PASSED', k2: 'PASSED' } } });
  });
  it.each([
    ['the exact name', 'Boris Q. Sanctionedov'],
    ['accents, case and punctuation', 'BÓRIS q sanctionedov'],
    ['tokens in another order', 'Sanctionedov, Boris Q'],
    ['an alias', 'B Q Sanctionedov'],
    ['a middle name added', 'Boris Quentin Q. Sanctionedov'],
  ])('an owner matching by %s → MANUAL_REVIEW, that individual flagged', (_label, name) => {
    const app = complete();
    const [first, ...rest] = name.split(' ');
    app.individuals = [app.individuals[0]!, { ...app.individuals[1]!, first_name: first!, last_name: rest.join(' ') }];
    const d = decide(app, LIST, TODAY);
    expect(d.outcome).toBe('MANUAL_REVIEW');
    expect(d.ofac).toEqual({ application: 'MANUAL_REVIEW', individuals: { k1: 'PASSED', k2: 'MANUAL_REVIEW' } });
  });
  it('an entity name with a company suffix matches (suffixes dropped); the dba and the applicant are screened', () => {
    const withLegal = { ...complete(), business_details: { ...complete().business_details!, legal_name: 'Forbidden Trading Company, Inc.' } };
    expect(decide(withLegal, LIST, TODAY).outcome).toBe('MANUAL_REVIEW');
    expect(decide({ ...complete(), business_details: { ...complete().business_details!, dba: 'Forbidden Trading' } }, LIST, TODAY).outcome).toBe('MANUAL_REVIEW');
    const applicant = decide({ ...complete(), applicant_name: 'Boris Sanctionedov Q' }, LIST, TODAY);
    expect(applicant.outcome).toBe('MANUAL_REVIEW');
    expect(applicant.ofac.individuals).toEqual({ k1: 'PASSED', k2: 'PASSED' });
  });
  it('one shared token is not a hit', () => {
    expect(decide({ ...complete(), applicant_name: 'Boris Smith' }, LIST, TODAY).outcome).toBe('APPROVED');
  });
  it('sanctions come before the hard rules', () => {
    const app = { ...complete(), applicant_name: 'Boris Q Sanctionedov', bank_accounts: [{ id: 'b1', routing_number: '123456789' }] };
    expect(decide(app, LIST, TODAY).outcome).toBe('MANUAL_REVIEW');
  });
  it.each([
    ['an incorporation date in the future', { business_details: { ...complete().business_details!, incorporation_date: '2026-12-01' } }, 'The incorporation date is in the future.'],
    ['an entity type not offered', { business_details: { ...complete().business_details!, entity_type: 'TRUST' } }, "We don't offer accounts to TRUST businesses yet."],
    ['a routing number failing ABA', { bank_accounts: [{ id: 'b1', routing_number: '123456789' }] }, "A bank account's routing number is not a valid ABA routing number."],
  ])('%s → REJECTED with the reason', (_label, patch, reason) => {
    expect(decide({ ...complete(), ...patch }, LIST, TODAY)).toMatchObject({ outcome: 'REJECTED', reasons: [reason] });
  });
  it('same input, same output; today is an argument', () => {
    const app = { ...complete(), business_details: { ...complete().business_details!, incorporation_date: '2026-12-01' } };
    expect(decide(app, LIST, '2026-12-01').outcome).toBe('APPROVED');
    expect(decide(app, LIST, TODAY)).toEqual(decide(app, LIST, TODAY));
  });
});

describe('decideKyb (a further entity)', () => {
  const entity = { legal_name: 'Engines West LLC', dba: null, entity_type: 'LLC', ein: '12-3456789', incorporation_date: '2021-01-01' };
  it.each([
    ['clean', entity, { outcome: 'APPROVED', reasons: [] }],
    ['a listed name', { ...entity, legal_name: 'Forbidden Trading Co.' }, { outcome: 'MANUAL_REVIEW', reasons: ['"Forbidden Trading Co." needs a manual sanctions review.'] }],
    ['a bad EIN and a future date', { ...entity, ein: '00-1234567', incorporation_date: '2027-01-01' },
      { outcome: 'REJECTED', reasons: ['The EIN is not valid.', 'The incorporation date is in the future.'] }],
  ])('%s', (_label, d, expected) => expect(decideKyb(d, LIST, TODAY)).toEqual(expected));
});
