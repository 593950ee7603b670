import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import type { DemoData } from './types.ts';

/**
 * The demo business's accounting (issue 12): the generic CSV provider connected by the admin, and
 * two mapping rules (ride-hailing → ground transportation), so Accounting shows a working setup
 * and "apply rules" has something to code. Ids are derived from the business id (deterministic).
 */
const derivedId = (businessId: string, label: string) => {
  const h = createHash('sha256').update(`${businessId}\u0000${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const DEMO_MAPPING_RULES = [
  { merchant: 'Uber', gl_code: '6022' },
  { merchant: 'Lyft', gl_code: '6022' },
] as const;

/** Inserts the demo's accounting setup; the rules (mirrored) take seqs after `afterSeq`: answers the last one. */
export async function insertAccountingDemo(tx: Queryable, data: DemoData, afterSeq: number): Promise<number> {
  let seq = afterSeq;
  const admin = data.accounts.find((a) => a.role === 'BUSINESS_ADMIN');
  if (!admin) return seq;
  const at = data.business.created_at;
  await tx.query(
    `INSERT INTO accounting_settings (business_id, provider_type, connected_at, connected_by, default_provider, updated_at)
     VALUES ($1, 'csv', $2, $3, 'csv', $2)`,
    [data.business.id, at, admin.user_id],
  );
  for (const [priority, rule] of DEMO_MAPPING_RULES.entries()) {
    const gl = data.glAccounts.find((g) => g.code === rule.gl_code && g.active);
    if (!gl) continue;
    await tx.query(
      `INSERT INTO accounting_mapping_rules (id, business_id, priority, match_field, match_operator, match_value, gl_account_id,
         created_by, created_at, updated_at, change_seq) VALUES ($1, $2, $3, 'merchant_name', 'equals', $4, $5, $6, $7, $7, $8)`,
      [derivedId(data.business.id, `mapping-rule:${rule.merchant}`), data.business.id, priority, rule.merchant, gl.id, admin.user_id, at, ++seq],
    );
  }
  return seq;
}
