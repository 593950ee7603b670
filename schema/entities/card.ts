import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';

export const cardStateSchema = z.enum(['ACTIVE', 'LOCKED', 'TERMINATED']);
export const cardSchema = z.object({
  id: uuid,
  user_id: uuid,
  display_name: z.string(),
  last_four: z.string().regex(/^\d{4}$/),
  is_physical: z.boolean(),
  state: cardStateSchema,
  ...mirroredFields,
});
export type Card = z.infer<typeof cardSchema>;

export const cardEntity = defineEntity({
  name: 'cards',
  schema: cardSchema,
  idField: 'id',
  mirror: { kind: 'own', indexes: [] },
  visibility: 'owner',
  searchText: ['display_name', 'last_four'],
});
