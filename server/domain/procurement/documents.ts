import { createHash, randomUUID } from 'node:crypto';
import type { ProcurementDocument } from '../../../schema/api/calls-procurement.ts';
import type { ReceiptContentType } from '../../../schema/api/calls-receipts.ts';
import { checkFileContent } from '../../../schema/file-content.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 28: files attached to a spend request (quotes, contracts) or an item receipt (packing
 * slips), one generic store over `procurement_documents` (migration 044). The content is checked
 * as receipts' is (schema/file-content.ts: markup refused, magic numbers against the declared
 * type). Unlike receipts, a document belongs to exactly one owner row and is never shared or
 * deduplicated: the owner's `document_ids` is the owner's to keep (its write holds the owner's
 * lock and stamps its seq), and who may read or write is the owner's rule, checked by the caller
 * before it calls here. A delete is a tombstone whose bytes are dropped.
 */

export type DocumentOwnerType = 'spend_request' | 'item_receipt';

/** Whose document: the owner row it hangs on, in its business. */
export type DocumentOwner = { business_id: string; owner_type: DocumentOwnerType; owner_id: string };

export type NewDocument = DocumentOwner & {
  bytes: Uint8Array;
  /** The declared Content-Type (register has already checked it is one the upload accepts). */
  content_type: string;
  uploaded_by: string;
  /** The write's moment (defaults to the database's now). */
  at?: string;
};

type Row = { id: string; content_type: ReceiptContentType; size: number | string; sha256: string; created_at: string };
const COLUMNS = `d.id::text AS id, d.content_type, d.size, d.sha256, ll_iso(d.created_at) AS created_at`;
const toWire = (r: Row): ProcurementDocument => ({ id: r.id, content_type: r.content_type, size: Number(r.size), sha256: r.sha256, created_at: r.created_at });

const OWNER_WHERE = 'd.business_id = $1 AND d.owner_type = $2 AND d.owner_id = $3 AND NOT d.deleted';
const ownerParams = (o: DocumentOwner) => [o.business_id, o.owner_type, o.owner_id];

/** Stores an upload for its owner (a new document every time); bad content → UPLOAD_7102 / UPLOAD_7105. */
export async function storeDocument(tx: Queryable, doc: NewDocument): Promise<ProcurementDocument> {
  const content = checkFileContent(doc.content_type, doc.bytes);
  if (!content.ok) throw new ApiError(content.code, content.message);
  const sha256 = createHash('sha256').update(doc.bytes).digest('hex');
  const [row] = await tx.query<Row>(
    `INSERT INTO procurement_documents AS d (id, business_id, owner_type, owner_id, content_type, size, sha256, bytes, uploaded_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($10::timestamptz, now()))
     RETURNING ${COLUMNS}`,
    [randomUUID(), doc.business_id, doc.owner_type, doc.owner_id, content.contentType, doc.bytes.length, sha256, doc.bytes, doc.uploaded_by, doc.at ?? null],
  );
  return toWire(row!);
}

/** One live document of the owner, with its bytes, or null (another owner's or business's id included). */
export async function readDocument(db: Queryable, owner: DocumentOwner, id: string): Promise<(ProcurementDocument & { bytes: Uint8Array }) | null> {
  const [row] = await db.query<Row & { bytes: Uint8Array }>(
    `SELECT ${COLUMNS}, d.bytes FROM procurement_documents d WHERE ${OWNER_WHERE} AND d.id = $4`,
    [...ownerParams(owner), id],
  );
  return row ? { ...toWire(row), bytes: row.bytes } : null;
}

/** The owner's live documents, oldest first (without their bytes). */
export async function listDocuments(db: Queryable, owner: DocumentOwner): Promise<ProcurementDocument[]> {
  const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM procurement_documents d WHERE ${OWNER_WHERE} ORDER BY d.created_at, d.id`, ownerParams(owner));
  return rows.map(toWire);
}

/**
 * Tombstones one live document of the owner and drops its bytes (kept as an empty bytea: the
 * column is NOT NULL); false when there was none to delete.
 */
export async function deleteDocument(tx: Queryable, owner: DocumentOwner, id: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE procurement_documents d SET deleted = true, bytes = ''::bytea WHERE ${OWNER_WHERE} AND d.id = $4 RETURNING 1`,
    [...ownerParams(owner), id],
  );
  return rows.length > 0;
}

/** Tombstones every live document of the owner (the owner was deleted); answers their ids. */
export async function deleteOwnerDocuments(tx: Queryable, owner: DocumentOwner): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE procurement_documents d SET deleted = true, bytes = ''::bytea WHERE ${OWNER_WHERE} RETURNING d.id::text AS id`,
    ownerParams(owner),
  );
  return rows.map((r) => r.id);
}

/** The download name of a document: `<prefix>-<id>.<ext>` of its (sniffed) type. */
export function documentFileName(prefix: string, doc: Pick<ProcurementDocument, 'id' | 'content_type'>): string {
  const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/heic': 'heic', 'image/webp': 'webp', 'application/pdf': 'pdf' }[doc.content_type] ?? 'bin';
  return `${prefix}-${doc.id}.${ext}`;
}
