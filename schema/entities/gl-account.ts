import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';

export const glAccountSchema = z.object({
  id: uuid,
  code: z.string().min(1),
  name: z.string().min(1),
  classification: z.enum(['EXPENSE', 'ASSET', 'LIABILITY', 'EQUITY', 'REVENUE']),
  active: z.boolean(),
  ...mirroredFields,
});
export type GlAccount = z.infer<typeof glAccountSchema>;

/** Table `gl_accounts`. */
const glAccountColumns: ColumnMap<GlAccount> = {
  id: { type: 'uuid', indexed: true },
  code: { type: 'text' },
  name: { type: 'text' },
  classification: { type: 'text' },
  active: { type: 'bool' },
  ...MIRRORED_COLUMNS,
};

export const glAccountEntity = defineEntity({
  name: 'gl_accounts',
  schema: glAccountSchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'business',
  searchText: ['code', 'name'],
  columns: glAccountColumns,
});
