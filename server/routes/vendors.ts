import {
  addVendorContact, bulkUploadVendors, createVendor, deleteVendor, deleteVendorBankAccount, deleteVendorContacts, getVendor,
  listVendors, mergePayees, revealVendorBankAccount, setVendorBankAccount, updateVendor, updateVendorContact, type BulkVendorRow,
} from '../../schema/api/calls-vendors.ts';
import { vendorRowsFromCsv } from '../domain/vendor-csv.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { bulkUploadVendors as bulkUpload, listVendors as list, mergePayees as merge } from '../domain/vendor-bulk.ts';
import {
  addContact, assertMayManageVendors, createVendor as create, deleteBankAccount, deleteContacts, deleteVendor as remove,
  findVendor, readBankAccount, setBankAccount, updateContact, updateVendor as update,
} from '../domain/vendors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { versionedGet, versionedPatch } from './versioned.ts';
import { inWriteTx } from './admin.ts';

/**
 * Vendors (issue 11): every member reads them; §6 bill-pay managers (admin, AP clerk,
 * bookkeeper) change them and reveal bank numbers, refused with 403 before any lookup.
 */
function managerOf(ctx: Parameters<typeof actorOf>[0]) {
  const actor = actorOf(ctx);
  assertMayManageVendors(actor.user);
  return actor;
}

export const vendorHandlers = {
  [listVendors.id]: async (ctx) => ok(await list(ctx.db, actorOf(ctx).user, ctx.input.query)),

  [getVendor.id]: versionedGet('vendors', 'payee_uuid', async (ctx) => ok(await findVendor(ctx.db, actorOf(ctx).businessId, ctx.input.params.payee_uuid))),

  [createVendor.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    return ok(await create(ctx.db, user, ctx.input.body, new Date(ctx.deps.now())), 201);
  },

  [updateVendor.id]: versionedPatch('vendors', 'payee_uuid', async (ctx) => {
    const { businessId } = managerOf(ctx);
    return ok(await update(ctx.db, businessId, ctx.input.params.payee_uuid, ctx.input.body));
  }),

  // DELETE is not run in a transaction by register (no Idempotency-Key): it opens one.
  [deleteVendor.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    return ok(await inWriteTx(ctx, deleteVendor, (tx) => remove(tx, businessId, ctx.input.params.payee_uuid, new Date(ctx.deps.now()))));
  },

  [addVendorContact.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    return ok(await addContact(ctx.db, businessId, ctx.input.params.payee_uuid, ctx.input.body), 201);
  },

  [updateVendorContact.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const { payee_uuid, contact_uuid } = ctx.input.params;
    return ok(await updateContact(ctx.db, businessId, payee_uuid, contact_uuid, ctx.input.body));
  },

  [deleteVendorContacts.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const ids = ctx.input.body.contact_ids;
    return ok(await inWriteTx(ctx, deleteVendorContacts, (tx) => deleteContacts(tx, businessId, ctx.input.params.payee_uuid, ids)));
  },

  [setVendorBankAccount.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    return ok(await setBankAccount(ctx.db, user, ctx.input.params.payee_uuid, ctx.input.body, new Date(ctx.deps.now())));
  },

  [revealVendorBankAccount.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const bank = await readBankAccount(ctx.db, businessId, ctx.input.params.payee_uuid);
    if (!bank) throw new ApiError('REQUEST_7004', 'This vendor has no bank account.');
    return ok(bank);
  },

  [deleteVendorBankAccount.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    return ok(await inWriteTx(ctx, deleteVendorBankAccount, (tx) => deleteBankAccount(tx, businessId, ctx.input.params.payee_uuid)));
  },

  [mergePayees.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    const { survivor_payee_id, merged_payee_ids } = ctx.input.body;
    return ok(await merge(ctx.db, user, survivor_payee_id, merged_payee_ids, new Date(ctx.deps.now())));
  },

  [bulkUploadVendors.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    const result = await bulkUpload(ctx.db, user, uploadedRows(ctx.input.body), new Date(ctx.deps.now()));
    return ok(result, result.created > 0 ? 201 : 200);
  },
} satisfies DomainHandlers;

/** The rows of a bulk upload: sent parsed, or as the CSV file's text (exactly one of the two). */
function uploadedRows(body: { rows?: BulkVendorRow[] | undefined; csv?: string | undefined }): BulkVendorRow[] {
  if (body.rows !== undefined && body.csv !== undefined) throw validationError({ csv: 'Send either rows or csv, not both' });
  if (body.csv !== undefined) {
    const parsed = vendorRowsFromCsv(body.csv);
    if (!parsed.ok) throw validationError({ csv: parsed.message });
    return parsed.rows;
  }
  if (body.rows === undefined) throw validationError({ rows: 'rows or csv is required' });
  return body.rows;
}
