import { randomUUID } from 'node:crypto';
import { d9Outcome } from '../../../schema/vendor-network.ts';
import type { EditProposalFields } from '../../../schema/entities/vendor-edit-proposal.ts';
import type { VendorAddress } from '../../../schema/entities/vendor.ts';
import { bankContext, decryptBankValue, encryptBankValue, loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';
import type { ActingUser } from '../../core/actor.ts';
import { validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored, type MirroredWrite } from '../collections.ts';
import { askPayeeApproval, storeBankAccount } from '../vendors.ts';
import { activeLinks, stampVendor, type ActiveLink } from './shared.ts';

/**
 * D9 (issue 31): a network vendor's own detail reaches each linked payer's vendor. An empty field
 * is filled at once ("verified by vendor"); the same value is marked verified; a different value
 * the payer holds becomes (or joins) that payer's one PENDING edit proposal. Payers in business id
 * order, each under its business row (writeMirrored); the caller holds the network vendor row.
 */
export type NetworkDetail =
  | { kind: 'address'; address: VendorAddress }
  | { kind: 'bank'; type: 'CHECKING' | 'SAVINGS'; routing_number: string; account_number: string }
  | { kind: 'tin'; type: 'EIN' | 'SSN'; digits: string }
  /** The vendor's legal name: a payer's vendor always has a name, so a different one is always a proposal. */
  | { kind: 'legal_name'; legal_name: string };
export type Propagation = { vendor_id: string; business_name: string; outcome: 'filled' | 'proposed' | 'unchanged' };

export const vendorTinContext = (vendorId: string) => `vendor:${vendorId}:tin`;

type PayerVendor = {
  name: string; address: VendorAddress | null; bank_account_type: string | null; bank_routing_cipher: string | null; bank_account_cipher: string | null;
  tin_type: string | null; tin_cipher: string | null;
};

const sameAddress = (a: VendorAddress, b: VendorAddress) =>
  (['line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const).every((k) => (a[k] ?? null) === (b[k] ?? null));

async function compare(tx: Queryable, vendorId: string, v: PayerVendor, d: NetworkDetail): Promise<{ holds: boolean; same: boolean }> {
  if (d.kind === 'address') return { holds: v.address !== null, same: v.address !== null && sameAddress(v.address, d.address) };
  if (d.kind === 'legal_name') return { holds: true, same: v.name.trim().toLowerCase() === d.legal_name.trim().toLowerCase() };
  const key = await loadVendorBankKey(tx);
  if (d.kind === 'bank') {
    if (!v.bank_account_type || !v.bank_routing_cipher || !v.bank_account_cipher) return { holds: false, same: false };
    const same = v.bank_account_type === d.type
      && decryptBankValue(key, v.bank_routing_cipher, bankContext(vendorId, 'routing_number')) === d.routing_number
      && decryptBankValue(key, v.bank_account_cipher, bankContext(vendorId, 'account_number')) === d.account_number;
    return { holds: true, same };
  }
  if (!v.tin_type || !v.tin_cipher) return { holds: false, same: false };
  return { holds: true, same: v.tin_type === d.type && decryptBankValue(key, v.tin_cipher, vendorTinContext(vendorId)) === d.digits };
}

/** The masked fields a proposal shows for a detail. */
export function maskedFields(d: NetworkDetail): EditProposalFields {
  if (d.kind === 'address') return { address: d.address };
  if (d.kind === 'legal_name') return { legal_name: d.legal_name };
  if (d.kind === 'bank') return { bank: { type: d.type, routing_last_four: d.routing_number.slice(-4), account_last_four: d.account_number.slice(-4) } };
  return { tin: { type: d.type, last_four: d.digits.slice(-4) } };
}

/** The hidden spend user of the link, as the requester of the payee policy's approval. */
async function linkUser(tx: Queryable, spendUserId: string): Promise<ActingUser> {
  const [u] = await tx.query<ActingUser>(
    `SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text FROM spend_users WHERE id = $1`, [spendUserId],
  );
  return u!;
}

/** Writes a verified detail onto the payer's vendor (bank: a new account asks the payee policy, issue 28). */
export async function writeDetail(tx: Queryable, requester: ActingUser, vendorId: string, d: NetworkDetail, w: Pick<MirroredWrite, 'reserve'>): Promise<void> {
  if (d.kind === 'address') {
    await tx.query('UPDATE vendors SET address = $2::jsonb WHERE id = $1', [vendorId, JSON.stringify(d.address)]);
  } else if (d.kind === 'legal_name') {
    await renameVendor(tx, requester.business_id, vendorId, d.legal_name);
  } else if (d.kind === 'bank') {
    await storeBankAccount(tx, vendorId, { routing_number: d.routing_number, account_number: d.account_number, account_type: d.type });
    await askPayeeApproval(tx, requester, vendorId, 'BANK_ACCOUNT', w, new Date().toISOString());
  } else {
    const cipher = encryptBankValue(await loadVendorBankKey(tx), d.digits, vendorTinContext(vendorId));
    await tx.query('UPDATE vendors SET tin_type = $2, tin_cipher = $3, tin_last_four = $4 WHERE id = $1', [vendorId, d.type, cipher, d.digits.slice(-4)]);
  }
}

/** One live vendor of a name per business (the unique index backs it): a clash is 422 naming `legal_name`. */
async function renameVendor(tx: Queryable, businessId: string, vendorId: string, name: string): Promise<void> {
  const taken = await tx.query(
    'SELECT 1 FROM vendors WHERE business_id = $1 AND NOT deleted AND lower(btrim(name)) = lower(btrim($2)) AND id <> $3', [businessId, name, vendorId],
  );
  if (taken.length > 0) throw validationError({ legal_name: `A vendor named '${name.trim()}' already exists.` });
  await tx.query('UPDATE vendors SET name = $2 WHERE id = $1', [vendorId, name.trim()]);
}

/** Only address, bank and TIN are "verified by vendor" on the payer's doc; a name is the payer's to accept. */
async function markVerified(tx: Queryable, linkId: string, field: NetworkDetail['kind'], verified: boolean): Promise<void> {
  if (field === 'legal_name') return;
  await tx.query(
    verified
      ? `UPDATE network_vendor_links SET verified_fields = array(SELECT DISTINCT unnest(verified_fields || ARRAY[$2::text]) ORDER BY 1), verified_at = now() WHERE id = $1`
      : 'UPDATE network_vendor_links SET verified_fields = array_remove(verified_fields, $2::text) WHERE id = $1',
    [linkId, field],
  );
}

/** The payer's one PENDING proposal for this vendor gains the fields (or a new one is opened). */
async function propose(tx: Queryable, networkVendorId: string, link: ActiveLink, fields: EditProposalFields): Promise<void> {
  const updated = await tx.query(
    `UPDATE vendor_edit_proposals SET fields = fields || $2::jsonb, updated_at = now() WHERE vendor_id = $1 AND status = 'PENDING' RETURNING id`,
    [link.vendor_id, JSON.stringify(fields)],
  );
  if (updated.length > 0) return;
  await tx.query(
    `INSERT INTO vendor_edit_proposals (id, network_vendor_id, vendor_id, business_id, fields) VALUES ($5, $1, $2, $3, $4::jsonb)`,
    [networkVendorId, link.vendor_id, link.business_id, JSON.stringify(fields), randomUUID()],
  );
}

async function propagateOne(tx: Queryable, networkVendorId: string, link: ActiveLink, d: NetworkDetail): Promise<Propagation> {
  return writeMirrored(tx, link.business_id, 1, async ({ seqs, reserve }) => {
    const [v] = await tx.query<PayerVendor>(
      `SELECT name, address, bank_account_type, bank_routing_cipher, bank_account_cipher, tin_type, tin_cipher FROM vendors WHERE id = $1 FOR UPDATE`,
      [link.vendor_id],
    );
    const { holds, same } = await compare(tx, link.vendor_id, v!, d);
    const outcome = d9Outcome(holds, same);
    // Stamped first: a payee approval asked below stamps it again with a later seq.
    await stampVendor(tx, link.vendor_id, seqs.last);
    if (outcome === 'fill') await writeDetail(tx, await linkUser(tx, link.spend_user_id), link.vendor_id, d, { reserve });
    if (outcome === 'propose') await propose(tx, networkVendorId, link, maskedFields(d));
    await markVerified(tx, link.id, d.kind, outcome !== 'propose');
    return { vendor_id: link.vendor_id, business_name: link.business_name, outcome: outcome === 'fill' ? 'filled' : outcome === 'propose' ? 'proposed' : 'unchanged' };
  });
}

export async function propagate(tx: Queryable, networkVendorId: string, d: NetworkDetail): Promise<Propagation[]> {
  const out: Propagation[] = [];
  for (const link of await activeLinks(tx, networkVendorId)) out.push(await propagateOne(tx, networkVendorId, link, d));
  return out;
}
