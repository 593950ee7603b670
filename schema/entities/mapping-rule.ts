import type { z } from 'zod';
import { mappingRuleSchema } from '../mapping-rules.ts';
import { mirroredFields } from './common.ts';
import { defineReference } from './define-entity.ts';

/**
 * An accounting mapping rule as mirrored (issue 12): reference data (`refs`), visible to every
 * member, so the transaction drawer suggests a rule's coding for an uncoded transaction on the
 * device, offline too, with schema/mapping-rules.ts's matcher (the server's "apply rules" uses the
 * same). Written only through the accounting calls (admins, AP clerks, bookkeepers).
 */
export const mappingRuleRowSchema = mappingRuleSchema.omit({ updated_at: true }).extend(mirroredFields);
export type MappingRuleRow = z.output<typeof mappingRuleRowSchema>;

/** Table `accounting_mapping_rules` (migration 020). */
export const mappingRuleEntity = defineReference({
  name: 'mapping_rules', schema: mappingRuleRowSchema, visibility: 'business', searchText: ['match_value'],
  columns: { priority: { type: 'int' } },
});
