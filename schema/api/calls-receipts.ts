import { z } from 'zod';
import { defineCall, uploadBodySchema } from './define-call.ts';

/**
 * Receipts (issue 9 §2, server side). A receipt is a file (photo or PDF) stored once per uploader
 * by content: the same person uploading the same bytes again gets the same receipt; someone else
 * gets a receipt of their own (issue 24: nobody learns a colleague holds the file). The content is
 * judged by schema/file-content.ts (web markup: 422 UPLOAD_7105). Reads follow the `owner`
 * rule on its uploaders (each uploader, their managers up the chain, business-wide roles).
 * A receipt is attached to transactions through `transactions/:id/receipts`; the transaction's
 * wire doc carries their ids (`receipt_ids`).
 */
const scopes = { scopes: ['default'] } as const;
/** §6: the missing-items wizard's tokens may upload a receipt and attach it (to their own transaction only). */
const wizard = { scopes: ['default', 'missing-items', 'missing-items-restricted'] } as const;

/** What a receipt file may be; the bytes must carry that type's signature (magic numbers). */
export const RECEIPT_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/heic', 'image/webp', 'application/pdf'] as const;
export type ReceiptContentType = (typeof RECEIPT_CONTENT_TYPES)[number];
export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;

export const receiptSchema = z.object({
  id: z.uuid(),
  content_type: z.enum(RECEIPT_CONTENT_TYPES),
  /** Bytes. */
  size: z.number().int().positive(),
  /** Lower-case hex SHA-256 of the bytes (the file is content-addressed within its uploader's receipts). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

const receiptParams = z.object({ receipt_uuid: z.uuid() });
const transactionParams = z.object({ transaction_canonical_uuid: z.uuid() });
/** The transaction's receipts that the caller may see, oldest attachment first. */
const transactionReceiptsSchema = z.object({
  transaction_id: z.uuid(),
  receipt_ids: z.array(z.uuid()),
  /** The transaction's change seq after the call (the feed carries `receipt_ids` from it on). */
  change_seq: z.number().int().optional(),
});

/** The body is the file itself (`Content-Type` one of RECEIPT_CONTENT_TYPES, ≤ 10 MB). 201. */
export const uploadReceipt = defineCall({
  id: 'receipts.upload',
  method: 'POST',
  path: '/v1/auth/receipts',
  auth: wizard,
  body: uploadBodySchema,
  upload: { contentTypes: RECEIPT_CONTENT_TYPES, maxBytes: RECEIPT_MAX_BYTES },
  response: receiptSchema,
});

/** The file bytes with their content type: a sandboxed attachment, nosniff, immutable (the id names fixed bytes). */
export const getReceiptFile = defineCall({
  id: 'receipts.file',
  method: 'GET',
  path: '/v1/auth/receipts/:receipt_uuid',
  auth: scopes,
  params: receiptParams,
  response: z.string(),
});

export const getReceiptMetadata = defineCall({
  id: 'receipts.metadata',
  method: 'GET',
  path: '/v1/auth/receipts/:receipt_uuid/metadata',
  auth: scopes,
  params: receiptParams,
  response: receiptSchema,
});

/** Uploader or admin; detaches it from every transaction. */
export const deleteReceipt = defineCall({
  id: 'receipts.delete',
  method: 'DELETE',
  path: '/v1/auth/receipts/:receipt_uuid',
  auth: scopes,
  params: receiptParams,
  response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

/**
 * Issue 25: a receipt a form stored and then gave up (a cancelled claim form). Deleted like
 * `receipts.delete` only while nothing uses it (no transaction, no claim and no bill's invoice,
 * deleted ones included: the server stores bytes once per uploader, so the same photo may already be on a saved
 * claim); otherwise kept, `discarded: false`. A POST (Idempotency-Key), so the outbox may send it again.
 */
export const discardReceipt = defineCall({
  id: 'receipts.discard',
  method: 'POST',
  path: '/v1/auth/receipts/:receipt_uuid/discard',
  auth: scopes,
  params: receiptParams,
  body: z.object({}).optional(),
  response: z.object({ id: z.uuid(), discarded: z.boolean() }),
});

/** Attaching a receipt already attached is a no-op that answers the same. */
export const attachReceipt = defineCall({
  id: 'transactions.attachReceipt',
  method: 'POST',
  path: '/v1/auth/transactions/:transaction_canonical_uuid/receipts',
  auth: wizard,
  params: transactionParams,
  body: z.object({ receipt_id: z.uuid() }),
  response: transactionReceiptsSchema,
});

export const detachReceipt = defineCall({
  id: 'transactions.detachReceipt',
  method: 'DELETE',
  path: '/v1/auth/transactions/:transaction_canonical_uuid/receipts/:receipt_uuid',
  auth: scopes,
  params: transactionParams.extend(receiptParams.shape),
  response: transactionReceiptsSchema,
});

export const RECEIPT_CALLS = [uploadReceipt, getReceiptFile, getReceiptMetadata, deleteReceipt, discardReceipt, attachReceipt, detachReceipt] as const;
