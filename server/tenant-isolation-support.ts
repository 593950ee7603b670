/**
 * Support for the catalogue-wide tenant-isolation test: request inputs generated from each
 * call's zod schemas (ids taken from a victim business), and a snapshot of everything a business
 * owns, to prove a call changed nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Queryable } from './db/db.ts';
import { buildPath, type CallDef } from '../schema/api/define-call.ts';

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Ids of the victim business, by what a field name says it holds. */
export type IdPool = {
  transactions: string[]; users: string[]; departments: string[]; locations: string[]; glAccounts: string[];
  cards: string[]; entities: string[]; tracking: { categoryId: string; options: string[] }[]; any: string[];
  reimbursements: string[]; receipts: string[]; approvals: string[]; rates: string[]; cardRequests: string[];
  instances: string[];
  vendors: string[]; vendorContacts: string[]; bills: string[];
  recurringBills: string[]; vendorCredits: string[]; billTemplates: string[]; provisionalBills: string[];
  savedReports: string[]; dashboards: string[];
  syncCommits: string[]; mappingRules: string[];
  trips: string[];
  spendRequests: string[]; purchaseOrders: string[]; poLines: string[]; itemReceipts: string[];
  allocations: string[]; intents: string[]; documents: string[];
  /** Issue 29. */
  expensePolicies: string[];
  workflows: string[]; workflowRules: string[];
  /** Issue 29: approval groups (`group_id`). */
  groups: string[];
  /** Issue 29: comments (`comment_id`) on the victim's first transaction and spend request. */
  comments: string[];
  /** Issue 29: notifications (A's employee's; "mark read" names them in `ids`, see BODIES). */
  notifications: string[];
  /** Issue 30: wallet accounts (`account_id`, `target_account_id`, `wallet_account…`; `to_account_id` the second), automation policies (`policy_id`), transfers, linked bank accounts. */
  walletAccounts: string[]; automationPolicies: string[]; walletTransfers?: string[]; bankAccounts?: string[];
};

function uuidFor(key: string, pool: IdPool): string {
  const k = key.toLowerCase();
  const first = (ids: string[]) => ids[0] ?? pool.any[0] ?? randomUUID();
  if (k.includes('comment')) return first(pool.comments);
  if (k === 'policy_id') return first(pool.automationPolicies);
  if (k === 'account_id' || k === 'target_account_id' || k.includes('wallet_account')) return first(pool.walletAccounts);
  if (k === 'to_account_id') return first(pool.walletAccounts.slice(1));
  if (k.includes('transfer')) return first(pool.walletTransfers ?? []);
  if (k.includes('bank_account')) return first(pool.bankAccounts ?? []);
  // A comment's subject (its type generates as `transaction`): the victim's commented transaction.
  if (k === 'subject_id') return first(pool.transactions);
  if (k === 'rate_uuid' || k.includes('reimbursement_rate')) return first(pool.rates);
  if (k.includes('expense_polic')) return first(pool.expensePolicies);
  if (k.includes('trip')) return first(pool.trips);
  if (k.includes('workflow')) return first(pool.workflows);
  if (k === 'rule_id') return first(pool.workflowRules);
  if (k.includes('group')) return first(pool.groups);
  if (k.includes('spend_request')) return first(pool.spendRequests);
  if (k.includes('purchase_order')) return first(pool.purchaseOrders);
  if (k.includes('po_line')) return first(pool.poLines);
  if (k.includes('item_receipt')) return first(pool.itemReceipts);
  if (k.includes('allocation')) return first(pool.allocations);
  if (k.includes('intent')) return first(pool.intents);
  if (k.includes('document')) return first(pool.documents);
  if (k.includes('instance')) return first(pool.instances);
  if (k === 'report_id' || k.includes('saved_report')) return first(pool.savedReports);
  if (k.includes('dashboard')) return first(pool.dashboards);
  if (k.includes('sync_commit')) return first(pool.syncCommits);
  if (k.includes('mapping_rule')) return first(pool.mappingRules);
  if (k.includes('recurring')) return first(pool.recurringBills);
  if (k.includes('provisional')) return first(pool.provisionalBills);
  if (k.includes('invoice_file')) return first(pool.receipts);
  if (k.includes('credit')) return first(pool.vendorCredits);
  if (k.includes('bill_template')) return first(pool.billTemplates);
  if (k.includes('bill')) return first(pool.bills);
  if (k.includes('contact')) return first(pool.vendorContacts);
  if (k.includes('payee') || k.includes('vendor')) return first(pool.vendors);
  if (k.includes('approval')) return first(pool.approvals);
  if (k.includes('request')) return first(pool.cardRequests);
  if (k.includes('reimbursement')) return first(pool.reimbursements);
  if (k.includes('receipt')) return first(pool.receipts);
  if (k.includes('transaction')) return first(pool.transactions);
  if (k.includes('department')) return first(pool.departments);
  if (k.includes('location')) return first(pool.locations);
  if (k.includes('gl_account')) return first(pool.glAccounts);
  if (k.includes('card')) return first(pool.cards);
  if (k.includes('entity')) return first(pool.entities);
  if (k.includes('tracking') || k.includes('category')) return first(pool.tracking.map((t) => t.categoryId));
  if (k.includes('option')) return first(pool.tracking.flatMap((t) => t.options));
  return first(pool.users);
}

const STRING_CANDIDATES = (key: string) => [
  `Isolation probe ${randomUUID().slice(0, 6)}`, '123456', 'US', 'USD', 'BUSINESS_USER', 'x'.repeat(43), 'https://example.test/x',
  new Date(Date.UTC(2026, 0, 1)).toISOString(), '2026-01-01', `${key}-probe`, 'a-long-probe-password-1',
  '021000021', '+14155550123', '12-3456789', '123-45-6789', '0000000000000',
  // An email domain (SSO providers, calls-sso.ts).
  'isolation-probe.example.test',
];

export type Mode = 'minimal' | 'full';

/**
 * A valid value for `schema` (best effort: the generated value is checked with safeParse and
 * alternatives tried), with uuids from the pool chosen by field name. `undefined` means "omit".
 */
export function generate(schema: z.ZodType, key: string, pool: IdPool, mode: Mode): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional': case 'default': case 'prefault': case 'nullable':
      if (mode === 'minimal' && def.type !== 'nullable') return undefined;
      return generate(def.innerType as z.ZodType, key, pool, mode);
    case 'pipe': return generate(def.in as z.ZodType, key, pool, mode);
    case 'readonly': case 'catch': case 'nonoptional': return generate(def.innerType as z.ZodType, key, pool, mode);
    case 'lazy': return generate((def.getter as () => z.ZodType)(), key, pool, mode);
    case 'object': return generateObject(schema, pool, mode);
    case 'array': {
      const item = generate(def.element as z.ZodType, key.replace(/s$/, ''), pool, 'full');
      return pick(schema, [[item], [], [item, item]]);
    }
    case 'record': return pick(schema, [recordValue(def, key, pool), {}]);
    case 'tuple': return (def.items as z.ZodType[]).map((item) => generate(item, key, pool, 'full'));
    case 'union': return pick(schema, (def.options as z.ZodType[]).map((o) => generate(o, key, pool, mode)));
    case 'enum': {
      const values = Object.values(def.entries as Record<string, string>);
      return values.includes('BUSINESS_USER') ? 'BUSINESS_USER' : values[0];
    }
    case 'literal': return (def.values as unknown[])[0];
    case 'boolean': return true;
    case 'number': case 'int': case 'bigint': return pick(schema, [1, 0, 10, 50, 100, 2026]);
    case 'string': return stringValue(schema, def, key, pool);
    default: return undefined;
  }
}

function generateObject(schema: z.ZodType, pool: IdPool, mode: Mode): Record<string, unknown> {
  const shape = defOf(schema).shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(shape)) {
    // A generated paging cursor is never valid; leaving it out reaches the handler.
    if (k === 'start') continue;
    const v = generate(s, k, pool, mode);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function recordValue(def: Def, key: string, pool: IdPool): Record<string, unknown> {
  const cat = pool.tracking[0];
  const keyIsUuid = defOf(def.keyType as z.ZodType).format === 'uuid';
  if (keyIsUuid && cat && key.includes('tracking')) return { [cat.categoryId]: cat.options[0] };
  const k = keyIsUuid ? uuidFor(key, pool) : 'probe';
  return { [k]: generate(def.valueType as z.ZodType, key, pool, 'full') };
}

function stringValue(schema: z.ZodType, def: Def, key: string, pool: IdPool): string {
  if (def.format === 'uuid' || def.format === 'guid') return uuidFor(key, pool);
  if (def.format === 'email') return `probe-${randomUUID().slice(0, 8)}@isolation.test`;
  return pick(schema, STRING_CANDIDATES(key)) as string;
}

function pick(schema: z.ZodType, candidates: unknown[]): unknown {
  return candidates.find((c) => schema.safeParse(c).success) ?? candidates[0];
}

/** Query strings carry scalars; arrays go comma-separated. */
export function toQuery(q: Record<string, unknown> | undefined): string {
  if (!q) return '';
  const parts = Object.entries(q).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

// ---------------------------------------------------------------------------------------------
// What a business owns, hashed table by table.

/** Append-only logs of attempts: a refused call may record itself there, by design. */
const IGNORED_TABLES = new Set(['audit_log', 'schema_migrations', 'idempotency_keys']);

export async function ownedTables(db: Queryable): Promise<{ table: string; column: string }[]> {
  const rows = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name IN ('business_id', 'spend_user_id', 'user_id', 'identity_id')
        AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')`,
  );
  const byTable = new Map<string, string>();
  const rank = ['business_id', 'spend_user_id', 'identity_id', 'user_id'];
  for (const r of rows) {
    if (IGNORED_TABLES.has(r.table_name)) continue;
    const current = byTable.get(r.table_name);
    if (!current || rank.indexOf(r.column_name) < rank.indexOf(current)) byTable.set(r.table_name, r.column_name);
  }
  return [...byTable].map(([table, column]) => ({ table, column })).sort((a, b) => a.table.localeCompare(b.table));
}

/** table → row count and a hash of every row's text, for the business, its users and identities. */
export async function snapshot(db: Queryable, businessId: string, tables: { table: string; column: string }[]): Promise<Record<string, string>> {
  // One statement for every table (a round trip per table, twice per call of the catalogue, was
  // most of this suite's time): the business's users and identities are read once in the CTE.
  const ids: Record<string, string> = {
    business_id: 't.business_id::text = $1::text',
    spend_user_id: 't.spend_user_id::text IN (SELECT id FROM u)',
    user_id: 't.user_id::text IN (SELECT id FROM u)',
    identity_id: 't.identity_id::text IN (SELECT identity_id FROM u)',
  };
  const part = (label: string, table: string, where: string) =>
    `SELECT '${label}'::text AS label, count(*) AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${table} t WHERE ${where}`;
  const parts = [
    part('businesses', 'businesses', 't.id::text = $1::text'),
    part('identities', 'identities', 't.id::text IN (SELECT identity_id FROM u)'),
    ...tables.map(({ table, column }) => part(table, table, ids[column]!)),
  ];
  const rows = await db.query<{ label: string; n: number | string; h: string | null }>(
    `WITH u AS (SELECT id::text AS id, identity_id::text AS identity_id FROM spend_users WHERE business_id::text = $1::text)
     ${parts.join('\n     UNION ALL ')}`,
    [businessId],
  );
  return Object.fromEntries(rows.map((r) => [r.label, `${Number(r.n)}:${r.h ?? ''}`]));
}

/**
 * Business A's procurement rows for the isolation suite (issue 28): a budget with the employee's
 * card on it, a spend intent, a fulfilled product request with its purchase order and line, an
 * item receipt and its document. Each name carries the business's tag, so a leak shows.
 */
export async function seedProcurement(
  db: Queryable,
  f: { businessId: string; admin: string; employee: string; card: string; vendor: string; tag: string },
) {
    // fulfilled product request and its purchase order with a line, an item receipt and a document.
    const allocation = randomUUID();
    const spendRequest = randomUUID();
    const purchaseOrder = randomUUID();
    const poLine = randomUUID();
    const itemReceipt = randomUUID();
    const intent = randomUUID();
    const document = randomUUID();
    await db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO spend_allocations (id, business_id, name, owner_id, member_ids, limit_amount, limit_currency, limit_interval, created_by, change_seq)
       SELECT $1, $2, $3, $4, ARRAY[$5::uuid], 50000, 'USD', 'MONTHLY', $4, change_seq FROM seq`,
      [allocation, f.businessId, `Budget ${f.tag}`, f.admin, f.employee],
    );
    await db.query('UPDATE cards SET spend_allocation_id = $2 WHERE id = $1', [f.card, allocation]);
    await db.query(
      `INSERT INTO spend_intents (id, business_id, card_id, user_id, amount, currency, merchant_category, description, status, expires_at)
       VALUES ($1, $2, $3, $4, 2500, 'USD', 'Software', $5, 'ACTIVE', now() + interval '7 days')`,
      [intent, f.businessId, f.card, f.employee, `Intent ${f.tag}`],
    );
    await db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO spend_requests (id, business_id, user_id, requested_by, type, status, amount, currency, description, vendor_id, line_items,
                                   submitted_at, decided_at, fulfilled_at, change_seq)
       SELECT $1, $2, $3, $3, 'PRODUCT_OR_SERVICE', 'FULFILLED', 5000, 'USD', $4, $5, $6::jsonb, now(), now(), now(), change_seq FROM seq`,
      [spendRequest, f.businessId, f.employee, `Request ${f.tag}`, f.vendor,
        JSON.stringify([{ id: poLine, description: `Chairs ${f.tag}`, quantity: 5, unit_price: 1000 }])],
    );
    await db.query(
      `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
       INSERT INTO purchase_orders (id, business_id, po_number, spend_request_id, vendor_id, currency, status, created_by, change_seq)
       SELECT $1, $2, 'PO-000001', $3, $4, 'USD', 'PARTIALLY_RECEIVED', $5, change_seq FROM seq`,
      [purchaseOrder, f.businessId, spendRequest, f.vendor, f.employee],
    );
    await db.query('INSERT INTO purchase_order_counters (business_id, last_number) VALUES ($1, 1)', [f.businessId]);
    await db.query('UPDATE spend_requests SET purchase_order_id = $2 WHERE id = $1', [spendRequest, purchaseOrder]);
    await db.query(
      `INSERT INTO purchase_order_lines (id, purchase_order_id, position, description, quantity, unit_price, received_quantity)
       VALUES ($1, $2, 0, $3, 5, 1000, 3)`,
      [poLine, purchaseOrder, `Chairs ${f.tag}`],
    );
    await db.query(
      `INSERT INTO item_receipts (id, business_id, purchase_order_id, received_at, received_by, document_ids) VALUES ($1, $2, $3, now(), $4, ARRAY[$5::uuid])`,
      [itemReceipt, f.businessId, purchaseOrder, f.employee, document],
    );
    await db.query('INSERT INTO item_receipt_lines (item_receipt_id, po_line_id, quantity) VALUES ($1, $2, 3)', [itemReceipt, poLine]);
    await db.query(
      `INSERT INTO procurement_documents (id, business_id, owner_type, owner_id, content_type, size, sha256, bytes, uploaded_by)
       VALUES ($1, $2, 'item_receipt', $3, 'application/pdf', 9, $4, $5, $6)`,
      [document, f.businessId, itemReceipt, createHash('sha256').update(`slip ${f.tag}`).digest('hex'), Buffer.from('%PDF-1.4\n'), f.employee],
    );
  return {
    spendRequests: [spendRequest], purchaseOrders: [purchaseOrder], poLines: [poLine], itemReceipts: [itemReceipt],
    allocations: [allocation], intents: [intent], documents: [document], ...await seedWorkflow(db, f.businessId, f.employee, f.tag),
    ...await seedComments(db, f.businessId, f.employee, spendRequest, f.tag),
    ...await seedNotification(db, f.businessId, f.employee, f.tag),
  };
}

/** The procurement part of a pool with nothing in it (business B's own references). */
export const NO_PROCUREMENT = {
  spendRequests: [], purchaseOrders: [], poLines: [], itemReceipts: [], allocations: [], intents: [], documents: [], workflows: [], workflowRules: [], groups: [],
  comments: [],
  notifications: [],
  walletAccounts: [], automationPolicies: [],
};

/**
 * Issue 29: comments of the victim, each naming the tag: one on its earliest transaction (the
 * first of the pool's transactions, which `subject_id` probes name) mentioning the employee, and
 * one on the spend request.
 */
async function seedComments(db: Queryable, businessId: string, by: string, spendRequest: string, tag: string) {
  const [txn] = await db.query<{ id: string }>('SELECT id::text FROM transactions WHERE business_id = $1 ORDER BY occurred_at, id LIMIT 1', [businessId]);
  const comments = [randomUUID(), randomUUID()];
  const subjects = [['transaction', txn?.id ?? spendRequest], ['spend_request', spendRequest]] as const;
  for (const [i, [type, id]] of subjects.entries()) {
    await db.query(
      `INSERT INTO comments (id, business_id, subject_type, subject_id, author_id, body, mention_ids) VALUES ($1, $2, $3, $4, $5, $6, ARRAY[$5::uuid])`,
      [comments[i], businessId, type, id, by, `Comment ${tag}`],
    );
  }
  return { comments };
}

/** Issue 29: an unread notification of A's employee (a "mark read" of B naming it must change nothing). */
async function seedNotification(db: Queryable, businessId: string, owner: string, tag: string) {
  const id = randomUUID();
  await db.query(
    `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
     INSERT INTO notifications (id, business_id, owner_id, kind, title, path, event_key, change_seq)
     SELECT $1, $2, $3, 'workflow', $4, '/', $5, change_seq FROM seq`,
    [id, businessId, owner, `Notification ${tag}`, `probe:${id}`],
  );
  return { notifications: [id] };
}

/** Issue 29: a workflow of the victim (its rule addressable by id) and one execution in its log, for the workflow routes' probes. */
async function seedWorkflow(db: Queryable, businessId: string, by: string, tag: string) {
  const [workflow, rule] = [randomUUID(), randomUUID()];
  const rules = [{ id: rule, conditions: [], actions: [{ kind: 'comment', text: `Probe ${tag}` }] }];
  await db.query(
    `INSERT INTO workflows (id, business_id, name, trigger, rules, enabled, version, created_by) VALUES ($1, $2, $3, 'bill.created', $4::jsonb, false, 1, $5)`,
    [workflow, businessId, `Workflow ${tag}`, JSON.stringify(rules), by],
  );
  await db.query('INSERT INTO workflow_rules (id, business_id, workflow_id, position) VALUES ($1, $2, $3, 0)', [rule, businessId, workflow]);
  await db.query(
    `INSERT INTO workflow_executions (id, business_id, workflow_id, workflow_version, trigger, event_key, object_type, object_id, inputs, rules, actions, status, depth)
     VALUES ($1, $2, $3, 1, 'bill.created', $4, 'bill', $5, '{}', '[]', '[]', 'NO_MATCH', 1)`,
    [randomUUID(), businessId, workflow, `bill.created:${workflow}`, workflow],
  );
  return { workflows: [workflow], workflowRules: [rule] };
}

/**
 * Business A's expense policy for the isolation suite (issue 29): scoped to A's first department,
 * named with the tag, asking for a receipt from $1 so A's employee has missing items; and a
 * reminder row of theirs (a reminders call of B naming them must leave it alone).
 */
export async function seedExpensePolicies(
  db: Queryable, f: { businessId: string; admin: string; employee: string; department: string; tag: string },
): Promise<{ expensePolicies: string[] }> {
  const id = randomUUID();
  await db.query(
    `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
     INSERT INTO expense_policies (id, business_id, name, scope, rules, enabled, created_by, change_seq)
     SELECT $1, $2, $3, $4::jsonb, $5::jsonb, true, $6, change_seq FROM seq`,
    [id, f.businessId, `Policy ${f.tag}`, JSON.stringify({ kind: 'departments', department_ids: [f.department] }), JSON.stringify({
      receipt_required_from: { amount: 100, currency: 'USD' }, memo_required_above: null,
      coding_required: { gl_account: false, department: false, location: false }, category_caps: [], blocked_categories: [], per_diem: null, mileage: null,
    }), f.admin],
  );
  await db.query(
    `INSERT INTO missing_item_reminders (business_id, user_id, day, sent_by, item_count) VALUES ($1, $2, '2026-01-01', $3, 1)`,
    [f.businessId, f.employee, f.admin],
  );
  return { expensePolicies: [id] };
}

/** Issue 29: A's approval group (in A's bill policy's second version) and a delegation between A's people. */
export async function seedApprovalGroups(db: Queryable, f: { businessId: string; owner: string; employee: string; outsider: string; tag: string }) {
  const group = randomUUID();
  await db.query(
    `INSERT INTO approval_groups (id, business_id, name, mode, user_ids, created_by) VALUES ($1, $2, $3, 'any', ARRAY[$4::uuid], $4)`,
    [group, f.businessId, `Group ${f.tag}`, f.owner],
  );
  await db.query(
    `INSERT INTO approval_delegations (id, business_id, delegator_id, delegate_id, starts_on, ends_on)
     VALUES ($1, $2, $3, $4, (now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date + 7)`,
    [randomUUID(), f.businessId, f.employee, f.outsider],
  );
  return { groups: [group] };
}

export type Prepared = { path: string; method: string; body?: string; sent: string };

/** Bodies whose ids the field names cannot tell (`ids`): A's rows of the call's own kind. */
const BODIES: Readonly<Record<string, (pool: IdPool) => unknown>> = {
  'notifications.markRead': (pool) => ({ ids: pool.notifications.length > 0 ? pool.notifications : [randomUUID()] }),
};
/**
 * Path params always name A's rows; query and body name A's rows too, or (`own`) the caller's
 * own, so a handler that checks references first still reaches its target lookup.
 */
export function prepare(call: CallDef, victim: IdPool, own: IdPool | null, mode: Mode): Prepared {
  const gen = (s: CallDef['params'], pool: IdPool, m: Mode) => (s ? (generate(s, '', pool, m) as Record<string, unknown>) : undefined);
  const params = gen(call.params, victim, 'full') as Record<string, string> | undefined;
  const query = gen(call.query, own ?? victim, mode);
  const special = BODIES[call.id];
  const body = call.body ? JSON.stringify(special ? special(victim) : gen(call.body, own ?? victim, mode) ?? {}) : undefined;
  const path = buildPath(call.path, params) + toQuery(query);
  return { path, method: call.method, body, sent: `${path} ${body ?? ''}` };
}
