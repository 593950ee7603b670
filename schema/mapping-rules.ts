import { z } from 'zod';
import { isoDateTime, uuid } from './entities/common.ts';

/**
 * Accounting mapping rules (issue 12): "a merchant, merchant category or vendor → GL account /
 * department / tracking category". Pure, so the server's bulk "apply rules" and the client's
 * offline suggestions mean exactly the same thing.
 *
 * Matching: text is compared trimmed, case-insensitive, with runs of spaces as one; `equals`
 * needs the whole value, `contains` a substring. A `vendor` rule names a vendor id and matches
 * it exactly (whatever the operator). Rules are tried in order (`priority` ascending, then oldest
 * first, then id): the first that matches wins, so a specific rule placed before a broad one
 * overrides it.
 */
const MAPPING_MATCH_FIELDS = ['merchant_name', 'merchant_category', 'vendor'] as const;
export type MappingMatchField = (typeof MAPPING_MATCH_FIELDS)[number];
const MAPPING_OPERATORS = ['equals', 'contains'] as const;
export const MAX_MAPPING_RULES = 500;

const mappingRuleCodingSchema = z.object({
  gl_account_id: uuid.nullable(),
  department_id: uuid.nullable(),
  /** tracking category id → option id. */
  tracking: z.record(z.uuid(), uuid),
});
export type MappingRuleCoding = z.infer<typeof mappingRuleCodingSchema>;

export const mappingRuleSchema = z.object({
  id: uuid,
  priority: z.number().int().nonnegative(),
  match_field: z.enum(MAPPING_MATCH_FIELDS),
  match_operator: z.enum(MAPPING_OPERATORS),
  match_value: z.string(),
  ...mappingRuleCodingSchema.shape,
  created_by: uuid,
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type MappingRule = z.infer<typeof mappingRuleSchema>;

/** What a create or replace (PUT) takes. At least one coding field must be set. */
export const mappingRuleInputSchema = z
  .object({
    /** Lower runs first; omitted on a create: after every existing rule. */
    priority: z.number().int().min(0).max(1_000_000).optional(),
    match_field: z.enum(MAPPING_MATCH_FIELDS),
    match_operator: z.enum(MAPPING_OPERATORS).default('equals'),
    match_value: z.string().trim().min(1).max(200),
    gl_account_id: uuid.nullable().default(null),
    department_id: uuid.nullable().default(null),
    tracking: z.record(z.uuid(), uuid).default({}),
  })
  .refine((r) => r.gl_account_id !== null || r.department_id !== null || Object.keys(r.tracking).length > 0, {
    message: 'a rule must set a GL account, a department or a tracking category',
    path: ['gl_account_id'],
  })
  .refine((r) => r.match_field !== 'vendor' || z.uuid().safeParse(r.match_value).success, {
    message: 'match_value must be a vendor id when match_field is vendor',
    path: ['match_value'],
  });
export type MappingRuleInput = z.output<typeof mappingRuleInputSchema>;

/** What a rule is matched against: a transaction's merchant and category, a bill's vendor. */
export type MappingSubject = { merchant_name?: string | null; merchant_category?: string | null; vendor_id?: string | null };

type RuleLike = Pick<MappingRule, 'id' | 'priority' | 'match_field' | 'match_operator' | 'match_value' | 'created_at'> & MappingRuleCoding;

const normal = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

export function ruleMatches(rule: Pick<RuleLike, 'match_field' | 'match_operator' | 'match_value'>, subject: MappingSubject): boolean {
  if (rule.match_field === 'vendor') return !!subject.vendor_id && subject.vendor_id.toLowerCase() === rule.match_value.toLowerCase();
  const text = rule.match_field === 'merchant_name' ? subject.merchant_name : subject.merchant_category;
  if (!text) return false;
  const value = normal(rule.match_value);
  if (value === '') return false;
  return rule.match_operator === 'equals' ? normal(text) === value : normal(text).includes(value);
}

/** Rules in the order they are tried. */
export function orderRules<R extends Pick<RuleLike, 'id' | 'priority' | 'created_at'>>(rules: readonly R[]): R[] {
  return [...rules].sort((a, b) => a.priority - b.priority || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** The coding the first matching rule suggests, with that rule's id; null when none matches. */
export function suggestCoding<R extends RuleLike>(rules: readonly R[], subject: MappingSubject): { rule: R; coding: MappingRuleCoding } | null {
  for (const rule of orderRules(rules)) {
    if (ruleMatches(rule, subject)) {
      return { rule, coding: { gl_account_id: rule.gl_account_id, department_id: rule.department_id, tracking: rule.tracking } };
    }
  }
  return null;
}

/** A rule's coding as a coding patch: only the fields it sets (a rule never clears coding). */
export function ruleCodingPatch(coding: MappingRuleCoding) {
  return {
    ...(coding.gl_account_id !== null && { gl_account_id: coding.gl_account_id }),
    ...(coding.department_id !== null && { department_id: coding.department_id }),
    ...(Object.keys(coding.tracking).length > 0 && { tracking: { ...coding.tracking } }),
  };
}
