import type { NetworkVendorProfile } from '../../../schema/entities/network-vendor.ts';
import type { VendorAddress } from '../../../schema/entities/vendor.ts';
import { tinCheck, type TinType } from '../../../schema/vendor-network.ts';
import { bankAccountVerification, checkVendorAddress } from '../../../schema/vendor-rules.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { propagate, type Propagation } from './propagate.ts';
import { networkProfile, networkVendorRow, sealNetwork } from './shared.ts';

/**
 * The vendor portal's own details (issue 31): address, ACH details, TIN and USD wire details. Each
 * write locks the network vendor row first (two racing ACH updates queue there), stores ciphers
 * only (AAD network_vendor:<id>:<field>), then carries the detail to every linked payer (D9,
 * propagate.ts). Answers the masked profile and what each payer's vendor got.
 */
export type DetailAnswer = { profile: NetworkVendorProfile; payers: Propagation[] };

export async function setNetworkAddress(tx: Queryable, id: string, address: VendorAddress): Promise<DetailAnswer> {
  const check = checkVendorAddress(address);
  if (!check.ok) throw new ApiError(check.code, check.message, { [check.field]: check.message });
  await networkVendorRow(tx, id, true);
  await tx.query('UPDATE network_vendors SET address = $2::jsonb, address_verified_at = now(), updated_at = now() WHERE id = $1', [id, JSON.stringify(address)]);
  const payers = await propagate(tx, id, { kind: 'address', address });
  return { profile: await networkProfile(tx, id), payers };
}

/** The vendor's legal name: its own at once; each payer whose vendor is named otherwise gets a proposal. */
export async function setLegalName(tx: Queryable, id: string, legalName: string): Promise<DetailAnswer> {
  await networkVendorRow(tx, id, true);
  await tx.query('UPDATE network_vendors SET legal_name = $2, updated_at = now() WHERE id = $1', [id, legalName.trim()]);
  const payers = await propagate(tx, id, { kind: 'legal_name', legal_name: legalName.trim() });
  return { profile: await networkProfile(tx, id), payers };
}

export type AchBody = { holder_name: string; routing_number: string; account_number: string; type: 'CHECKING' | 'SAVINGS' };

export async function setAchDetails(tx: Queryable, id: string, b: AchBody): Promise<DetailAnswer> {
  await networkVendorRow(tx, id, true);
  await tx.query(
    `UPDATE network_vendors SET bank_type = $2, bank_holder_name = $3, bank_routing_cipher = $4, bank_account_cipher = $5,
       bank_routing_last_four = $6, bank_account_last_four = $7, bank_verified_at = CASE WHEN $8::boolean THEN now() ELSE NULL END,
       updated_at = now() WHERE id = $1`,
    [id, b.type, b.holder_name, await sealNetwork(tx, id, 'routing_number', b.routing_number), await sealNetwork(tx, id, 'account_number', b.account_number),
      b.routing_number.slice(-4), b.account_number.slice(-4), bankAccountVerification(b).ok],
  );
  const payers = await propagate(tx, id, { kind: 'bank', type: b.type, routing_number: b.routing_number, account_number: b.account_number });
  return { profile: await networkProfile(tx, id), payers };
}

/** REQUEST_7001 naming `tin` (EIN format and IRS prefix, SSN rules), nothing written. */
export async function setTin(tx: Queryable, id: string, type: TinType, tin: string): Promise<DetailAnswer> {
  const check = tinCheck(type, tin);
  if (!check.ok) throw validationError({ tin: check.message });
  await networkVendorRow(tx, id, true);
  await tx.query(
    `UPDATE network_vendors SET tin_type = $2, tin_cipher = $3, tin_last_four = $4, tin_verified_at = now(), updated_at = now() WHERE id = $1`,
    [id, type, await sealNetwork(tx, id, 'tin', check.digits), check.digits.slice(-4)],
  );
  const payers = await propagate(tx, id, { kind: 'tin', type, digits: check.digits });
  return { profile: await networkProfile(tx, id), payers };
}

export type WireBody = { bank_name: string; routing_number: string; account_number: string };

/** USD wire details: the vendor's own (payers' vendors keep their ACH details; not propagated). */
export async function setWire(tx: Queryable, id: string, b: WireBody): Promise<NetworkVendorProfile> {
  await networkVendorRow(tx, id, true);
  await tx.query(
    `UPDATE network_vendors SET wire_bank_name = $2, wire_routing_cipher = $3, wire_account_cipher = $4, wire_routing_last_four = $5,
       wire_account_last_four = $6, updated_at = now() WHERE id = $1`,
    [id, b.bank_name, await sealNetwork(tx, id, 'wire_routing_number', b.routing_number),
      await sealNetwork(tx, id, 'wire_account_number', b.account_number), b.routing_number.slice(-4), b.account_number.slice(-4)],
  );
  return networkProfile(tx, id);
}

/** Removes the vendor's wire or ACH details (404 when there are none); payers keep their last accepted copy. */
export async function deleteBank(tx: Queryable, id: string, kind: 'WIRE' | 'ACH'): Promise<NetworkVendorProfile> {
  const row = await networkVendorRow(tx, id, true);
  const has = kind === 'WIRE' ? row.wire_bank_name !== null : row.bank_type !== null;
  if (!has) throw new ApiError('REQUEST_7004', 'There are no bank details to remove.');
  await tx.query(
    kind === 'WIRE'
      ? `UPDATE network_vendors SET wire_bank_name = NULL, wire_routing_cipher = NULL, wire_account_cipher = NULL, wire_routing_last_four = NULL,
           wire_account_last_four = NULL, updated_at = now() WHERE id = $1`
      : `UPDATE network_vendors SET bank_type = NULL, bank_holder_name = NULL, bank_routing_cipher = NULL, bank_account_cipher = NULL,
           bank_routing_last_four = NULL, bank_account_last_four = NULL, bank_verified_at = NULL, updated_at = now() WHERE id = $1`,
    [id],
  );
  return networkProfile(tx, id);
}
