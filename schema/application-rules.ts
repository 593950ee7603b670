import { screenNames, type SanctionsEntry, SANCTIONS_LIST } from './sanctions.ts';
import { isValidRoutingNumber } from './vendor-rules.ts';
import { isValidEin } from './tax-ids.ts';

/**
 * The financing application's pure rules (issue 31, docs/design/issue-31-surfaces.md §2.6, §5):
 * its status machine, the field validators (SSN, EIN, NAICS, date of birth), what submitting would
 * refuse (`submitRefusal`) and the decision (`decide`). Same input, same output: `today` and the
 * sanctions list are arguments.
 */

export const APPLICATION_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'MANUAL_REVIEW', 'REJECTED', 'WITHDRAWN'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export type ApplicationAction = 'submit' | 'approve' | 'reject' | 'review' | 'withdraw';

/**
 * DRAFT →submit→ SUBMITTED →approve→ APPROVED | →review→ MANUAL_REVIEW | →reject→ REJECTED;
 * MANUAL_REVIEW →approve|reject (operations, `npm run ops:review`); DRAFT →withdraw→ WITHDRAWN (a firm).
 */
const TRANSITIONS: Readonly<Record<ApplicationStatus, Partial<Record<ApplicationAction, ApplicationStatus>>>> = {
  DRAFT: { submit: 'SUBMITTED', withdraw: 'WITHDRAWN' },
  SUBMITTED: { approve: 'APPROVED', review: 'MANUAL_REVIEW', reject: 'REJECTED' },
  MANUAL_REVIEW: { approve: 'APPROVED', reject: 'REJECTED' },
  APPROVED: {},
  REJECTED: {},
  WITHDRAWN: {},
};

/** The next status, or null when the action does not apply to this status. */
export const applicationTransition = (status: ApplicationStatus, action: ApplicationAction): ApplicationStatus | null =>
  TRANSITIONS[status][action] ?? null;

/** Only a draft takes answers (APPLICATION_7001 otherwise). */
export const isEditable = (status: ApplicationStatus) => status === 'DRAFT';

export { isValidEin, isValidSsn, ssnDigits } from './tax-ids.ts';

/** A NAICS industry code: 2 to 6 digits, its sector (first two) one of NAICS 2022's. */
const NAICS_SECTORS = new Set(['11', '21', '22', '23', '31', '32', '33', '42', '44', '45', '48', '49', '51', '52', '53', '54', '55', '56', '61', '62', '71', '72', '81', '92']);
export const isValidNaics = (code: string) => /^\d{2,6}$/.test(code) && NAICS_SECTORS.has(code.slice(0, 2));

/** Whole years from an ISO date to `today` (both YYYY-MM-DD). */
export function ageOn(dob: string, today: string): number {
  const [y, m, d] = dob.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}
/** A date of birth: a real past date, the person at least 18 and under 120 on `today`. */
export function dobRefusal(dob: string, today: string): string | null {
  const date = new Date(`${dob}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== dob) return 'must be a valid date';
  const age = ageOn(dob, today);
  if (age < 18) return 'must be at least 18 years ago';
  if (age >= 120) return 'must be a real date of birth';
  return null;
}

export const ENTITY_TYPES = ['LLC', 'C_CORP', 'S_CORP', 'PARTNERSHIP', 'SOLE_PROPRIETORSHIP', 'NON_PROFIT'] as const;
/** Every entity type is offered today; the rule exists so a type can be withdrawn in one place. */
const OFFERED_ENTITY_TYPES: readonly string[] = ENTITY_TYPES;

const OWNERSHIP_THRESHOLD_BP = 2500;
export const MAX_OWNERSHIP_BP = 10000;

/** What the rules read of an application (the server gathers it; routing numbers decrypted). */
export type ApplicationSnapshot = {
  applicant_name: string;
  business_details: { legal_name: string; dba?: string | null; entity_type: string; ein: string; incorporation_date: string } | null;
  financial_details: unknown;
  company: unknown;
  leadership: { control_person: { first_name: string; last_name: string } } | null;
  products: readonly string[] | null;
  checkbox: unknown;
  owners: readonly { id: string; kind: 'INDIVIDUAL' | 'ENTITY'; name: string; percent_bp: number; kyc_individual_id: string | null }[];
  individuals: readonly {
    id: string; first_name: string | null; last_name: string | null; dob: string | null; ssn_valid: boolean;
    is_control_person: boolean; completed: boolean; kyc_document_pages: number;
  }[];
  kyb_document_pages: readonly number[];
  bank_accounts: readonly { id: string; routing_number: string }[];
};

export type SubmitRefusal = { steps: Record<string, string[]>; owners: Record<string, string[]> };

const individualName = (i: { first_name: string | null; last_name: string | null }) => [i.first_name, i.last_name].filter(Boolean).join(' ');

function stepRefusals(app: ApplicationSnapshot): Record<string, string[]> {
  const steps: Record<string, string[]> = {};
  const add = (step: string, message: string) => (steps[step] ??= []).push(message);
  if (!app.business_details) add('business_details', 'Add the business details.');
  else if (!isValidEin(app.business_details.ein)) add('business_details', 'The EIN is not valid.');
  if (!app.financial_details) add('financial_details', 'Add the financial details.');
  if (!app.company) add('company', 'Describe the company.');
  if (!app.leadership) add('leadership', 'Name the control person.');
  if (app.owners.length === 0) add('ownerships', 'List the owners.');
  if (app.owners.reduce((s, o) => s + o.percent_bp, 0) > MAX_OWNERSHIP_BP) add('ownerships', 'Ownership adds up to more than 100%.');
  if (!app.products || app.products.length === 0) add('products', 'Choose at least one product.');
  if (!app.checkbox) add('checkbox', 'Certify the owners and accept the terms.');
  if (app.bank_accounts.length === 0) add('bank_accounts', 'Add a bank account.');
  if (!app.kyb_document_pages.some((pages) => pages >= 1)) add('kyb_documents', 'Upload at least one business document.');
  return steps;
}

function individualRefusals(i: ApplicationSnapshot['individuals'][number] | undefined, today: string): string[] {
  if (!i || !i.completed) return ['Fill in their identity details.'];
  const out: string[] = [];
  const dob = i.dob ? dobRefusal(i.dob, today) : 'is required';
  if (dob) out.push(`Date of birth ${dob}.`);
  if (!i.ssn_valid) out.push('The SSN is not valid.');
  if (i.kyc_document_pages < 1) out.push('Upload an identity document.');
  return out;
}

/**
 * What submitting would refuse (APPLICATION_7002, nothing written), or null: the required steps
 * answered, a business document with a page, Σ ownership ≤ 100 %, a valid EIN, and every
 * individual owner of at least 25 % and the control person with a completed KYC individual (adult
 * on `today`, valid SSN) and a KYC document with at least one page. Keyed by step and by owner
 * id (the control person by its KYC individual id, under `control_person`).
 */
export function submitRefusal(app: ApplicationSnapshot, today: string): SubmitRefusal | null {
  const steps = stepRefusals(app);
  const owners: Record<string, string[]> = {};
  const byId = new Map(app.individuals.map((i) => [i.id, i]));
  for (const owner of app.owners) {
    if (owner.kind !== 'INDIVIDUAL' || owner.percent_bp < OWNERSHIP_THRESHOLD_BP) continue;
    const problems = individualRefusals(owner.kyc_individual_id ? byId.get(owner.kyc_individual_id) : undefined, today);
    if (problems.length > 0) owners[owner.id] = problems;
  }
  const control = app.individuals.find((i) => i.is_control_person);
  if (app.leadership) {
    const problems = individualRefusals(control, today);
    if (problems.length > 0) owners.control_person = problems;
  }
  return Object.keys(steps).length + Object.keys(owners).length === 0 ? null : { steps, owners };
}

type DecisionOutcome = 'APPROVED' | 'MANUAL_REVIEW' | 'REJECTED';
export type Decision = {
  outcome: DecisionOutcome;
  reasons: string[];
  /** The screening: the application's and each KYC individual's status (PASSED or MANUAL_REVIEW). */
  ofac: { application: 'PASSED' | 'MANUAL_REVIEW'; individuals: Record<string, 'PASSED' | 'MANUAL_REVIEW'> };
};

/** Names screened against the list: legal name, dba, owners, control person, KYC individuals, applicant. */
function screenedNames(app: ApplicationSnapshot): string[] {
  const d = app.business_details;
  const cp = app.leadership?.control_person;
  return [
    ...(d ? [d.legal_name, ...(d.dba ? [d.dba] : [])] : []),
    ...app.owners.map((o) => o.name),
    ...(cp ? [`${cp.first_name} ${cp.last_name}`] : []),
    ...app.individuals.map(individualName),
    app.applicant_name,
  ].filter((n) => n.trim() !== '');
}

/**
 * The decision (§5), in order: (1) sanctions — any hit → MANUAL_REVIEW, the matched KYC
 * individuals and the application flagged; (2) hard rules → REJECTED (incorporation date after
 * `today`, an entity type not offered, a routing number failing the ABA checksum); (3) APPROVED.
 * No credit decision: limits are issue 30's flex onboarding.
 */
export function decide(app: ApplicationSnapshot, list: readonly SanctionsEntry[] = SANCTIONS_LIST, today: string): Decision {
  const hits = screenNames(screenedNames(app), list);
  const individuals: Record<string, 'PASSED' | 'MANUAL_REVIEW'> = {};
  for (const i of app.individuals) {
    individuals[i.id] = screenNames([individualName(i)], list).length > 0 ? 'MANUAL_REVIEW' : 'PASSED';
  }
  if (hits.length > 0) {
    const named = [...new Set(hits.map((h) => h.name))];
    return {
      outcome: 'MANUAL_REVIEW',
      reasons: named.map((n) => `"${n}" needs a manual sanctions review.`),
      ofac: { application: 'MANUAL_REVIEW', individuals },
    };
  }
  const reasons: string[] = [];
  const d = app.business_details;
  if (d && d.incorporation_date > today) reasons.push('The incorporation date is in the future.');
  if (d && !OFFERED_ENTITY_TYPES.includes(d.entity_type)) reasons.push(`We don't offer accounts to ${d.entity_type} businesses yet.`);
  for (const account of app.bank_accounts) {
    if (!isValidRoutingNumber(account.routing_number)) reasons.push('A bank account\'s routing number is not a valid ABA routing number.');
  }
  const ofac = { application: 'PASSED' as const, individuals };
  return reasons.length > 0 ? { outcome: 'REJECTED', reasons, ofac } : { outcome: 'APPROVED', reasons: [], ofac };
}

/**
 * The KYB part of the engine for a further entity of an existing business (businesses.issuingOnboarding):
 * its names screened (a hit → MANUAL_REVIEW), then the hard rules (an invalid EIN, an incorporation
 * date after `today`, an entity type not offered → REJECTED), else APPROVED.
 */
export function decideKyb(
  d: { legal_name: string; dba?: string | null | undefined; entity_type: string; ein: string; incorporation_date: string },
  list: readonly SanctionsEntry[] = SANCTIONS_LIST,
  today: string,
): { outcome: DecisionOutcome; reasons: string[] } {
  const hits = screenNames([d.legal_name, ...(d.dba ? [d.dba] : [])], list);
  if (hits.length > 0) return { outcome: 'MANUAL_REVIEW', reasons: [...new Set(hits.map((h) => `"${h.name}" needs a manual sanctions review.`))] };
  const reasons: string[] = [];
  if (!isValidEin(d.ein)) reasons.push('The EIN is not valid.');
  if (d.incorporation_date > today) reasons.push('The incorporation date is in the future.');
  if (!OFFERED_ENTITY_TYPES.includes(d.entity_type)) reasons.push(`We don't offer accounts to ${d.entity_type} businesses yet.`);
  return { outcome: reasons.length > 0 ? 'REJECTED' : 'APPROVED', reasons };
}
