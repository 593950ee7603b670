import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Transaction } from '../../schema/entities/transaction.ts';
import type { Queryable } from '../db/db.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/**
 * Receipts at a realistic ratio (issue 9's benchmark): about 65 % of the card transactions older
 * than a week carry a receipt (the cardholder snapped it within a few days), about 30 % of the
 * newer ones (the rest still "Missing receipt"); declined and reversed charges none. Each receipt
 * is a tiny distinct PNG (a 1×1 image whose text chunk names the charge, ≈ 200 bytes, so its
 * sha256 is unique), uploaded by the cardholder and attached to its transaction
 * (`transaction_receipts`), so the transaction's wire doc carries its `receipt_ids`.
 *
 * Claims have no receipt link in the schema yet (no `receipt_ids` on reimbursements), so out-of-
 * pocket claims get none here.
 */

const DAY = 86_400_000;
const RECEIPT_SHARE_OLDER_THAN_A_WEEK = 0.65;
const RECEIPT_SHARE_LAST_WEEK = 0.3;

export interface SeedReceipt {
  id: string;
  user_id: string;
  size: number;
  sha256: string;
  bytes: Buffer;
  created_at: string;
  /** The transaction it is attached to. */
  transaction_id: string;
}

export interface GeneratedReceipts {
  receipts: SeedReceipt[];
  /** Total bytes of the files (what the receipts add to the database, before row overhead). */
  bytes: number;
}

/** Whether a transaction gets a receipt is decided by its age, state and one draw. */
function receiptOdds(t: Transaction, now: number): number {
  if (t.state === 'DECLINED' || t.state === 'REVERSED') return 0;
  return now - Date.parse(t.occurred_at) > 7 * DAY ? RECEIPT_SHARE_OLDER_THAN_A_WEEK : RECEIPT_SHARE_LAST_WEEK;
}

/**
 * Draws the receipts of `data.transactions` and stamps each attached transaction's `receipt_ids`
 * (the in-memory rows then match the wire docs). Deterministic for (demo, now, seed).
 */
export function generateReceipts(data: DemoData, now: Date, seed: number): GeneratedReceipts {
  const rng = new Rng(seed, `${data.business.id}\u0000receipts`);
  const nowMs = now.getTime();
  const receipts: SeedReceipt[] = [];
  let total = 0;
  for (const t of data.transactions) {
    if (!rng.chance(receiptOdds(t, nowMs))) continue;
    const id = rng.uuid();
    const occurred = Date.parse(t.occurred_at);
    const uploaded = Math.min(nowMs - 60_000, occurred + Math.floor(rng.next() * 3 * DAY));
    const bytes = tinyPng(`Ledgerline demo receipt ${id}\n${t.merchant_name}\n${t.amount} ${t.currency}\n${t.occurred_at}`);
    total += bytes.length;
    receipts.push({
      id, user_id: t.user_id, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), bytes,
      created_at: new Date(Math.max(occurred, uploaded)).toISOString(), transaction_id: t.id,
    });
    t.receipt_ids = [id];
  }
  return { receipts, bytes: total };
}

// --- A minimal PNG: signature, IHDR (1×1, 8-bit grey), tEXt, IDAT, IEND ----------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IHDR = chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]));
const IDAT = chunk('IDAT', deflateSync(Buffer.from([0, 0xff])));
const IEND = chunk('IEND', new Uint8Array(0));

/** A valid 1×1 PNG carrying `text` in a tEXt chunk (keyword "Comment"). */
export function tinyPng(text: string): Buffer {
  const body = Buffer.from(`Comment\u0000${text}`, 'latin1');
  return Buffer.concat([PNG_SIGNATURE, IHDR, chunk('tEXt', body), IDAT, IEND]);
}

/** Bulk-inserts the receipts, their uploads and attachments (inside the seed's transaction). */
export async function insertReceipts(tx: Queryable, businessId: string, g: GeneratedReceipts): Promise<void> {
  const rows = g.receipts as unknown as Record<string, unknown>[];
  const business = { name: 'business_id', type: 'uuid' as const, value: () => businessId };
  await bulkInsert(tx, 'receipts', [
    ...cols('id:uuid'), business, ...cols('user_id:uuid'),
    { name: 'content_type', type: 'text', value: () => 'image/png' },
    ...cols('size:integer', 'sha256:text'),
    { name: 'bytes', type: 'bytea', value: (r) => `\\x${(r.bytes as Buffer).toString('hex')}` },
    ...cols('created_at:timestamptz'),
  ], rows);
  await bulkInsert(tx, 'receipt_uploads', [
    { name: 'receipt_id', type: 'uuid', value: (r) => r.id }, business, ...cols('user_id:uuid', 'created_at:timestamptz'),
  ], rows);
  await bulkInsert(tx, 'transaction_receipts', [
    ...cols('transaction_id:uuid'), { name: 'receipt_id', type: 'uuid', value: (r) => r.id }, business,
    { name: 'attached_by', type: 'uuid', value: (r) => r.user_id }, ...cols('created_at:timestamptz'),
  ], rows);
}
