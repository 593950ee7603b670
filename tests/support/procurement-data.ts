/**
 * Issue 28 data for end-to-end tests, made through the real API (never rows written behind the
 * server's back): a budget the admin owns, and a purchase order (the employee's PRODUCT_OR_SERVICE
 * request approved through its whole chain, each step by its approver).
 */
import { approveApproval } from '../../schema/api/calls-approvals.ts';
import { createSpendAllocation, createSpendRequest } from '../../schema/api/calls-procurement.ts';
import type { TestServer } from '../../server/testing.ts';
import { apiSignIn } from './api.ts';

const PASSWORD = 'demo-password-1';
const ADMIN = 'admin@demo.test';
const EMPLOYEE = 'employee@demo.test';
/** A seeded vendor with bank details. */
const VENDOR = 'Pacific Precision Machining';

/** Approves every pending approval of `objectId` through the API, as each step's approver (the admin when a step names nobody). */
export async function approveThroughChain(server: TestServer, objectId: string): Promise<void> {
  for (let step = 0; step < 6; step++) {
    const pending = await server.db.query<{ id: string; email: string | null }>(
      `SELECT a.id::text AS id, u.email FROM approvals a LEFT JOIN spend_users u ON u.id = a.approver_id
        WHERE a.business_id = $1 AND a.object_id = $2 AND a.status = 'PENDING' ORDER BY a.created_at LIMIT 1`,
      [server.businessId, objectId],
    );
    if (pending.length === 0) return;
    const approver = await apiSignIn(server.url, pending[0]!.email ?? ADMIN, PASSWORD);
    await approver.call(approveApproval, { params: { approval_id: pending[0]!.id }, body: {} });
  }
  throw new Error(`approvals of ${objectId} still pending after six steps`);
}

export interface ProcurementData {
  budget: { id: string; name: string };
  po: { id: string; po_number: string; line: string };
}

/** A $2,000-a-month budget the admin owns, and an OPEN purchase order of 5 × `line` from the employee's approved request. */
export async function makeProcurementData(server: TestServer, names: { budget: string; purchase: string; line: string }): Promise<ProcurementData> {
  const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
  const allocation = await admin.call(createSpendAllocation, {
    body: { name: names.budget, description: 'Phone pass', limit: { amount: 200_000, currency: 'USD', interval: 'MONTHLY' } },
  });
  const [vendor] = await server.db.query<{ id: string }>('SELECT id::text AS id FROM vendors WHERE business_id = $1 AND name = $2', [server.businessId, VENDOR]);
  const employee = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
  const asked = await employee.call(createSpendRequest, {
    body: {
      type: 'PRODUCT_OR_SERVICE', amount: { amount: 10_000, currency: 'USD' }, description: names.purchase, vendor_id: vendor!.id,
      line_items: [{ description: names.line, quantity: 5, unit_price: 2_000 }],
    },
  });
  await approveThroughChain(server, asked.id);
  const [po] = await server.db.query<{ id: string; po_number: string }>(
    'SELECT id::text AS id, po_number FROM purchase_orders WHERE spend_request_id = $1', [asked.id],
  );
  if (!po) throw new Error(`no purchase order came of request ${asked.id}`);
  return { budget: { id: allocation.id, name: allocation.name }, po: { ...po, line: names.line } };
}
