import { randomUUID } from 'node:crypto';
import { writeMirrored } from '../collections.ts';
import { BULK_CODE_MAX } from '../../../schema/constants.ts';
import {
  MAX_MAPPING_RULES, ruleCodingPatch, suggestCoding, type MappingRule, type MappingRuleInput,
} from '../../../schema/mapping-rules.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { bulkCode, checkCodingRefs } from '../coding.ts';
import { visibleUsersClause, type Visibility } from '../visibility.ts';
import { findLiveDoc } from '../live-doc.ts';

/**
 * Mapping rules (issue 12): stored per business, matched by the pure rules of
 * schema/mapping-rules.ts, applied in bulk through the same bulk coding write as a user's
 * selection (domain/coding.ts: reference checks, the synced refusal, one seq per row).
 */

const RULE_DOC = `jsonb_build_object(
  'id', r.id, 'priority', r.priority, 'match_field', r.match_field, 'match_operator', r.match_operator,
  'match_value', r.match_value, 'gl_account_id', r.gl_account_id, 'department_id', r.department_id, 'tracking', r.tracking,
  'created_by', r.created_by, 'created_at', ll_iso(r.created_at), 'updated_at', ll_iso(r.updated_at))`;
const ORDER = 'ORDER BY r.priority, r.created_at, r.id';

export async function listRules(db: Queryable, businessId: string): Promise<MappingRule[]> {
  const rows = await db.query<{ doc: MappingRule }>(
    `SELECT ${RULE_DOC} AS doc FROM accounting_mapping_rules r WHERE r.business_id = $1 AND NOT r.deleted ${ORDER}`, [businessId],
  );
  return rows.map((r) => r.doc);
}

async function findRule(db: Queryable, businessId: string, id: string, lock = false): Promise<MappingRule> {
  return findLiveDoc<MappingRule>(db, { table: 'accounting_mapping_rules', doc: RULE_DOC, notFound: 'This mapping rule was not found.' }, businessId, id, lock);
}

/** The coding must name the business's live references, and a vendor rule one of its vendors. */
async function checkRule(tx: Queryable, businessId: string, input: MappingRuleInput): Promise<void> {
  await checkCodingRefs(tx, businessId, { gl_account_id: input.gl_account_id, department_id: input.department_id, tracking: input.tracking });
  if (input.match_field === 'vendor') {
    const rows = await tx.query('SELECT 1 FROM vendors WHERE business_id = $1 AND id = $2 AND NOT deleted', [businessId, input.match_value]);
    if (rows.length === 0) throw validationError({ match_value: 'match_value must be a vendor of this business' });
  }
}

/** The business's rules are written one at a time: the settings row (made if missing) is their lock. */
async function lockRules(tx: Queryable, businessId: string): Promise<void> {
  await tx.query('INSERT INTO accounting_settings (business_id) VALUES ($1) ON CONFLICT (business_id) DO NOTHING', [businessId]);
  await tx.query('SELECT 1 FROM accounting_settings WHERE business_id = $1 FOR UPDATE', [businessId]);
}

/**
 * Rules are mirrored (reference data, issue 12): every write takes its change seq through
 * writeMirrored, which locks the business row first, as every mirrored write does.
 */
export async function createRule(tx: Queryable, user: ActingUser, input: MappingRuleInput, now: Date): Promise<MappingRule> {
  return writeMirrored(tx, user.business_id, 1, ({ seqs }) => insertRule(tx, user, input, now, seqs.last));
}

async function insertRule(tx: Queryable, user: ActingUser, input: MappingRuleInput, now: Date, seq: number): Promise<MappingRule> {
  const businessId = user.business_id;
  await lockRules(tx, businessId);
  await checkRule(tx, businessId, input);
  const [stats] = await tx.query<{ n: number; next: number }>(
    'SELECT count(*) AS n, coalesce(max(priority) + 1, 0) AS next FROM accounting_mapping_rules WHERE business_id = $1 AND NOT deleted',
    [businessId],
  );
  if (Number(stats?.n ?? 0) >= MAX_MAPPING_RULES) {
    throw new ApiError('REQUEST_7001', `A business can keep at most ${MAX_MAPPING_RULES} mapping rules. Delete one first.`);
  }
  const id = randomUUID();
  await tx.query(
    `INSERT INTO accounting_mapping_rules (id, business_id, priority, match_field, match_operator, match_value, gl_account_id, department_id,
       tracking, created_by, created_at, updated_at, change_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $11, $12)`,
    [id, businessId, input.priority ?? Number(stats?.next ?? 0), input.match_field, input.match_operator, input.match_value,
      input.gl_account_id, input.department_id, JSON.stringify(input.tracking), user.id, now.toISOString(), seq],
  );
  return findRule(tx, businessId, id);
}

/** PUT: the rule's fields replaced; an omitted priority keeps its place. */
export async function replaceRule(tx: Queryable, businessId: string, id: string, input: MappingRuleInput, now: Date): Promise<MappingRule> {
  return writeMirrored(tx, businessId, 1, ({ seqs }) => updateRule(tx, businessId, id, input, now, seqs.last));
}

async function updateRule(tx: Queryable, businessId: string, id: string, input: MappingRuleInput, now: Date, seq: number): Promise<MappingRule> {
  await lockRules(tx, businessId);
  const current = await findRule(tx, businessId, id, true);
  await checkRule(tx, businessId, input);
  await tx.query(
    `UPDATE accounting_mapping_rules SET priority = $3, match_field = $4, match_operator = $5, match_value = $6, gl_account_id = $7,
            department_id = $8, tracking = $9::jsonb, updated_at = $10, change_seq = $11 WHERE business_id = $1 AND id = $2`,
    [businessId, id, input.priority ?? current.priority, input.match_field, input.match_operator, input.match_value,
      input.gl_account_id, input.department_id, JSON.stringify(input.tracking), now.toISOString(), seq],
  );
  return findRule(tx, businessId, id);
}

export async function deleteRule(tx: Queryable, businessId: string, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    await findRule(tx, businessId, id, true);
    await tx.query('UPDATE accounting_mapping_rules SET deleted = true, updated_at = $3, change_seq = $4 WHERE business_id = $1 AND id = $2', [
      businessId, id, now.toISOString(), seqs.last,
    ]);
    return { id, deleted: true as const };
  });
}

/**
 * Codes every uncoded (no GL account), unsynced, live transaction the caller may see that a rule
 * matches, with the first matching rule's coding. Rules whose GL account was since deactivated
 * or deleted are skipped (the bulk write would refuse them). Each rule's rows go through
 * `bulkCode` in calls of at most BULK_CODE_MAX, inside this one transaction.
 */
export async function applyRules(tx: Queryable, businessId: string, vis: Visibility): Promise<{ updated: number; change_seq: number | null }> {
  const rules = await listRules(tx, businessId);
  const usable = new Set((await tx.query<{ id: string }>(
    `SELECT r.id::text FROM accounting_mapping_rules r LEFT JOIN gl_accounts g ON g.id = r.gl_account_id
      WHERE r.business_id = $1 AND NOT r.deleted AND (r.gl_account_id IS NULL OR (g.active AND NOT g.deleted))`,
    [businessId],
  )).map((r) => r.id));
  const live = rules.filter((r) => usable.has(r.id));
  if (live.length === 0) return { updated: 0, change_seq: null };
  const params: unknown[] = [businessId];
  const rows = await tx.query<{ id: string; merchant_name: string; merchant_category: string }>(
    `SELECT t.id::text, t.merchant_name, t.merchant_category FROM transactions t
      WHERE t.business_id = $1 AND NOT t.deleted AND t.gl_account_id IS NULL AND t.accounting_synced_at IS NULL${visibleUsersClause(vis, 't', params)}
      ORDER BY t.id`,
    params,
  );
  const byRule = new Map<string, { rule: MappingRule; ids: string[] }>();
  for (const row of rows) {
    const hit = suggestCoding(live, row);
    if (!hit) continue;
    const group = byRule.get(hit.rule.id) ?? { rule: hit.rule, ids: [] };
    group.ids.push(row.id);
    byRule.set(hit.rule.id, group);
  }
  let updated = 0;
  let changeSeq: number | null = null;
  for (const { rule, ids } of byRule.values()) {
    for (let i = 0; i < ids.length; i += BULK_CODE_MAX) {
      const res = await bulkCode(tx, businessId, vis, { transaction_ids: ids.slice(i, i + BULK_CODE_MAX), patch: ruleCodingPatch(rule) });
      updated += res.updated;
      changeSeq = res.change_seq;
    }
  }
  return { updated, change_seq: changeSeq };
}
