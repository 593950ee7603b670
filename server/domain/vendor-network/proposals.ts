import type { EditProposalFields, VendorEditProposal } from '../../../schema/entities/vendor-edit-proposal.ts';
import { editProposalTransition, type EditProposalAction, type EditProposalStatus } from '../../../schema/vendor-network.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored, type MirroredWrite } from '../collections.ts';
import { findVendor } from '../vendors.ts';
import { writeDetail, type NetworkDetail } from './propagate.ts';
import { networkVendorRow, openNetwork, stampVendor } from './shared.ts';

/**
 * Edit proposals (issue 31, D9): a payer lists, accepts (copying the vendor's current verified
 * details, re-encrypted under its own vendor's AAD, with the payee policy's hold for a bank
 * account), rejects or hides them; the vendor lists and withdraws its own. A decided proposal
 * answers VENDOR_NETWORK_7001; another payer's or vendor's proposal is 404.
 */
const DOC_SQL = `SELECT p.id::text, p.vendor_id::text, v.name AS vendor_name, p.business_id::text, b.name AS business_name,
  p.network_vendor_id::text, p.fields, p.status, ll_iso(p.created_at) AS created_at, ll_iso(p.decided_at) AS decided_at
  FROM vendor_edit_proposals p JOIN vendors v ON v.id = p.vendor_id JOIN businesses b ON b.id = p.business_id`;

export async function listPayerProposals(db: Queryable, businessId: string, status: EditProposalStatus | undefined): Promise<VendorEditProposal[]> {
  return db.query<VendorEditProposal>(
    `${DOC_SQL} WHERE p.business_id = $1 AND NOT p.hidden AND ($2::text IS NULL OR p.status = $2) ORDER BY p.created_at DESC, p.id`,
    [businessId, status ?? null],
  );
}

export async function listVendorProposals(db: Queryable, networkVendorId: string): Promise<VendorEditProposal[]> {
  return db.query<VendorEditProposal>(`${DOC_SQL} WHERE p.network_vendor_id = $1 ORDER BY p.created_at DESC, p.id`, [networkVendorId]);
}

const proposalDoc = async (db: Queryable, id: string) => (await db.query<VendorEditProposal>(`${DOC_SQL} WHERE p.id = $1`, [id]))[0]!;

type Owner = { column: 'business_id' | 'network_vendor_id'; id: string };
type Locked = { id: string; vendor_id: string; business_id: string; network_vendor_id: string; status: EditProposalStatus; fields: EditProposalFields };

/** The proposal of `owner` (404 otherwise), its business row locked first (writeMirrored), then the proposal. */
async function onProposal<T>(tx: Queryable, owner: Owner, proposalId: string, run: (p: Locked, w: MirroredWrite) => Promise<T>): Promise<T> {
  const [seen] = await tx.query<{ business_id: string }>(`SELECT business_id::text FROM vendor_edit_proposals WHERE id = $1 AND ${owner.column} = $2`, [proposalId, owner.id]);
  if (!seen) throw new ApiError('REQUEST_7004', 'This change was not found.');
  return writeMirrored(tx, seen.business_id, 1, async (w) => {
    const [p] = await tx.query<Locked>(
      `SELECT id::text, vendor_id::text, business_id::text, network_vendor_id::text, status, fields FROM vendor_edit_proposals WHERE id = $1 FOR UPDATE`,
      [proposalId],
    );
    await stampVendor(tx, p!.vendor_id, w.seqs.last);
    return run(p!, w);
  });
}

function next(status: EditProposalStatus, action: EditProposalAction): EditProposalStatus {
  const t = editProposalTransition(status, action);
  if (!t.ok) throw new ApiError(t.code, t.message);
  return t.next;
}

/** The network vendor's current values for the proposal's fields (skipped when it removed them since). */
async function currentDetails(tx: Queryable, networkVendorId: string, fields: EditProposalFields): Promise<NetworkDetail[]> {
  const nv = await networkVendorRow(tx, networkVendorId);
  const out: NetworkDetail[] = [];
  if (fields.address && nv.address) out.push({ kind: 'address', address: nv.address });
  if (fields.legal_name) out.push({ kind: 'legal_name', legal_name: nv.legal_name });
  if (fields.bank && nv.bank_type && nv.bank_routing_cipher && nv.bank_account_cipher) {
    out.push({
      kind: 'bank', type: nv.bank_type,
      routing_number: await openNetwork(tx, nv.id, 'routing_number', nv.bank_routing_cipher),
      account_number: await openNetwork(tx, nv.id, 'account_number', nv.bank_account_cipher),
    });
  }
  if (fields.tin && nv.tin_type && nv.tin_cipher) out.push({ kind: 'tin', type: nv.tin_type, digits: await openNetwork(tx, nv.id, 'tin', nv.tin_cipher) });
  return out;
}

async function decide(tx: Queryable, id: string, status: EditProposalStatus, decidedBy: string | null, hide = false): Promise<void> {
  await tx.query(
    `UPDATE vendor_edit_proposals SET status = $2, decided_by = coalesce($3, decided_by), decided_at = CASE WHEN $2 = status THEN decided_at ELSE now() END,
       hidden = hidden OR $4, updated_at = now() WHERE id = $1`,
    [id, status, decidedBy, hide],
  );
}

export async function acceptProposal(tx: Queryable, user: ActingUser, proposalId: string): Promise<VendorEditProposal> {
  await onProposal(tx, { column: 'business_id', id: user.business_id }, proposalId, async (p, w) => {
    const to = next(p.status, 'accept');
    // A vendor deleted since the proposal has nothing to accept onto (404, nothing written).
    await findVendor(tx, user.business_id, p.vendor_id, true);
    const details = await currentDetails(tx, p.network_vendor_id, p.fields);
    for (const d of details) await writeDetail(tx, user, p.vendor_id, d, w);
    await tx.query(
      `UPDATE network_vendor_links SET verified_fields = array(SELECT DISTINCT unnest(verified_fields || $2::text[]) ORDER BY 1), verified_at = now()
        WHERE vendor_id = $1 AND status = 'ACTIVE'`,
      [p.vendor_id, details.map((d) => d.kind).filter((k) => k !== 'legal_name')],
    );
    await decide(tx, p.id, to, user.id);
  });
  return proposalDoc(tx, proposalId);
}

export async function rejectProposal(tx: Queryable, user: ActingUser, proposalId: string, hide: boolean): Promise<VendorEditProposal> {
  await onProposal(tx, { column: 'business_id', id: user.business_id }, proposalId, async (p) => {
    // Hiding a decided proposal is allowed (reject-and-hide); rejecting it again is not.
    if (hide && p.status !== 'PENDING') return decide(tx, p.id, p.status, null, true);
    return decide(tx, p.id, next(p.status, 'reject'), user.id, hide);
  });
  return proposalDoc(tx, proposalId);
}

export async function withdrawProposal(tx: Queryable, networkVendorId: string, proposalId: string): Promise<VendorEditProposal> {
  await onProposal(tx, { column: 'network_vendor_id', id: networkVendorId }, proposalId, async (p) => decide(tx, p.id, next(p.status, 'withdraw'), null));
  return proposalDoc(tx, proposalId);
}
