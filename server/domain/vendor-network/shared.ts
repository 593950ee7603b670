import type { NetworkVendorProfile } from '../../../schema/entities/network-vendor.ts';
import type { VendorAddress } from '../../../schema/entities/vendor.ts';
import { decryptBankValue, encryptBankValue, loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * What the vendor network's domain code shares (issue 31): the network vendor row, its masked
 * profile, and the ciphers' context. A network vendor's numbers are encrypted with the vendor bank
 * key under AAD `network_vendor:<id>:<field>`, so a cipher copied to another row or field fails to open.
 */
export type NetworkField = 'tin' | 'routing_number' | 'account_number' | 'wire_routing_number' | 'wire_account_number';
export const networkContext = (id: string, field: NetworkField) => `network_vendor:${id}:${field}`;

export async function sealNetwork(db: Queryable, id: string, field: NetworkField, plain: string): Promise<string> {
  return encryptBankValue(await loadVendorBankKey(db), plain, networkContext(id, field));
}
export async function openNetwork(db: Queryable, id: string, field: NetworkField, cipher: string): Promise<string> {
  return decryptBankValue(await loadVendorBankKey(db), cipher, networkContext(id, field));
}

export type NetworkVendorRow = {
  id: string; legal_name: string; email: string; address: VendorAddress | null; address_verified_at: string | null;
  tin_type: 'EIN' | 'SSN' | null; tin_cipher: string | null; tin_last_four: string | null; tin_verified_at: string | null;
  bank_type: 'CHECKING' | 'SAVINGS' | null; bank_holder_name: string | null; bank_routing_cipher: string | null; bank_account_cipher: string | null;
  bank_routing_last_four: string | null; bank_account_last_four: string | null; bank_verified_at: string | null;
  wire_bank_name: string | null; wire_routing_last_four: string | null; wire_account_last_four: string | null;
};

const ROW_SQL = `SELECT id::text, legal_name, email, address, ll_iso(address_verified_at) AS address_verified_at,
  tin_type, tin_cipher, tin_last_four, ll_iso(tin_verified_at) AS tin_verified_at,
  bank_type, bank_holder_name, bank_routing_cipher, bank_account_cipher, bank_routing_last_four, bank_account_last_four,
  ll_iso(bank_verified_at) AS bank_verified_at, wire_bank_name, wire_routing_last_four, wire_account_last_four
  FROM network_vendors WHERE id = $1`;

/** The network vendor row (locked for a write). The token named it and authentication saw it held: missing is a 404. */
export async function networkVendorRow(db: Queryable, id: string, lock = false): Promise<NetworkVendorRow> {
  const [row] = await db.query<NetworkVendorRow>(`${ROW_SQL}${lock ? ' FOR UPDATE' : ''}`, [id]);
  if (!row) throw new ApiError('REQUEST_7004', 'This vendor was not found.');
  return row;
}

/** The masked profile: last fours only, never a cipher. */
export async function networkProfile(db: Queryable, id: string): Promise<NetworkVendorProfile> {
  const r = await networkVendorRow(db, id);
  const documents = await db.query<NetworkVendorProfile['documents'][number]>(
    `SELECT id::text, kind, content_type, size, sha256, ll_iso(uploaded_at) AS uploaded_at FROM network_vendor_documents
      WHERE network_vendor_id = $1 AND deleted_at IS NULL ORDER BY uploaded_at DESC, id`,
    [id],
  );
  return {
    id: r.id, legal_name: r.legal_name, email: r.email, address: r.address, address_verified_at: r.address_verified_at,
    tin: r.tin_type && r.tin_last_four ? { type: r.tin_type, last_four: r.tin_last_four, verified_at: r.tin_verified_at } : null,
    bank: r.bank_type && r.bank_routing_last_four && r.bank_account_last_four
      ? { type: r.bank_type, holder_name: r.bank_holder_name, routing_last_four: r.bank_routing_last_four, account_last_four: r.bank_account_last_four, verified_at: r.bank_verified_at }
      : null,
    wire: r.wire_bank_name && r.wire_routing_last_four && r.wire_account_last_four
      ? { bank_name: r.wire_bank_name, routing_last_four: r.wire_routing_last_four, account_last_four: r.wire_account_last_four }
      : null,
    documents,
  };
}

/** Stamps a payer's vendor with a new seq (its doc's `network` snapshot changed). */
export async function stampVendor(tx: Queryable, vendorId: string, seq: number): Promise<void> {
  await tx.query('UPDATE vendors SET change_seq = $2, updated_at = now() WHERE id = $1', [vendorId, seq]);
}

/** A link of this network vendor (ACTIVE), with what D9 needs: the payer's vendor and hidden user. */
export type ActiveLink = { id: string; vendor_id: string; business_id: string; business_name: string; spend_user_id: string };
export async function activeLinks(db: Queryable, networkVendorId: string): Promise<ActiveLink[]> {
  return db.query<ActiveLink>(
    `SELECT l.id::text, l.vendor_id::text, l.business_id::text, b.name AS business_name, l.spend_user_id::text
       FROM network_vendor_links l JOIN businesses b ON b.id = l.business_id JOIN vendors v ON v.id = l.vendor_id
      WHERE l.network_vendor_id = $1 AND l.status = 'ACTIVE' AND NOT v.deleted ORDER BY l.business_id, l.vendor_id`,
    [networkVendorId],
  );
}
