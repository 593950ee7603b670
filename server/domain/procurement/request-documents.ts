import type { ProcurementDocument } from '../../../schema/api/calls-procurement.ts';
import type { SpendRequest } from '../../../schema/entities/spend-request.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';
import { deleteDocument, readDocument, storeDocument, type DocumentOwner } from './documents.ts';
import { findRequest, requestForWrite, storeRequest } from './spend-requests.ts';

/**
 * Issue 28: a spend request's documents (quotes, contracts) in the procurement document store.
 * Added and removed by whoever may change the request, until it is decided (`attach`: DRAFT or
 * PENDING_APPROVAL); read by whoever may read the request. The request's `document_ids` follow
 * each write, with a new change seq, so the feed carries them.
 */

const ownerOf = (r: Pick<SpendRequest, 'business_id' | 'id'>): DocumentOwner => ({ business_id: r.business_id, owner_type: 'spend_request', owner_id: r.id });

/** POST …/documents: the file stored, its id appended to the request's `document_ids`. */
export async function uploadRequestDocument(
  tx: Queryable, user: ActingUser, id: string, file: { bytes: Uint8Array; content_type: string }, now: Date,
): Promise<ProcurementDocument> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const current = await requestForWrite(tx, user, id, 'attach');
    const at = now.toISOString();
    const doc = await storeDocument(tx, { ...ownerOf(current), ...file, uploaded_by: user.id, at });
    await storeRequest(tx, { ...current, document_ids: [...current.document_ids, doc.id], change_seq: seqs.first, updated_at: at });
    return doc;
  });
}

/** GET …/documents/:document_id: a document of a request the caller may read, with its bytes; else 404. */
export async function readRequestDocument(db: Queryable, user: ActingUser, id: string, documentId: string) {
  const request = await findRequest(db, user, id);
  const doc = await readDocument(db, ownerOf(request), documentId);
  if (!doc) throw new ApiError('REQUEST_7004', 'Document not found.');
  return doc;
}

/** DELETE …/documents/:document_id: the document tombstoned and taken off the request; answers the request. */
export async function deleteRequestDocument(tx: Queryable, user: ActingUser, id: string, documentId: string, now: Date): Promise<SpendRequest> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const current = await requestForWrite(tx, user, id, 'attach');
    if (!(await deleteDocument(tx, ownerOf(current), documentId))) throw new ApiError('REQUEST_7004', 'Document not found.');
    return storeRequest(tx, {
      ...current, document_ids: current.document_ids.filter((d) => d !== documentId), change_seq: seqs.first, updated_at: now.toISOString(),
    });
  });
}
