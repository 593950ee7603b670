import { createHash, randomUUID } from 'node:crypto';
import type { NetworkDocument } from '../../../schema/entities/network-vendor.ts';
import { checkFileContent } from '../../../schema/file-content.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { findVendor } from '../vendors.ts';

/**
 * A network vendor's documents (W-9, W-8…; issue 31): pdf/png/jpeg up to 10 MB, judged by
 * `checkFileContent` like receipts (markup or a wrong signature refused, nothing stored). The bytes
 * live in `network_vendor_documents` (a receipt row needs a business and a spend user). Payers
 * linked to the vendor read them; a payer may stop seeing one (hidden for that payer only).
 */
const DOC_SQL = `SELECT id::text, kind, content_type, size, sha256, ll_iso(uploaded_at) AS uploaded_at FROM network_vendor_documents`;

export async function uploadDocument(db: Queryable, networkVendorId: string, kind: NetworkDocument['kind'], declared: string, bytes: Uint8Array): Promise<NetworkDocument> {
  const content = checkFileContent(declared, bytes);
  if (!content.ok) throw new ApiError(content.code, content.message);
  const id = randomUUID();
  await db.query(
    `INSERT INTO network_vendor_documents (id, network_vendor_id, kind, content_type, size, sha256, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, networkVendorId, kind, declared, bytes.length, createHash('sha256').update(bytes).digest('hex'), bytes],
  );
  return (await db.query<NetworkDocument>(`${DOC_SQL} WHERE id = $1`, [id]))[0]!;
}

export async function listDocuments(db: Queryable, networkVendorId: string): Promise<NetworkDocument[]> {
  return db.query<NetworkDocument>(`${DOC_SQL} WHERE network_vendor_id = $1 AND deleted_at IS NULL ORDER BY uploaded_at DESC, id`, [networkVendorId]);
}

/** The vendor deletes its own document (bytes dropped); another vendor's is 404. */
export async function deleteDocument(db: Queryable, networkVendorId: string, documentId: string): Promise<void> {
  const rows = await db.query(
    `UPDATE network_vendor_documents SET deleted_at = now(), bytes = NULL WHERE id = $1 AND network_vendor_id = $2 AND deleted_at IS NULL RETURNING id`,
    [documentId, networkVendorId],
  );
  if (rows.length === 0) throw new ApiError('REQUEST_7004', 'This document was not found.');
}

/** The payer stops seeing a document of its vendor's network vendor; a document of any other vendor is 404. */
export async function hideDocumentForPayer(tx: Queryable, businessId: string, vendorId: string, documentId: string): Promise<void> {
  await findVendor(tx, businessId, vendorId);
  const [doc] = await tx.query(
    `SELECT 1 FROM network_vendor_documents d JOIN network_vendor_links l ON l.network_vendor_id = d.network_vendor_id
      WHERE d.id = $1 AND l.vendor_id = $2 AND l.business_id = $3 AND l.status = 'ACTIVE' AND d.deleted_at IS NULL`,
    [documentId, vendorId, businessId],
  );
  if (!doc) throw new ApiError('REQUEST_7004', 'This document was not found.');
  await tx.query('INSERT INTO network_vendor_document_hidden (document_id, business_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [documentId, businessId]);
}

/** The documents a payer sees of its vendor's network vendor (ACTIVE link; not the ones it hid). */
export async function listPayerDocuments(db: Queryable, businessId: string, vendorId: string): Promise<NetworkDocument[]> {
  await findVendor(db, businessId, vendorId);
  return db.query<NetworkDocument>(
    `SELECT d.id::text, d.kind, d.content_type, d.size, d.sha256, ll_iso(d.uploaded_at) AS uploaded_at
       FROM network_vendor_links l JOIN network_vendor_documents d ON d.network_vendor_id = l.network_vendor_id AND d.deleted_at IS NULL
      WHERE l.vendor_id = $1 AND l.business_id = $2 AND l.status = 'ACTIVE'
        AND NOT EXISTS (SELECT 1 FROM network_vendor_document_hidden h WHERE h.document_id = d.id AND h.business_id = $2)
      ORDER BY d.uploaded_at DESC, d.id`,
    [vendorId, businessId],
  );
}

export type DocumentFile = { id: string; content_type: string; size: number; sha256: string; bytes: Uint8Array };

/** A live document's bytes: the vendor's own (`networkVendorId`) or one its payer sees (`payer`); else 404. */
export async function readDocumentFile(
  db: Queryable, documentId: string, owner: { networkVendorId: string } | { businessId: string; vendorId: string },
): Promise<DocumentFile> {
  const rows = 'networkVendorId' in owner
    ? await db.query<DocumentFile>(
      `SELECT id::text, content_type, size, sha256, bytes FROM network_vendor_documents WHERE id = $1 AND network_vendor_id = $2 AND deleted_at IS NULL`,
      [documentId, owner.networkVendorId],
    )
    : (await listPayerDocuments(db, owner.businessId, owner.vendorId)).some((d) => d.id === documentId)
      ? await db.query<DocumentFile>('SELECT id::text, content_type, size, sha256, bytes FROM network_vendor_documents WHERE id = $1', [documentId])
      : [];
  if (!rows[0]) throw new ApiError('REQUEST_7004', 'This document was not found.');
  return rows[0];
}
