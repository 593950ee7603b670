import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

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
export const glAccountEntity = defineReference({
  name: 'gl_accounts', schema: glAccountSchema, visibility: 'business', searchText: ['code', 'name'],
});
