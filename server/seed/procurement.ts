import { invoiceNumberKey } from '../../schema/bill-rules.ts';
import { expiryFrom } from '../../schema/card-rules.ts';
import { formatPoNumber } from '../../schema/entities/purchase-order.ts';
import type { RequestLine } from '../../schema/entities/spend-request.ts';
import { applyItemReceipt } from '../../schema/procurement-rules.ts';
import type { Queryable } from '../db/db.ts';
import { openApproval } from '../domain/approval-rows.ts';
import { refreshBillMatches } from '../domain/procurement/bill-match-store.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';
import { DEMO_VENDORS, vendorIdentity } from './vendors.ts';

/**
 * The demo business's procurement (issue 28), so Requests, Budgets, Purchase orders, the
 * approvals inbox and the bill drawer's three-way match have something real to show:
 * - a budget ("Engineering team events") owned by the manager, the employee a member, and the
 *   employee's virtual card drawing on it;
 * - the employee's general-expense request waiting for the manager (PENDING_APPROVAL, its approval
 *   opened through the business's `spend_request` policy by the server's own `openApproval`);
 * - the employee's general-expense request FULFILLED into its virtual card;
 * - PO-000001 (the employee's product request, Brightline Electronics Supply): 6 of 10 servos
 *   received, and an approved bill for everything ordered, so its stored match (the server's
 *   `refreshBillMatches`) is MISMATCHED and Pay is refused (PROCUREMENT_7013);
 * - PO-000002 (the manager's product request, Pacific Precision Machining): every line received
 *   and its approved bill MATCHED (payable).
 * The POs and their bills belong to the accounts-payable history: a seed without bills (`--bills 0`,
 * the default of server/testing.ts, whose end-to-end tests count the Bills tabs from zero) has
 * neither, nor the two product requests; the budget and the other requests are always there.
 * Rows are written as the approving and receiving transactions leave them (fulfil.ts,
 * purchase-order-create.ts, item-receipts.ts): ids from the seed's rng, times from `now`. Bills
 * are entered by the admin and approved by the owner (the admin's manager), like the generated
 * ones but outside the AP clerk's own list.
 *
 * Seqs: the 046/047 triggers re-stamp the budget and the POs from the business counter (and the
 * match store takes seqs for the bills) while rows go in; the last step stamps every row written
 * here with `afterSeq + 1 …` in time order, with its own updated_at, so the seed keeps its
 * change_seq 1..M and its timestamps do not depend on the clock.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;

export type ProcurementCounts = { spendAllocations: number; spendRequests: number; purchaseOrders: number; cards: number; approvals: number; bills: number };
export const NO_PROCUREMENT: ProcurementCounts = { spendAllocations: 0, spendRequests: 0, purchaseOrders: 0, cards: 0, approvals: 0, bills: 0 };

type Stamp = { table: string; id: string; at: string };
type Request = {
  id: string; user_id: string; type: 'GENERAL_EXPENSE' | 'PRODUCT_OR_SERVICE'; status: 'PENDING_APPROVAL' | 'FULFILLED';
  amount: number; interval: string; description: string; vendor_id: string | null; line_items: RequestLine[]; needed_by: string | null;
  approval_id: string | null; card_id: string | null; purchase_order_id: string | null;
  submitted_at: string; decided_at: string | null; created_at: string;
};

/** Everything one seeded business's procurement needs to know about it. */
type Ctx = {
  tx: Queryable; businessId: string; rng: Rng; iso: (offsetMs: number) => string; day: (offsetDays: number) => string;
  stamps: Stamp[]; counts: ProcurementCounts; takenLastFour: Set<string>;
};

export async function insertProcurementDemo(
  tx: Queryable, data: DemoData, now: Date, seed: number, afterSeq: number, opts: { purchaseOrders: boolean },
): Promise<{ lastSeq: number; counts: ProcurementCounts }> {
  const byEmail = (prefix: string) => data.accounts.find((a) => a.email.startsWith(`${prefix}@`))?.user_id;
  const [employee, manager, admin, owner, clerk] = ['employee', 'manager', 'admin', 'owner', 'apclerk'].map(byEmail);
  const vendorId = (name: string) => {
    const spec = DEMO_VENDORS.find((v) => v.name === name);
    return spec ? vendorIdentity(data)(spec) : null;
  };
  const brightline = vendorId('Brightline Electronics Supply');
  const pacific = vendorId('Pacific Precision Machining');
  if (!employee || !manager || !admin || !owner || !clerk || !brightline || !pacific) return { lastSeq: afterSeq, counts: { ...NO_PROCUREMENT } };
  const managerOf = (id: string) => data.users.find((u) => u.id === id)?.manager_id ?? null;

  const base = now.getTime();
  const c: Ctx = {
    tx, businessId: data.business.id, rng: new Rng(seed, `${data.business.id}\u0000procurement`),
    iso: (ms) => new Date(base + ms).toISOString(), day: (d) => new Date(base + d * DAY).toISOString().slice(0, 10),
    stamps: [], counts: { ...NO_PROCUREMENT }, takenLastFour: new Set(data.cards.map((card) => card.last_four).filter((x): x is string => !!x)),
  };

  await insertBudget(c, manager, employee);
  await insertFulfilledCardRequest(c, employee, managerOf(employee) ?? admin);
  if (opts.purchaseOrders) {
    await insertPurchaseOrders(c, { employee, manager, admin, owner, clerk, brightline, pacific }, managerOf);
  }
  await insertPendingRequest(c, employee);
  return { lastSeq: await stampInOrder(c, afterSeq), counts: c.counts };
}

type Vendor = { id: string; default_gl_account_id: string | null };
type People = { employee: string; manager: string; admin: string; owner: string; clerk: string; brightline: Vendor; pacific: Vendor };

/** PO-000001 (partly received, its bill MISMATCHED) and PO-000002 (received, MATCHED), with the stored matches. */
async function insertPurchaseOrders(c: Ctx, p: People, managerOf: (id: string) => string | null): Promise<void> {
  const { employee, manager, admin, owner, clerk, brightline, pacific } = p;
  const partly = await insertPurchaseOrderStory(c, {
    number: 1, requester: employee, approver: managerOf(employee) ?? admin, vendor: brightline.id, gl: brightline.default_gl_account_id,
    description: 'Servo motors and controller boards for the gripper prototype', decidedDaysAgo: 9,
    lines: [{ description: 'Servo motor, 24 V high torque', quantity: 10, unit_price: 8_900 }, { description: 'Motor controller board', quantity: 4, unit_price: 14_500 }],
    // 6 of the 10 servos arrived, no boards yet: the bill for everything ordered does not match.
    received: [6, 0], receiver: clerk, receivedDaysAgo: 3, billDaysAgo: 2, invoice: 'BES-7781-A', enteredBy: admin, approvedBy: owner,
  });
  const full = await insertPurchaseOrderStory(c, {
    number: 2, requester: manager, approver: managerOf(manager) ?? admin, vendor: pacific.id, gl: pacific.default_gl_account_id,
    description: 'Machined aluminium brackets for the test rig', decidedDaysAgo: 16,
    lines: [{ description: 'Aluminium bracket, anodised', quantity: 20, unit_price: 4_250 }],
    received: [20], receiver: clerk, receivedDaysAgo: 8, billDaysAgo: 6, invoice: 'PPM-5530-B', enteredBy: admin, approvedBy: owner,
  });
  await c.tx.query('INSERT INTO purchase_order_counters (business_id, last_number) VALUES ($1, 2)', [c.businessId]);
  // The stored match, as the bill's and the receipts' writes leave it (each bill's own time).
  await refreshBillMatches(c.tx, c.businessId, partly.poId, new Date(partly.billAt));
  await refreshBillMatches(c.tx, c.businessId, full.poId, new Date(full.billAt));
}

/** The budget and the employee's card drawing on it (issued by the manager, who owns the budget). */
async function insertBudget(c: Ctx, manager: string, employee: string): Promise<void> {
  const id = c.rng.uuid();
  const at = c.iso(-20 * DAY + 10 * HOUR);
  await c.tx.query(
    `INSERT INTO spend_allocations (id, business_id, name, description, owner_id, member_ids, limit_amount, limit_currency, limit_interval,
       end_date, created_by, created_at, change_seq, updated_at)
     VALUES ($1, $2, 'Engineering team events', 'Team lunches, offsites and meetup tickets for the New York engineering team.', $3,
       ARRAY[$4::uuid], 300000, 'USD', 'MONTHLY', NULL, $3, $5, 0, $5)`,
    [id, c.businessId, manager, employee, at],
  );
  c.stamps.push({ table: 'spend_allocations', id, at });
  c.counts.spendAllocations += 1;
  await insertCard(c, {
    user_id: employee, display_name: 'Team events', limit: 100_000, interval: 'MONTHLY', issued_by: manager, at: c.iso(-19 * DAY + 11 * HOUR),
    spend_allocation_id: id, spend_request_id: null,
  });
}

/** A fulfilled general-expense request: its decided approval and the virtual card it became (fulfil.ts). */
async function insertFulfilledCardRequest(c: Ctx, employee: string, approver: string): Promise<void> {
  const r = request(c, {
    user_id: employee, type: 'GENERAL_EXPENSE', status: 'FULFILLED', amount: 45_000, interval: 'MONTHLY',
    description: 'Figma and Miro seats for the design sprint', submitted_at: c.iso(-12 * DAY + 9 * HOUR), decided_at: c.iso(-11 * DAY + 14 * HOUR),
  });
  r.approval_id = await insertDecidedApproval(c, r, approver);
  r.card_id = await insertCard(c, {
    user_id: employee, display_name: r.description.slice(0, 80), limit: r.amount, interval: r.interval, issued_by: approver, at: r.decided_at!,
    spend_allocation_id: null, spend_request_id: null,
  });
  await insertRequest(c, r, r.decided_at!);
  // The card names its request once the request exists (cards.spend_request_id references it).
  await c.tx.query('UPDATE cards SET spend_request_id = $2 WHERE id = $1', [r.card_id, r.id]);
}

/** The employee asks for a conference trip: PENDING_APPROVAL, its approval opened through the policy. */
async function insertPendingRequest(c: Ctx, employee: string): Promise<void> {
  const r = request(c, {
    user_id: employee, type: 'GENERAL_EXPENSE', status: 'PENDING_APPROVAL', amount: 180_000, interval: 'TOTAL',
    description: 'Ticket and hotel for ROSCon in Austin', needed_by: c.day(21), submitted_at: c.iso(-1 * DAY + 15 * HOUR), decided_at: null,
  });
  await insertRequest(c, r, r.submitted_at);
  const [person] = await c.tx.query<{ department_id: string | null }>('SELECT department_id::text FROM spend_users WHERE id = $1', [employee]);
  const opened = await openApproval(c.tx, {
    id: r.id, business_id: c.businessId, user_id: employee, updated_at: r.submitted_at, amount: r.amount, currency: 'USD',
    department_id: person?.department_id ?? null, vendor_id: null,
  }, 0, 'spend_request');
  // openApproval draws a random id; the seed's ids come from its rng (the snapshot of the docs holds them).
  const approvalId = c.rng.uuid();
  await c.tx.query('UPDATE approvals SET id = $2 WHERE id = $1', [opened.id, approvalId]);
  await c.tx.query('UPDATE spend_requests SET approval_id = $2 WHERE id = $1', [r.id, approvalId]);
  c.stamps.push({ table: 'approvals', id: approvalId, at: r.submitted_at });
  c.counts.approvals += 1;
}

type PoStory = {
  number: number; requester: string; approver: string; vendor: string; gl: string | null; description: string; decidedDaysAgo: number;
  lines: Omit<RequestLine, 'id'>[]; received: number[]; receiver: string; receivedDaysAgo: number; billDaysAgo: number;
  invoice: string; enteredBy: string; approvedBy: string;
};

/**
 * A product request approved into its PO (purchase-order-create.ts: its lines keep the request's
 * line ids), one item receipt (`received` per line), and an approved bill billing every line in full.
 */
async function insertPurchaseOrderStory(c: Ctx, s: PoStory): Promise<{ poId: string; billAt: string }> {
  const lines = s.lines.map((l) => ({ id: c.rng.uuid(), ...l }));
  const amount = lines.reduce((sum, l) => sum + l.quantity * l.unit_price, 0);
  const decided = -s.decidedDaysAgo * DAY + 15 * HOUR;
  const r = request(c, {
    user_id: s.requester, type: 'PRODUCT_OR_SERVICE', status: 'FULFILLED', amount, interval: 'TOTAL', description: s.description,
    vendor_id: s.vendor, line_items: lines, submitted_at: c.iso(decided - 26 * HOUR), decided_at: c.iso(decided),
  });
  r.approval_id = await insertDecidedApproval(c, r, s.approver);
  r.purchase_order_id = c.rng.uuid();
  await insertRequest(c, r, r.decided_at!);
  const poId = r.purchase_order_id;
  await c.tx.query(
    `INSERT INTO purchase_orders (id, business_id, po_number, spend_request_id, vendor_id, currency, status, created_by, created_at, change_seq, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'USD', 'OPEN', $6, $7, 0, $7)`,
    [poId, c.businessId, formatPoNumber(s.number), r.id, s.vendor, s.requester, r.decided_at],
  );
  await c.tx.query(
    `INSERT INTO purchase_order_lines (id, purchase_order_id, position, description, quantity, unit_price)
     SELECT (x.e ->> 'id')::uuid, $1, x.o - 1, x.e ->> 'description', (x.e ->> 'quantity')::bigint, (x.e ->> 'unit_price')::bigint
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(e, o)`,
    [poId, JSON.stringify(lines)],
  );
  c.counts.purchaseOrders += 1;
  const receivedAt = c.iso(-s.receivedDaysAgo * DAY + 11 * HOUR);
  await insertReceipt(c, poId, lines, s.received, s.receiver, receivedAt);
  const billAt = c.iso(-s.billDaysAgo * DAY + 10 * HOUR);
  await insertBill(c, { ...s, poId, lines, amount, at: billAt });
  // The PO's doc lists the bill: its last change is the bill's arrival.
  c.stamps.push({ table: 'purchase_orders', id: poId, at: billAt });
  return { poId, billAt };
}

/** One receipt of `received[i]` units of line i (none when all are 0), the lines and the PO's status as item-receipts.ts leaves them. */
async function insertReceipt(c: Ctx, poId: string, lines: RequestLine[], received: number[], receiver: string, at: string): Promise<void> {
  const got = lines.map((l, i) => ({ po_line_id: l.id, quantity: received[i] ?? 0 })).filter((l) => l.quantity > 0);
  if (got.length === 0) return;
  const id = c.rng.uuid();
  await c.tx.query(
    'INSERT INTO item_receipts (id, business_id, purchase_order_id, received_at, received_by, created_at) VALUES ($1, $2, $3, $4, $5, $4)',
    [id, c.businessId, poId, at, receiver],
  );
  await c.tx.query(
    `INSERT INTO item_receipt_lines (item_receipt_id, po_line_id, quantity)
     SELECT $1, x.po_line_id, x.quantity FROM jsonb_to_recordset($2::jsonb) AS x(po_line_id uuid, quantity bigint)`,
    [id, JSON.stringify(got)],
  );
  await c.tx.query(
    `UPDATE purchase_order_lines l SET received_quantity = l.received_quantity + x.quantity
       FROM jsonb_to_recordset($2::jsonb) AS x(po_line_id uuid, quantity bigint) WHERE l.purchase_order_id = $1 AND l.id = x.po_line_id`,
    [poId, JSON.stringify(got)],
  );
  const next = applyItemReceipt({ status: 'OPEN', lines: lines.map((l) => ({ ...l, received_quantity: 0, billed_quantity: 0 })) }, got);
  await c.tx.query('UPDATE purchase_orders SET status = $2 WHERE id = $1', [poId, next.status]);
}

/** The vendor's invoice for every line in full, naming the PO and its lines; approved, not paid. */
async function insertBill(c: Ctx, b: Omit<PoStory, 'lines'> & { poId: string; lines: RequestLine[]; amount: number; at: string }): Promise<void> {
  const id = c.rng.uuid();
  const approvedAt = c.iso(-b.billDaysAgo * DAY + 28 * HOUR);
  await c.tx.query(
    `INSERT INTO bills (id, business_id, vendor_id, invoice_number, invoice_key, invoice_date, due_date, currency, amount, status, memo,
       created_by, submitted_at, approved_by, approved_at, purchase_order_id, change_seq, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'USD', $8, 'APPROVED', $9, $10, $11, $12, $13, $14, 0, $11, $13)`,
    [id, c.businessId, b.vendor, b.invoice, invoiceNumberKey(b.invoice), c.day(-b.billDaysAgo - 1), c.day(-b.billDaysAgo + 29), b.amount,
      b.description, b.enteredBy, b.at, b.approvedBy, approvedAt, b.poId],
  );
  for (const [i, l] of b.lines.entries()) {
    await c.tx.query(
      `INSERT INTO bill_line_items (id, bill_id, position, description, amount, gl_account_id, po_line_id, quantity, unit_price)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [c.rng.uuid(), id, i, l.description, l.quantity * l.unit_price, b.gl, l.id, l.quantity, l.unit_price],
    );
  }
  c.stamps.push({ table: 'bills', id, at: approvedAt });
  c.counts.bills += 1;
}

function request(c: Ctx, r: Partial<Request> & Pick<Request, 'user_id' | 'type' | 'status' | 'amount' | 'interval' | 'description' | 'submitted_at' | 'decided_at'>): Request {
  return {
    id: c.rng.uuid(), vendor_id: null, line_items: [], needed_by: null, approval_id: null, card_id: null, purchase_order_id: null,
    created_at: r.submitted_at, ...r,
  };
}

async function insertRequest(c: Ctx, r: Request, at: string): Promise<void> {
  const fulfilled = r.status === 'FULFILLED' ? r.decided_at : null;
  await c.tx.query(
    `INSERT INTO spend_requests (id, business_id, user_id, requested_by, type, status, amount, currency, limit_interval, description, vendor_id,
       line_items, needed_by, approval_id, card_id, purchase_order_id, submitted_at, decided_at, fulfilled_at, created_at, updated_at, change_seq)
     VALUES ($1, $2, $3, $3, $4, $5, $6, 'USD', $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17, $18, $19, 0)`,
    [r.id, c.businessId, r.user_id, r.type, r.status, r.amount, r.interval, r.description, r.vendor_id, JSON.stringify(r.line_items), r.needed_by,
      r.approval_id, r.card_id, r.purchase_order_id, r.submitted_at, r.decided_at, fulfilled, r.created_at, at],
  );
  c.stamps.push({ table: 'spend_requests', id: r.id, at });
  c.counts.spendRequests += 1;
}

/** The request's one-step review, decided APPROVED by `approver` when the request was decided (as claims.ts records decided reviews). */
async function insertDecidedApproval(c: Ctx, r: Request, approver: string): Promise<string> {
  const id = c.rng.uuid();
  await c.tx.query(
    `INSERT INTO approvals (id, business_id, object_type, object_id, user_id, approver_id, status, decided_by, decided_at, created_at, updated_at, change_seq)
     VALUES ($1, $2, 'spend_request', $3, $4, $5, 'APPROVED', $5, $6, $7, $6, 0)`,
    [id, c.businessId, r.id, r.user_id, approver, r.decided_at, r.submitted_at],
  );
  c.stamps.push({ table: 'approvals', id, at: r.decided_at! });
  c.counts.approvals += 1;
  return id;
}

type CardSpec = {
  user_id: string; display_name: string; limit: number; interval: string; issued_by: string; at: string;
  spend_allocation_id: string | null; spend_request_id: string | null;
};

/** A virtual card as insertIssuedCard leaves it (ACTIVE, a free last four, the holder's coding), with its budget or request. */
async function insertCard(c: Ctx, s: CardSpec): Promise<string> {
  const id = c.rng.uuid();
  let lastFour = '';
  do lastFour = String(c.rng.int(0, 9_999)).padStart(4, '0'); while (c.takenLastFour.has(lastFour));
  c.takenLastFour.add(lastFour);
  await c.tx.query(
    `INSERT INTO cards (id, business_id, user_id, display_name, last_four, is_physical, status, limit_amount, limit_currency, limit_interval,
       per_transaction_limit, department_id, location_id, expires, is_primary, is_favorite, created_at, spend_allocation_id, spend_request_id,
       issued_by, change_seq, updated_at)
     SELECT $1, $2, u.id, $3, $4, false, 'ACTIVE', $5, 'USD', $6, NULL, u.department_id, u.location_id, $7, false, false, $8, $9, $10, $11, 0, $8
       FROM spend_users u WHERE u.id = $12`,
    [id, c.businessId, s.display_name, lastFour, s.limit, s.interval, expiryFrom(new Date(s.at)), s.at, s.spend_allocation_id, s.spend_request_id,
      s.issued_by, s.user_id],
  );
  c.stamps.push({ table: 'cards', id, at: s.at });
  c.counts.cards += 1;
  return id;
}

/**
 * Every row written here gets its seq after `afterSeq`, oldest change first, and its updated_at
 * (the 046/047 triggers stamped the budget and POs with the clock). Answers the last seq.
 */
async function stampInOrder(c: Ctx, afterSeq: number): Promise<number> {
  const ordered = c.stamps.map((s, i) => ({ ...s, i })).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.i - b.i));
  let seq = afterSeq;
  for (const s of ordered) {
    await c.tx.query(`UPDATE ${s.table} SET change_seq = $3, updated_at = $4 WHERE business_id = $1 AND id = $2`, [c.businessId, s.id, ++seq, s.at]);
  }
  return seq;
}
