import { randomUUID } from 'node:crypto';
import type { BillTemplate, BillTemplateCreate } from '../../schema/api/calls-bill-extras.ts';
import type { ActingUser } from '../core/actor.ts';
import { validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { assertLineCoding } from './bills.ts';
import { newestFirstPage, type Page, type PageRequest } from './newest-first-page.ts';
import { findVendor } from './vendors.ts';
import { findLiveDoc } from './live-doc.ts';

/**
 * Bill templates (issue 11 §7): a saved vendor, currency, lines and memo the new-bill form starts
 * from. Nothing is billed from one by itself (recurring templates do that); the bill made from it
 * goes through POST /bill-pay and its rules. Server-only rows; a delete is a tombstone.
 */
const TEMPLATE_DOC = `jsonb_build_object(
  'id', r.id, 'business_id', r.business_id, 'name', r.name, 'vendor_id', r.vendor_id, 'currency', r.currency,
  'line_items', r.line_items, 'memo', r.memo, 'created_by', r.created_by, 'created_at', ll_iso(r.created_at),
  'updated_at', ll_iso(r.updated_at), 'deleted', r.deleted)`;

async function findTemplate(db: Queryable, businessId: string, id: string, lock = false): Promise<BillTemplate> {
  return findLiveDoc<BillTemplate>(db, { table: 'bill_templates', doc: TEMPLATE_DOC, notFound: 'This bill template was not found.' }, businessId, id, lock);
}

export async function createBillTemplate(tx: Queryable, user: ActingUser, body: BillTemplateCreate, now: Date): Promise<BillTemplate> {
  // Only a credit line is negative on a bill, and a template carries no credit.
  const negative = Object.fromEntries(body.line_items.flatMap((l, i) =>
    l.amount < 0 ? [[`line_items.${i}.amount`, `Line ${i + 1}: the amount cannot be negative.`]] : []));
  if (Object.keys(negative).length > 0) throw validationError(negative);
  await findVendor(tx, user.business_id, body.vendor_id);
  await assertLineCoding(tx, user.business_id, body.line_items);
  const id = randomUUID();
  await tx.query(
    `INSERT INTO bill_templates (id, business_id, name, vendor_id, currency, line_items, memo, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $9)`,
    [id, user.business_id, body.name, body.vendor_id, body.currency, JSON.stringify(body.line_items), body.memo ?? null, user.id, now.toISOString()],
  );
  return findTemplate(tx, user.business_id, id);
}

export async function deleteBillTemplate(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<BillTemplate> {
  const t = await findTemplate(tx, user.business_id, id, true);
  await tx.query('UPDATE bill_templates SET deleted = true, updated_at = $3 WHERE business_id = $1 AND id = $2', [user.business_id, id, now.toISOString()]);
  return { ...t, deleted: true, updated_at: now.toISOString() };
}

export async function listBillTemplates(db: Queryable, businessId: string, req: PageRequest): Promise<Page<BillTemplate>> {
  return newestFirstPage<BillTemplate>(db, { table: 'bill_templates', doc: TEMPLATE_DOC, where: 'r.business_id = $1 AND NOT r.deleted', params: [businessId] }, req);
}
