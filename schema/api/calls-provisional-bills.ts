import { z } from 'zod';
import { defineCall } from './define-call.ts';
import {
  provisionalBillCreateSchema, provisionalBillPatchSchema, provisionalBillSchema,
} from '../entities/provisional-bill.ts';

/**
 * §7 provisional bills (issue 11): uploaded invoices not yet completed into bills. Bill managers
 * only (403 before any lookup); another business's row, file or vendor is 404. Deletes answer the
 * tombstone (one) or the count (all).
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/bill-pay/provisional-bills';
const params = z.object({ provisional_bill_uuid: z.uuid() });

export const listProvisionalBills = defineCall({
  id: 'bills.provisional.list', method: 'GET', path: BASE, auth: scopes, response: z.object({ data: z.array(provisionalBillSchema) }),
});
export const createProvisionalBill = defineCall({
  id: 'bills.provisional.create', method: 'POST', path: BASE, auth: scopes, body: provisionalBillCreateSchema, response: provisionalBillSchema,
});
export const updateProvisionalBill = defineCall({
  id: 'bills.provisional.update', method: 'PATCH', path: `${BASE}/:provisional_bill_uuid`, auth: scopes, params,
  body: provisionalBillPatchSchema, response: provisionalBillSchema,
});
export const deleteProvisionalBill = defineCall({
  id: 'bills.provisional.delete', method: 'DELETE', path: `${BASE}/:provisional_bill_uuid`, auth: scopes, params,
  response: provisionalBillSchema,
});
export const deleteAllProvisionalBills = defineCall({
  id: 'bills.provisional.deleteAll', method: 'DELETE', path: BASE, auth: scopes, response: z.object({ deleted: z.number().int().nonnegative() }),
});

export const PROVISIONAL_BILL_CALLS = [
  listProvisionalBills, createProvisionalBill, updateProvisionalBill, deleteProvisionalBill, deleteAllProvisionalBills,
] as const;
