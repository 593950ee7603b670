import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';

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
