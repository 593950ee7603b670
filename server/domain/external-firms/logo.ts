import { createHash, randomUUID } from 'node:crypto';
import type { Firm } from '../../../schema/entities/external-firm.ts';
import { checkFileContent } from '../../../schema/file-content.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { assertFirmAdmin, type FirmCaller } from './firm-caller.ts';
import { iso } from './sql.ts';

/** A firm's logo (issue 31): admins replace or remove it; the bytes must be the declared PNG or JPEG. */
async function firmDoc(db: Queryable, firmId: string): Promise<Firm> {
  const [firm] = await db.query<Firm>(
    `SELECT id::text, name, status, logo_file_id IS NOT NULL AS has_logo, ${iso('created_at')} AS created_at FROM external_firms WHERE id = $1`, [firmId],
  );
  return firm!;
}

export async function putLogo(tx: Queryable, caller: FirmCaller, contentType: string, bytes: Uint8Array, now: number): Promise<Firm> {
  assertFirmAdmin(caller);
  const check = checkFileContent(contentType, bytes);
  if (!check.ok) throw new ApiError(check.code, check.message);
  const id = randomUUID();
  await tx.query(
    'INSERT INTO external_firm_logos (id, firm_id, content_type, size, sha256, bytes, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [id, caller.firmId, check.contentType, bytes.length, createHash('sha256').update(bytes).digest('hex'), Buffer.from(bytes), new Date(now)],
  );
  const old = await tx.query<{ logo_file_id: string | null }>('SELECT logo_file_id::text FROM external_firms WHERE id = $1 FOR UPDATE', [caller.firmId]);
  await tx.query('UPDATE external_firms SET logo_file_id = $2 WHERE id = $1', [caller.firmId, id]);
  if (old[0]?.logo_file_id) await tx.query('DELETE FROM external_firm_logos WHERE id = $1', [old[0].logo_file_id]);
  return firmDoc(tx, caller.firmId);
}

export async function deleteLogo(tx: Queryable, caller: FirmCaller): Promise<Firm> {
  assertFirmAdmin(caller);
  const [old] = await tx.query<{ logo_file_id: string | null }>('SELECT logo_file_id::text FROM external_firms WHERE id = $1 FOR UPDATE', [caller.firmId]);
  if (!old?.logo_file_id) throw new ApiError('REQUEST_7004', 'Your firm has no logo.');
  await tx.query('UPDATE external_firms SET logo_file_id = NULL WHERE id = $1', [caller.firmId]);
  await tx.query('DELETE FROM external_firm_logos WHERE id = $1', [old.logo_file_id]);
  return firmDoc(tx, caller.firmId);
}

export async function readLogo(db: Queryable, caller: FirmCaller): Promise<{ content_type: string; sha256: string; bytes: Uint8Array } | null> {
  const [row] = await db.query<{ content_type: string; sha256: string; bytes: Uint8Array }>(
    'SELECT l.content_type, l.sha256, l.bytes FROM external_firms f JOIN external_firm_logos l ON l.id = f.logo_file_id WHERE f.id = $1', [caller.firmId],
  );
  return row ?? null;
}
