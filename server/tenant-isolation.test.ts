/**
 * Tenant isolation across the whole catalogue: every authenticated call, generated from its zod
 * schemas, is made (a) by the owner of another business B with business A's ids in its params,
 * query and body, and (b) by every role of A that the call must refuse. Nothing of A may appear
 * in B's answers, and nothing A owns may change (row hashes of every table A owns, before/after).
 * New catalogue entries are covered without touching this file.
 */
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../schema/api/calls.ts';
import type { CallDef } from '../schema/api/define-call.ts';
import { SCOPES } from '../schema/api/scopes.ts';
import { signIdToken } from './auth/tokens.ts';
import { TEST_TOKEN_SECRET, useTestApp } from './test-app.ts';
import { testDatabases } from './test-db.ts';
import { FIXTURE_ROLES, makeBusiness, type Fixture, type FixtureRole } from './test-fixtures.ts';
import { seedTreasury, TREASURY_ROLE_GATED } from './tenant-isolation-treasury.ts';
import { NO_PROCUREMENT, ownedTables, prepare, seedApprovalGroups, seedExpensePolicies, seedProcurement, snapshot, type IdPool, type Prepared } from './tenant-isolation-support.ts';

/**
 * Public calls carry no business context: they are authenticated by what they carry (email and
 * password, an invite token, nothing at all for config/outbox) and have their own suites. The dev
 * outbox is cross-tenant by design and disabled in production.
 */
const SKIPPED = CATALOGUE.filter((c) => c.auth.kind === 'public');
// Issue 31: calls no business token may make (SURFACE_7001) have their own suites and surface-matrix.test.ts.
const COVERED = CATALOGUE.filter((c) => c.auth.kind !== 'public' && c.surfaces.includes('BUSINESS'));

/** Roles that may make a call; `admin.*` ids are admin-only (see calls-admin.ts). */
const ADMIN_ROLES: FixtureRole[] = ['owner', 'admin'];
const ALSO_ALLOWED: Record<string, FixtureRole[]> = {
  // Managers may invite (and re-invite) their own employees.
  'admin.users.invite': ['manager'],
  'admin.users.resendInvite': ['manager'],
  // Issue 29: the notify threshold is read by those who see every transaction (domain/notifications/threshold.ts).
  'admin.notifyThreshold.get': ['bookkeeper', 'auditor'],
};
/** Calls outside `admin.*` that only some roles may make (refused with 403 before any lookup). */
const NON_REVIEWERS: FixtureRole[] = ['employee', 'teammate', 'outsider', 'auditor'];
const NON_ADMINS = FIXTURE_ROLES.filter((r) => !ADMIN_ROLES.includes(r));
const ROLE_GATED: Record<string, FixtureRole[]> = {
  // §6: admin, manager or bookkeeper review reimbursements and approve card requests.
  'approvals.approve': NON_REVIEWERS,
  'approvals.reject': NON_REVIEWERS,
  'approvals.bulk': NON_REVIEWERS,
  // §6 issuing: admins, and managers within their team (the fixture's cards are A's employee's).
  'cards.issue': ['bookkeeper', 'employee', 'teammate', 'outsider', 'auditor'],
  'reimbursements.payAch': NON_ADMINS, // paying (and reversing a payment) is for admins
  'reimbursements.cancelPayment': NON_ADMINS,
};
// §6 "manage bill pay accounting" (admin, AP clerk, bookkeeper) changes vendors; everyone reads them.
const NOT_BILL_PAY: FixtureRole[] = ['manager', 'employee', 'teammate', 'outsider', 'auditor'];
for (const id of [
  'vendors.create', 'vendors.update', 'vendors.delete', 'vendors.contacts.add', 'vendors.contacts.update', 'vendors.contacts.delete',
  'vendors.bankAccount.set', 'vendors.bankAccount.reveal', 'vendors.bankAccount.delete', 'vendors.mergePayees', 'vendors.bulkUpload',
]) ROLE_GATED[id] = NOT_BILL_PAY;
// Bills are read and written by bill-pay managers only.
for (const id of [
  'bills.list', 'bills.payments.list', 'bills.get', 'bills.create', 'bills.update', 'bills.delete', 'bills.checkDuplicateInvoice',
  'bills.expectedSettlementDate', 'bills.markPaid', 'bills.reversePayment', 'bills.bulk.payNow',
  // The other bulk actions (issue 11, calls-bill-bulk.ts).
  'bills.bulk.dueDate', 'bills.bulk.invoiceDate', 'bills.bulk.entity', 'bills.bulk.memo', 'bills.bulk.paymentDate',
  'bills.bulk.trackingCategory', 'bills.bulk.cancel', 'bills.bulk.amount', 'bills.bulk.markPaid', 'bills.bulk.markReconciled',
  'bills.bulk.retryPayment', 'bills.bulk.retryAccountingSync', 'bills.bulk.remindNextApprovers',
  'bills.provisional.list', 'bills.provisional.create', 'bills.provisional.update', 'bills.provisional.delete', 'bills.provisional.deleteAll',
  // Recurring bills, vendor credits and bill templates (calls-bill-extras.ts).
  'bills.recurring.list', 'bills.recurring.create', 'bills.recurring.update', 'bills.recurring.delete',
  'bills.vendorCredits.list', 'bills.vendorCredits.create', 'bills.vendorCredits.delete',
  'bills.templates.list', 'bills.templates.create', 'bills.templates.delete', // and paid by card (issue 30):
  'bills.payByCard.matching', 'bills.payByCard.close', 'bills.payByCard.get', 'bills.payByCard.undo',
]) ROLE_GATED[id] = NOT_BILL_PAY;
// Accounting close (issue 12, calls-accounting.ts): §6 "manage bill pay accounting", every call.
for (const id of [
  'accounting.current', 'accounting.connect', 'accounting.disconnect', 'accounting.preferences.update', 'accounting.syncCommit',
  'accounting.syncCommits.list', 'accounting.syncCommits.get', 'accounting.syncCommits.file', 'accounting.markNotSynced',
  'accounting.mappingRules.list', 'accounting.mappingRules.create', 'accounting.mappingRules.replace', 'accounting.mappingRules.delete',
  'accounting.mappingRules.apply', 'accounting.reconciliation.manualMatch',
]) ROLE_GATED[id] = NOT_BILL_PAY;
for (const id of ['travel.policy.put', 'travel.policy.delete', 'travel.settings.put', 'travel.rewards.void']) ROLE_GATED[id] = NON_ADMINS; // issue 27: admins write, everyone reads
// Issue 29: admins write expense policies and send reminders; compliance is also for those who see every transaction.
for (const id of ['expensePolicies.create', 'expensePolicies.update', 'expensePolicies.delete', 'expensePolicies.remind']) ROLE_GATED[id] = NON_ADMINS;
ROLE_GATED['expensePolicies.compliance'] = ['manager', 'employee', 'teammate', 'outsider'];
for (const id of TREASURY_ROLE_GATED) ROLE_GATED[id] = NON_ADMINS; // issue 30: tenant-isolation-treasury.ts
const refusedRoles = (call: CallDef): FixtureRole[] => call.id.startsWith('admin.')
    ? FIXTURE_ROLES.filter((r) => !ADMIN_ROLES.includes(r) && !(ALSO_ALLOWED[call.id] ?? []).includes(r))
    : (ROLE_GATED[call.id] ?? []);

describe.each(await testDatabases())('tenant isolation across the catalogue on %s', (kind) => {
  const t = useTestApp(kind);
  const key = new TextEncoder().encode(TEST_TOKEN_SECRET);
  let a: Fixture, b: Fixture;
  let pool: IdPool, ownPool: IdPool;
  let secrets: string[];
  let tables: Awaited<ReturnType<typeof ownedTables>>;
  const roleTokens = {} as Record<FixtureRole, string>;

  /** A fully scoped, MFA-authed, fresh token: the strongest caller the role can be. */
  async function mint(f: Fixture, role: FixtureRole): Promise<string> {
    const [u] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM spend_users WHERE id = $1', [f.users[role]]);
    const sessionId = randomUUID();
    await t.db.query('INSERT INTO sessions (id, identity_id) VALUES ($1, $2)', [sessionId, u!.identity_id]);
    return signIdToken(key, {
      sub: u!.identity_id, ramp_user_uuid: f.users[role], ramp_access_scopes: [...SCOPES], ramp_mfa_required: false,
      ramp_mfa_authed: true, ramp_session_id: sessionId, sign_in_provider: 'password', business_id: f.businessId,
    }, Math.floor(Date.now() / 1000));
  }

  async function send(p: Prepared, token: string): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { 'RAMP-ID-TOKEN': token };
    if (p.body !== undefined) headers['content-type'] = 'application/json';
    const res = await t.app.request(p.path, { method: p.method, headers, body: p.body });
    if (!res.headers.get('content-type')?.includes('text/event-stream')) return { status: res.status, text: await res.text() };
    // A stream never ends: its opening events are what it would leak.
    const reader = res.body!.getReader();
    const first = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), 300))]);
    await reader.cancel();
    return { status: res.status, text: first && first.value ? new TextDecoder().decode(first.value) : '' };
  }

  /** Anything of A in an answer that the request did not itself carry. */
  const leaks = (text: string, sent: string) => secrets.filter((s) => text.includes(s) && !sent.includes(s));

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 20, operating: {} });
    b = await makeBusiness(t.db, { transactions: 5 });
    const tag = a.businessId.slice(0, 8);
    // Every name A owns carries its tag, so a leaked name is as visible as a leaked id.
    for (const table of ['departments', 'locations', 'gl_accounts', 'tracking_categories']) {
      await t.db.query(`UPDATE ${table} SET name = name || ' ${tag}' WHERE business_id = $1`, [a.businessId]);
    }
    const entity = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO business_entities (id, business_id, name, country, currency, change_seq) SELECT $1::uuid, $2::uuid, $3, 'US', 'USD', change_seq FROM seq`,
      [entity, a.businessId, `Entity ${tag}`],
    );
    await t.db.query(`UPDATE spend_users SET entity_id = $2 WHERE id = $1`, [a.users.employee, entity]);
    // A draft claim of A's employee (a draft can be edited, submitted and deleted: the most to lose).
    const claim = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date, change_seq)
       SELECT $1, $2, $3, 'OUT_OF_POCKET', 'DRAFT', $4, 1234, 'USD', '2026-01-02', change_seq FROM seq`,
      [claim, a.businessId, a.users.employee, `Claim ${tag}`],
    );
    // A submitted claim of A's employee with its pending approval, and an approved, paid one with
    // its ledger payment (review and payment calls have something to decide, pay and reverse).
    const submitted = randomUUID();
    const approval = randomUUID();
    const paidClaim = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 2 WHERE id = $2 RETURNING change_seq)
       INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date, change_seq)
       SELECT $1, $2, $3, 'OUT_OF_POCKET', 'SUBMITTED', $4, 999, 'USD', '2026-01-03', change_seq - 1 FROM seq`,
      [submitted, a.businessId, a.users.employee, `Submitted ${tag}`],
    );
    await t.db.query(
      `INSERT INTO approvals (id, business_id, object_type, object_id, user_id, approver_id, status, change_seq)
       SELECT $1, $2, 'reimbursement', $3, $4, $5, 'PENDING', change_seq FROM businesses WHERE id = $2`,
      [approval, a.businessId, submitted, a.users.employee, a.users.manager],
    );
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date, change_seq)
       SELECT $1, $2, $3, 'OUT_OF_POCKET', 'PAID', $4, 555, 'USD', '2026-01-04', change_seq FROM seq`,
      [paidClaim, a.businessId, a.users.employee, `Paid ${tag}`],
    );
    await t.db.query(
      `INSERT INTO ledger_entries (id, business_id, reimbursement_id, user_id, kind, method, amount, currency, created_by, created_at, settles_at)
       VALUES ($1, $2, $3, $4, 'PAYMENT', 'ACH', 555, 'USD', $5, now(), now() + interval '3 days')`,
      [randomUUID(), a.businessId, paidClaim, a.users.employee, a.users.owner],
    );
    // A receipt A's employee uploaded, attached to one of their transactions.
    const receipt = randomUUID();
    await t.db.query(
      `INSERT INTO receipts (id, business_id, user_id, content_type, size, sha256, bytes) VALUES ($1, $2, $3, 'application/pdf', 9, $4, $5)`,
      [receipt, a.businessId, a.users.employee, createHash('sha256').update(`%PDF-${tag}`).digest('hex'), new TextEncoder().encode('%PDF-1.7\n')],
    );
    await t.db.query('INSERT INTO receipt_uploads (receipt_id, business_id, user_id) VALUES ($1, $2, $3)', [receipt, a.businessId, a.users.employee]);
    await t.db.query('INSERT INTO transaction_receipts (transaction_id, receipt_id, business_id, attached_by) VALUES ($1, $2, $3, $4)', [
      a.transactions.employee[0], receipt, a.businessId, a.users.employee,
    ]);
    // A's reimbursement rates: a per-diem location (named with the tag) and a mileage override.
    const rates = [randomUUID(), randomUUID()];
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 2 WHERE id = $3 RETURNING change_seq)
       INSERT INTO reimbursement_rates (id, business_id, kind, name, year, rate, currency, change_seq)
       SELECT $1::uuid, $3::uuid, 'PER_DIEM', $4, NULL, 7900, 'USD', change_seq - 1 FROM seq
       UNION ALL SELECT $2::uuid, $3::uuid, 'MILEAGE', NULL, 2026, 800, 'USD', change_seq FROM seq`,
      [rates[0], rates[1], a.businessId, `Rate city ${tag}`],
    );
    // A's employee's pending card request with its approval (decide, cancel and list have a target).
    const cardRequest = randomUUID();
    const requestApproval = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 2 WHERE id = $2 RETURNING change_seq)
       INSERT INTO card_requests (id, business_id, user_id, is_physical, amount, currency, limit_interval, reason, status, change_seq)
       SELECT $1, $2, $3, false, 50000, 'USD', 'MONTHLY', $4, 'PENDING', change_seq - 1 FROM seq`,
      [cardRequest, a.businessId, a.users.employee, `Card for ${tag}`],
    );
    await t.db.query(
      `INSERT INTO approvals (id, business_id, object_type, object_id, user_id, approver_id, status, change_seq)
       SELECT $1, $2, 'card_request', $3, $4, $5, 'PENDING', change_seq FROM businesses WHERE id = $2`,
      [requestApproval, a.businessId, cardRequest, a.users.employee, a.users.manager],
    );
    // A's approval policy (a version naming A's people) and an instance of its chain (issue 11).
    const instance = randomUUID();
    await t.db.query(
      `INSERT INTO approval_policies (business_id, object_type, version, steps, created_by) VALUES ($1, 'bill', 1, $2::jsonb, $3)`,
      [a.businessId, JSON.stringify([{ id: randomUUID(), condition: null, approvers: { kind: 'user', user_id: a.users.manager } }]), a.users.owner],
    );
    await t.db.query(
      `INSERT INTO approval_instances (id, business_id, object_type, object_id, requester_id, policy_version, status, steps)
       VALUES ($1, $2, 'bill', $3, $4, 1, 'PENDING', $5::jsonb)`,
      [instance, a.businessId, randomUUID(), a.users.employee, JSON.stringify([0, 1].map((i) => ({
        step_id: randomUUID(), mode: 'any', approver_ids: [a.users.manager], fallback: false, status: i === 0 ? 'PENDING' : 'WAITING', approved_by: [],
      })))],
    );
    // A's vendor with a contact and a bank account, and a second one to merge (every vendor call has a target).
    const vendors = [randomUUID(), randomUUID()];
    const vendorContact = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 2 WHERE id = $3 RETURNING change_seq)
       INSERT INTO vendors (id, business_id, name, email, bank_account_type, bank_routing_cipher, bank_account_cipher,
                            bank_routing_last_four, bank_account_last_four, change_seq)
       SELECT $1::uuid, $3::uuid, $4, 'ap@vendor.test', 'CHECKING', 'v1.x.y.z', 'v1.x.y.z', '0021', '6789', change_seq - 1 FROM seq
       UNION ALL SELECT $2::uuid, $3::uuid, $5, NULL, NULL, NULL, NULL, NULL, NULL, change_seq FROM seq`,
      [vendors[0], vendors[1], a.businessId, `Vendor ${tag}`, `Other vendor ${tag}`],
    );
    await t.db.query('INSERT INTO vendor_contacts (id, business_id, vendor_id, name) VALUES ($1, $2, $3, $4)', [vendorContact, a.businessId, vendors[0], `Contact ${tag}`]);
    // A's bills of that vendor: a draft, an approved one and a paid one with its payment (every bill call has a target).
    const bills = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, status] of (['DRAFT', 'APPROVED', 'PAID'] as const).entries()) {
      await t.db.query(
        `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
         INSERT INTO bills (id, business_id, vendor_id, invoice_number, invoice_key, invoice_date, due_date, currency, amount, status,
                            created_by, payment_attempt, change_seq)
         SELECT $1, $2, $3, $4, upper($4), '2026-01-01', '2026-01-31', 'USD', 4200, $5, $6, $7, change_seq FROM seq`,
        [bills[i], a.businessId, vendors[0], `INV-${tag}-${i}`, status, a.users.admin, status === 'PAID' ? 1 : 0],
      );
      await t.db.query(`INSERT INTO bill_line_items (id, bill_id, position, description, amount) VALUES ($1, $2, 0, $3, 4200)`,
        [randomUUID(), bills[i], `Line ${tag}`]);
    }
    await t.db.query(
      `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by)
       VALUES ($1, $2, $3, 1, $4, 4200, 'USD', 'SETTLED', $5)`,
      [randomUUID(), a.businessId, bills[2], `bill-payment:${bills[2]}:1`, a.users.admin],
    );
    // A's recurring template, vendor credit (applied on A's draft, so a delete must be refused) and bill template.
    const extras = { recurring: randomUUID(), credit: randomUUID(), template: randomUUID() };
    await t.db.query(
      `INSERT INTO recurring_bill_templates (id, business_id, vendor_id, currency, line_items, amount, interval, start_date, generate_from,
         invoice_number_pattern, days_until_due, status, created_by)
       VALUES ($1, $2, $3, 'USD', $4::jsonb, 4200, 'MONTHLY', '2026-01-31', '2026-01-31', $5, 30, 'ACTIVE', $6)`,
      [extras.recurring, a.businessId, vendors[0], JSON.stringify([{ description: `Rent ${tag}`, amount: 4200 }]), `RENT-${tag}-{MM}`, a.users.admin],
    );
    await t.db.query(
      `INSERT INTO vendor_credits (id, business_id, vendor_id, currency, amount, credit_note_number, credit_date, memo, created_by)
       VALUES ($1, $2, $3, 'USD', 1000, $4, '2026-01-01', $4, $5)`,
      [extras.credit, a.businessId, vendors[0], `CN-${tag}`, a.users.admin],
    );
    await t.db.query(`INSERT INTO bill_line_items (id, bill_id, position, description, amount, vendor_credit_id) VALUES ($1, $2, 1, $3, -200, $4)`,
      [randomUUID(), bills[0], `Credit ${tag}`, extras.credit]);
    await t.db.query(
      `INSERT INTO bill_templates (id, business_id, name, vendor_id, currency, line_items, created_by) VALUES ($1, $2, $3, $4, 'USD', $5::jsonb, $6)`,
      [extras.template, a.businessId, `Template ${tag}`, vendors[0], JSON.stringify([{ description: `Line ${tag}`, amount: 100 }]), a.users.admin],
    );
    // A's provisional bill (an uploaded invoice not yet completed: provisional-bills.ts). It is also
    // what a generated bills.create names in `provisional_bill_id`: B completing it must be 404, A's row unchanged.
    const provisional = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO provisional_bills (id, business_id, invoice_file_id, created_by, change_seq) SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, change_seq FROM seq`,
      [provisional, a.businessId, receipt, a.users.admin],
    );
    // A's admin's saved report and dashboard (issue 12, domain/reporting/saved.ts).
    const report = randomUUID();
    const dashboard = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 2 WHERE id = $2 RETURNING change_seq)
       INSERT INTO saved_reports (id, business_id, owner_id, name, query, chart, change_seq)
       SELECT $1::uuid, $2::uuid, $3::uuid, $4, '{"collection":"transactions","time_grain":"month","dimension":"none","measure":"sum"}', 'bar', change_seq - 1 FROM seq`,
      [report, a.businessId, a.users.admin, `Report ${tag}`],
    );
    await t.db.query(
      `INSERT INTO dashboards (id, business_id, owner_id, name, items, change_seq)
       SELECT $1::uuid, $2::uuid, $3::uuid, $4, $5::jsonb, change_seq FROM businesses WHERE id = $2`,
      [dashboard, a.businessId, a.users.admin, `Dashboard ${tag}`, JSON.stringify([{ report_id: report, size: 'full' }])],
    );
    // A's accounting: a connected provider, a sync commit (with its file) of A's coded, synced
    // transaction, and a mapping rule (issue 12).
    const syncCommit = randomUUID();
    const mappingRule = randomUUID();
    await t.db.query(`INSERT INTO accounting_settings (business_id, provider_type, connected_at, connected_by) VALUES ($1, 'csv', now(), $2)`, [a.businessId, a.users.admin]);
    await t.db.query(`INSERT INTO accounting_sync_commits (id, business_id, provider_type, created_by, item_count) VALUES ($1, $2, 'csv', $3, 1)`,
      [syncCommit, a.businessId, a.users.admin]);
    await t.db.query(`INSERT INTO accounting_sync_files (commit_id, business_id, position, name, content_type, content) VALUES ($1, $2, 0, '123456', 'text/csv', $3)`,
      [syncCommit, a.businessId, `Export ${tag}`]);
    await t.db.query(`UPDATE transactions SET gl_account_id = $2, accounting_synced_at = now(), accounting_sync_commit_id = $3 WHERE id = $1`,
      [a.transactions.employee[1], a.glAccounts.active[0], syncCommit]);
    await t.db.query(
      `INSERT INTO accounting_mapping_rules (id, business_id, priority, match_field, match_operator, match_value, gl_account_id, created_by, change_seq)
       VALUES ($1, $2, 0, 'merchant_name', 'equals', $3, $4, $5, (SELECT change_seq FROM businesses WHERE id = $2))`,
      [mappingRule, a.businessId, `Merchant ${tag}`, a.glAccounts.active[0], a.users.admin],
    );
    // A's employee's trip with a linked transaction, their traveller profile, and A's travel policy (issue 27).
    const trip = randomUUID();
    await t.db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO trips (id, business_id, user_id, created_by, name, destination, destination_name, start_date, end_date, status, change_seq)
       SELECT $1, $2, $3, $3, $4, 'JFK', 'New York', '2027-01-10', '2027-01-12', 'PLANNED', change_seq FROM seq`,
      [trip, a.businessId, a.users.employee, `Trip ${tag}`],
    );
    await t.db.query(`INSERT INTO trip_spend_events (business_id, trip_id, object_type, object_id, linked_by) VALUES ($1, $2, 'transaction', $3, $4)`,
      [a.businessId, trip, a.transactions.employee[2], a.users.employee]);
    await t.db.query(
      `INSERT INTO traveler_profiles (user_id, business_id, legal_first_name, legal_last_name, seat_preference, secret, masked)
       VALUES ($1, $2, $3, 'Ruiz', 'AISLE', 'v1.x.y.z', '{"date_of_birth_masked": "••••-••-14", "known_traveler_number_last_four": null, "loyalty_programs": []}')`,
      [a.users.employee, a.businessId, `Traveller ${tag}`],
    );
    await t.db.query(`INSERT INTO travel_policies (business_id, policy) VALUES ($1, $2::jsonb)`,
      [a.businessId, JSON.stringify({ currency: 'USD', cabin_by_duration: [{ min_duration_minutes: 0, max_cabin: 'ECONOMY' }],
        flight_fare_caps: { ECONOMY: 4_242, PREMIUM_ECONOMY: null, BUSINESS: null, FIRST: null },
        hotel_nightly_cap: { default: 10_000, cities: [] }, min_advance_days: 0, out_of_policy: 'BLOCK' })]);
    // A's procurement (issue 28): a budget with the employee's card on it, an intent, a PO from a request, a receipt, a document.
    const procurement = await seedProcurement(t.db, {
      businessId: a.businessId, admin: a.users.admin, employee: a.users.employee, card: a.cards.employee, vendor: vendors[0]!, tag,
    });
    const expensePolicies = await seedExpensePolicies(t.db, { businessId: a.businessId, admin: a.users.admin, employee: a.users.employee, department: a.departments[0]!, tag });
    const approvalGroups = await seedApprovalGroups(t.db, { businessId: a.businessId, owner: a.users.owner, employee: a.users.employee, outsider: a.users.outsider, tag });
    // A's wallet (issue 30): accounts, a pending transfer, a verified bank account, a sweep policy with a failed run.
    const treasury = await seedTreasury(t.db, t.app, { businessId: a.businessId, admin: a.users.admin, tag, token: await mint(a, 'admin') });
    pool = {
      ...procurement, ...expensePolicies, ...approvalGroups, ...treasury.pool,
      trips: [trip],
      savedReports: [report], dashboards: [dashboard], syncCommits: [syncCommit], mappingRules: [mappingRule],
      recurringBills: [extras.recurring], vendorCredits: [extras.credit], billTemplates: [extras.template], provisionalBills: [provisional],
      vendors, vendorContacts: [vendorContact], bills,
      transactions: a.allTransactions, users: [a.users.employee, a.users.owner], departments: a.departments, locations: a.locations,
      glAccounts: a.glAccounts.active, cards: [a.cards.employee], entities: [entity], tracking: a.tracking, any: [a.users.employee], reimbursements: [claim, submitted, paidClaim], receipts: [receipt], approvals: [approval, requestApproval], rates,
      cardRequests: [cardRequest], instances: [instance],
    };
    ownPool = {
      ...NO_PROCUREMENT, expensePolicies: [],
      trips: [],
      savedReports: [], dashboards: [], syncCommits: [], mappingRules: [],
      recurringBills: [], vendorCredits: [], billTemplates: [], provisionalBills: [],
      vendors: [], vendorContacts: [], bills: [],
      transactions: b.allTransactions, users: [b.users.employee], departments: b.departments, locations: b.locations,
      glAccounts: b.glAccounts.active, cards: [b.cards.employee], entities: [], tracking: b.tracking, any: [b.users.employee], reimbursements: [], receipts: [], approvals: [], rates: [], cardRequests: [], instances: [],
    };
    const identities = await t.db.query<{ id: string }>('SELECT identity_id::text AS id FROM spend_users WHERE business_id = $1', [a.businessId]);
    secrets = [
      tag, a.businessId, ...Object.values(procurement).flat(), ...expensePolicies.expensePolicies, ...approvalGroups.groups, ...treasury.owned, trip, report, dashboard, syncCommit, mappingRule, ...vendors, ...bills, ...Object.values(extras), vendorContact, entity, instance, claim, submitted, approval, paidClaim, receipt, cardRequest, requestApproval, ...rates, ...Object.values(a.users), ...Object.values(a.cards), ...a.allTransactions, ...a.departments,
      ...a.locations, ...a.glAccounts.active, a.glAccounts.inactive, ...a.tracking.flatMap((c) => [c.categoryId, ...c.options]),
      ...identities.map((i) => i.id),
    ];
    tables = await ownedTables(t.db);
    for (const role of FIXTURE_ROLES) roleTokens[role] = await mint(a, role);
  });

  it('mints tokens the server accepts, and its snapshot sees a change to any table A owns', async () => {
    expect((await send({ path: '/v1/auth/identity', method: 'GET', sent: '' }, await mint(b, 'owner'))).status).toBe(200);
    expect(tables.map((x) => x.table)).toEqual(expect.arrayContaining(['departments', 'spend_users', 'transactions', 'user_invites']));
    const before = await snapshot(t.db, a.businessId, tables);
    await t.db.query('UPDATE departments SET name = name || $2 WHERE id = $1', [a.departments[2], '!']);
    expect(await snapshot(t.db, a.businessId, tables)).not.toEqual(before);
    await t.db.query(`UPDATE departments SET name = rtrim(name, '!') WHERE id = $1`, [a.departments[2]]);
    expect(await snapshot(t.db, a.businessId, tables)).toEqual(before);
  });

  it('states why each skipped call is skipped', () => {
    for (const call of SKIPPED) expect(call.path.startsWith('/v1/public/')).toBe(true);
    expect(COVERED.length).toBeGreaterThan(20);
  });

  /**
   * What A looked like after the previous call (each call must leave it so): one snapshot per call
   * instead of two. A call that changes A resets it, so only that call fails.
   */
  let baseline: Record<string, string> | null = null;
  it.each(COVERED.map((c) => [c.id, c] as const))('%s: leaks nothing of A to B, and changes nothing of A', async (_id, call) => {
    const before = baseline ?? await snapshot(t.db, a.businessId, tables);
    const variants = [['minimal', null], ['full', null], ['minimal', ownPool], ['full', ownPool]] as const;
    for (const [mode, own] of variants) {
      const p = prepare(call, pool, own, mode);
      const res = await send(p, await mint(b, 'owner'));
      const label = `${call.id} (${mode}${own ? ', own references' : ''})`;
      expect(res.status, `${label} answered ${res.status}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(leaks(res.text, p.sent), `${label} leaked A's data: ${res.text.slice(0, 300)}`).toEqual([]);
    }
    for (const role of refusedRoles(call)) {
      const p = prepare(call, pool, null, 'full');
      const res = await send(p, roleTokens[role]);
      expect(res.status, `${call.id} as A's ${role}: ${res.text.slice(0, 200)}`).toBe(403);
    }
    baseline = await snapshot(t.db, a.businessId, tables);
    expect(baseline, `${call.id} changed business A`).toEqual(before);
  });
});
