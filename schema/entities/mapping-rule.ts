import type { z } from 'zod';
import { mappingRuleSchema } from '../mapping-rules.ts';
import { mirroredFields } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';

/**
 * An accounting mapping rule as mirrored (issue 12): reference data (`refs`), visible to every
 * member, so the transaction drawer suggests a rule's coding for an uncoded transaction on the
 * device, offline too, with schema/mapping-rules.ts's matcher (the server's "apply rules" uses the
 * same). Written only through the accounting calls (admins, AP clerks, bookkeepers).
 */
export const mappingRuleRowSchema = mappingRuleSchema.omit({ updated_at: true }).extend(mirroredFields);
export type MappingRuleRow = z.output<typeof mappingRuleRowSchema>;

/** Table `accounting_mapping_rules` (migration 020). */
const mappingRuleColumns: ColumnMap<MappingRuleRow> = {
  id: { type: 'uuid', indexed: true },
  priority: { type: 'int' },
  match_field: { type: 'text' },
  match_operator: { type: 'text' },
  match_value: { type: 'text' },
  gl_account_id: { type: 'uuid' },
  department_id: { type: 'uuid' },
  tracking: { type: 'jsonb' },
  created_by: { type: 'uuid' },
  created_at: { type: 'timestamptz' },
  ...MIRRORED_COLUMNS,
};

export const mappingRuleEntity = defineEntity({
  name: 'mapping_rules',
  schema: mappingRuleRowSchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'business',
  searchText: ['match_value'],
  columns: mappingRuleColumns,
});
